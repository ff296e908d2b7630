# Load the Celery app with Django so that @shared_task uses it and delay_on_commit works.
from .celery import app as celery_app

__all__ = ("celery_app",)

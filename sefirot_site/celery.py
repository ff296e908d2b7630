"""The Celery app: broker and result settings come from Django settings (CELERY_*)."""

import os

from celery import Celery

from sefirot_site import embedded_broker

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sefirot_site.settings")
# filesystem:// (the embedded defaults) writes each message whole before a worker sees it.
embedded_broker.register()

app = Celery("sefirot_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The worker's heartbeat thread (/healthz reads it), connected to the worker's signals.
import sefirot_site.heartbeat  # noqa: E402,F401
# The database connection kept from task to task, checked before each (Django's rules).
import sefirot_site.worker_database  # noqa: E402,F401

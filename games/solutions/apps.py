from django.apps import AppConfig


class SolutionsConfig(AppConfig):
    """The solver's jobs on the site (one per finished solo game) and their page."""

    name = "games.solutions"
    label = "solutions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import receivers  # noqa: F401  (a finished game asks for its search)

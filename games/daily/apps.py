from django.apps import AppConfig


class DailyConfig(AppConfig):
    name = "games.daily"
    label = "daily"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games.daily import receivers  # noqa: F401  (a finished daily game records its result)
        from games.daily import tasks  # noqa: F401  (the solver and the shared seals, by name from the outbox)

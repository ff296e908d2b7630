from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "games.ratings"
    label = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games.ratings import receivers  # noqa: F401  (a finished game rates its players)

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "games.players"
    label = "players"
    default_auto_field = "django.db.models.BigAutoField"

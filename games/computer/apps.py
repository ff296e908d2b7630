from django.apps import AppConfig


class ComputerConfig(AppConfig):
    """The computer's own tables (reviews of solo games); its receivers and tasks are
    connected by GamesConfig.ready with the rest of the games app's."""

    name = "games.computer"
    label = "computer"
    default_auto_field = "django.db.models.BigAutoField"

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # Signal receivers of this app (one import line per module that connects any).
        from games import receivers  # noqa: F401
        from games import mail_receivers  # noqa: F401  (turn mail, game-over mail, vacation pauses)

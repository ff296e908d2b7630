from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # Signal receivers of this app (one import line per module that connects any).
        from games import receivers  # noqa: F401
        from games import mail_receivers  # noqa: F401  (turn mail, game-over mail, vacation pauses)
        from games.computer import receivers as computer_receivers  # noqa: F401  (computer players' moves)
        from games.computer import tasks as computer_tasks  # noqa: F401  (found by the worker)

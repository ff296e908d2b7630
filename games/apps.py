from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # Signal receivers and Celery tasks of the packages inside this app: one line per
        # module that connects receivers or defines tasks (the worker's autodiscovery only
        # looks for an app's own tasks.py).
        from games import receivers  # noqa: F401
        from games.mail import receivers as mail_receivers  # noqa: F401  (turn, game-over and invitation mail)
        from games.mail import tasks as mail_tasks  # noqa: F401
        from games.clocks import receivers as clock_receivers  # noqa: F401  (vacation pauses)
        from games.clocks import tasks as clock_tasks  # noqa: F401  (reminders, time-outs, a day given)
        from games.computer import receivers as computer_receivers  # noqa: F401  (computer players' moves)
        from games.computer import tasks as computer_tasks  # noqa: F401  (found by the worker)

from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "games.push"
    label = "push"
    verbose_name = "Web Push notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games.push import checks  # noqa: F401  (a VAPID key in the environment is one)
        from games.push import receivers  # noqa: F401  (turns, invitations, ends: into the outbox)
        from games.push import tasks  # noqa: F401  (found by the worker)

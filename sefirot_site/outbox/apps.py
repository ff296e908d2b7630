from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "sefirot_site.outbox"
    label = "outbox"
    verbose_name = "Outbox of pending tasks"
    default_auto_field = "django.db.models.BigAutoField"

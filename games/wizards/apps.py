from django.apps import AppConfig


class WizardsConfig(AppConfig):
    name = "games.wizards"
    label = "wizards"
    verbose_name = "Tarot wizards tables"

    def ready(self):
        # Replies to an "asked to act" mail are one more kind of mail table.
        from games.wizards import mail_seats  # noqa: F401

from django.apps import AppConfig


class JournalConfig(AppConfig):
    name = "journal"

    def ready(self):
        from games.signals import game_finished
        from sefirot_site.accounts.signals import account_deleting

        from . import services

        # A finished game leaves its reading in each human player's journal.
        game_finished.connect(services.on_game_finished, dispatch_uid="journal.entries_from_game")
        # A journal is personal data: it goes with the account.
        account_deleting.connect(services.on_account_deleting, dispatch_uid="journal.delete_journal")

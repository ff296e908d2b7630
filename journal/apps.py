from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import pre_delete


class JournalConfig(AppConfig):
    name = "journal"

    def ready(self):
        from games.signals import game_finished_before_commit
        from sefirot_site.accounts.signals import account_deleting

        from . import services

        # A finished game leaves its reading in each human player's journal, written in
        # the transaction that ended it, so no finished game is ever without its entries.
        game_finished_before_commit.connect(services.on_game_finished, dispatch_uid="journal.entries_from_game")
        # A journal is personal data: it goes with the account.
        account_deleting.connect(services.on_account_deleting, dispatch_uid="journal.delete_journal")
        # Deleting the user row resigns its running games first (games' pre_delete
        # receiver, connected before this one), and a game that ends there writes its
        # journal entries in the same transaction: they go too, after the cascade was
        # already collected.
        pre_delete.connect(services.on_user_deleted, sender=settings.AUTH_USER_MODEL,
                           dispatch_uid="journal.delete_journal_on_user_delete")

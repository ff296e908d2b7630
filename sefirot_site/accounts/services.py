"""What happens to an account, in one place so every caller (views, admin, shell) agrees."""

from __future__ import annotations

from django.db import transaction

from .signals import account_deleting

__all__ = ["account_deleting", "delete_account"]


def delete_account(user) -> None:
    """Delete ``user`` and their personal data.

    Other apps clean up through ``account_deleting`` first (finished games keep an
    anonymous seat, the journal goes), all in one transaction: if any receiver fails,
    nothing is deleted. The user row's cascade removes email addresses, sessions' owner
    and allauth's records; Django sessions of that user simply stop resolving to a user.
    """
    with transaction.atomic():
        account_deleting.send(sender=type(user), user=user)
        user.delete()

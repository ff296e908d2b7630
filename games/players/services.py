"""Following players: each change a function that checks, then does."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from .models import Follow


class FollowRefused(Exception):
    """A follow that cannot be: ``message`` says why, in words for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def follow(follower, followed) -> bool:
    """``follower`` follows ``followed``; False when they already did (nothing changes)."""
    if followed.pk == follower.pk:
        raise FollowRefused("You cannot follow yourself.")
    if followed.is_computer:
        raise FollowRefused(f"{followed} is a computer player of the site: it posts no challenges to follow. "
                            "Invite it to a game whenever you like.")
    if not followed.is_active:
        raise FollowRefused("That player’s account is closed.")
    try:
        # A savepoint: two requests at once both pass a check, the unique pair refuses one.
        with transaction.atomic():
            _, made = Follow.objects.get_or_create(follower=follower, followed=followed)
    except IntegrityError:
        return False
    return made


def unfollow(follower, followed) -> bool:
    """``follower`` stops following ``followed``; False when they did not (nothing changes)."""
    deleted, _ = Follow.objects.filter(follower=follower, followed=followed).delete()
    return bool(deleted)

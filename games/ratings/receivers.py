"""A finished game of a rated mode rates its players in the transaction that finished it."""

from __future__ import annotations

import logging

from django.dispatch import receiver

from games import signals

log = logging.getLogger(__name__)


@receiver(signals.game_finished_before_commit, dispatch_uid="games.ratings.game_finished")
def rate_finished_game(sender, game_id, status, game=None, **kwargs):
    if status != "finished":
        return
    from .services import rate_game

    try:
        rate_game(game_id, game)
    except Exception:  # a rating must never undo the move that finished the game
        log.exception("Could not rate game %s", game_id)

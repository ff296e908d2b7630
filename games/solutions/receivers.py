"""A finished game asks for its deal's search in the transaction that ended it (connected in
SolutionsConfig.ready)."""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import receiver

from games import signals

log = logging.getLogger(__name__)


@receiver(signals.game_finished_before_commit, dispatch_uid="games.solutions.game_finished")
def game_finished(sender, game_id, status, game=None, **kwargs):
    if status != "finished":
        return
    from games.models import Game

    from .services import request_solve

    game = game or Game.objects.get(pk=game_id)

    try:
        # In a savepoint: a failure here must not undo the move that ended the game.
        with transaction.atomic():
            request_solve(game)
    except Exception:  # noqa: BLE001 - the sweep cannot find a job never written; logged
        log.exception("could not ask for the search of game %s", game_id)

"""A finished daily game records how it ended in its play, in the transaction that ended it."""

from __future__ import annotations

from django.dispatch import receiver

from games import signals


@receiver(signals.game_finished_before_commit, dispatch_uid="games.daily.game_finished")
def game_finished(sender, game_id, status, game=None, **kwargs):
    from .services import record_finish

    if game is None:
        from games.models import Game

        game = Game.objects.filter(pk=game_id).first()
    if game is not None and game.players == 1:
        record_finish(game)

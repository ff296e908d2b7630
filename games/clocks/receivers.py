"""Where the clocks listen to ``games.signals`` (connected in GamesConfig.ready): they act
on committed rows, keeping a vacation's pause when a move gives the game a fresh deadline."""

from __future__ import annotations

from django.dispatch import receiver

from games import signals
from games.clocks import deadlines


@receiver(signals.move_applied, dispatch_uid="games.deadlines.move_applied")
def keep_vacation_pauses(sender, game_id, version, seat, to_act, clocked=None, **kwargs):
    # services give every move a fresh deadline; a player to act who is on vacation must
    # not see that clock run.  A game without a clock (submit_move says so) has none to keep.
    if clocked is False:
        return
    if deadlines.needs_vacation_sync(game_id, to_act):
        deadlines.sync_vacation_pause(game_id)


@receiver(signals.turn_changed, dispatch_uid="games.deadlines.game_started")
def pause_a_clock_that_starts_during_a_vacation(sender, game_id, version, to_act, **kwargs):
    # A game starts (version 0: an invitation or a challenge accepted) with a fresh
    # deadline even when the player to act first is away, e.g. a challenge posted before
    # leaving; without this its time would run out during the vacation.  Later turns are
    # kept by keep_vacation_pauses.
    if version == 0 and deadlines.needs_vacation_sync(game_id, to_act):
        deadlines.sync_vacation_pause(game_id)

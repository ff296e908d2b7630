"""When a computer seat must act, its move is recorded in the outbox with the change that
made it so (connected in GamesConfig.ready)."""

from __future__ import annotations

from django.dispatch import receiver

from games import signals
from games.models import Seat
from sefirot_site.outbox import enqueue


def _queue_if_a_computer_acts(game_id: int, version: int, to_act: list[int]) -> None:
    from .tasks import play_computer_move

    computer_to_act = (Seat.objects.filter(game_id=game_id, index__in=to_act, status=Seat.Status.JOINED)
                       .exclude(user__computer_level="").exists())
    if computer_to_act:
        enqueue(play_computer_move, game_id, version)


@receiver(signals.move_applied_before_commit, dispatch_uid="games.computer.after_a_move")
def after_a_move(sender, game_id, version, seat, to_act, computer_to_act=None, **kwargs):
    # submit_move says whether a computer is to act (it has the seats loaded); asked here
    # only when a sender did not say.
    if computer_to_act is None:
        _queue_if_a_computer_acts(game_id, version, to_act)
    elif computer_to_act:
        from .tasks import play_computer_move

        enqueue(play_computer_move, game_id, version)


@receiver(signals.turn_changed_before_commit, dispatch_uid="games.computer.at_the_start")
def at_the_start(sender, game_id, version, to_act, **kwargs):
    if version == 0:  # later turns come with a move (after_a_move)
        _queue_if_a_computer_acts(game_id, version, to_act)


@receiver(signals.seat_taken_over_before_commit, dispatch_uid="games.computer.taken_over")
def taken_over(sender, game_id, version, to_act, **kwargs):
    _queue_if_a_computer_acts(game_id, version, to_act)

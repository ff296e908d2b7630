"""Where Web Push listens to ``games.signals`` (connected in PushConfig.ready), as play by
mail does (``games.mail.receivers``): each push is recorded in the outbox inside the
transaction of its cause, published after commit and swept up again if the broker was away.

Only seats whose players have a device subscribed (and have not muted the game) are
recorded, so a game nobody takes pushes for costs one query at a change of turn and no
outbox row.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, OuterRef
from django.dispatch import receiver

from games import signals
from games.models import Seat
from games.push.models import GameMute, PushSubscription
from games.push.tasks import push_deadline, push_game_over, push_invitation, push_turn
from sefirot_site.outbox import enqueue
from sefirot_site.prepared import PreparedQuery


def _pushed_seats(game_id):
    return Seat.objects.filter(
        Exists(PushSubscription.objects.filter(user=OuterRef("user_id"))),
        ~Exists(GameMute.objects.filter(user=OuterRef("user_id"), game=OuterRef("game_id"))),
        game_id=game_id, user__is_active=True,
    )


# Asked at every change of turn of a game of two or more: compiled once (sefirot_site.prepared).
_SEATS_PUSHED_EACH_TURN = PreparedQuery(
    lambda game_id: _pushed_seats(game_id).filter(status=Seat.Status.JOINED, game__players__gt=1)
    .order_by("index").values_list("pk", "index"), 1)


@receiver(signals.turn_changed_before_commit, dispatch_uid="games.push.turn_changed")
def push_to_the_seats_to_act(sender, game_id, version, to_act, **kwargs):
    for seat_id, index in _SEATS_PUSHED_EACH_TURN(game_id):
        if index in to_act:
            enqueue(push_turn, seat_id, version)


@receiver(signals.game_finished_before_commit, dispatch_uid="games.push.game_finished")
def push_the_end(sender, game_id, status, version, **kwargs):
    if _pushed_seats(game_id).filter(status=Seat.Status.JOINED).exists():
        enqueue(push_game_over, game_id, version)


@receiver(signals.seat_invited_before_commit, dispatch_uid="games.push.seat_invited")
def push_the_invitation(sender, game_id, seat_id, **kwargs):
    if _pushed_seats(game_id).filter(pk=seat_id).exists():
        enqueue(push_invitation, seat_id)


def push_deadline_soon(game_id: int, deadline: datetime) -> None:
    """Called by the clocks' round (``games.clocks.tasks.check_clocks``) for a deadline that
    is close: recorded only when a seat of the game takes pushes.  The round asks again
    until the reminder mail marks the deadline reminded; the task pushes once per device."""
    if _pushed_seats(game_id).filter(status=Seat.Status.JOINED).exists():
        enqueue(push_deadline, game_id, deadline.isoformat())

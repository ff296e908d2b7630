"""Where play by mail and the clocks listen to ``games.signals`` (connected in GamesConfig.ready).

Mails are consequences that must not be lost: their receivers listen to the
``*_before_commit`` signals and record each mail in the outbox inside the transaction of
the move (``sefirot_site.outbox.enqueue``), which publishes it after commit and sweeps it
up again if the broker was away. The clock's receivers act on committed rows.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.dispatch import receiver

from games import clock, signals
from games.models import Seat
from sefirot_site.outbox import enqueue


@receiver(signals.turn_changed_before_commit, dispatch_uid="games.mail.turn_changed")
def mail_the_seats_to_act(sender, game_id, version, to_act, **kwargs):
    from games.mail_tasks import send_turn_mail

    User = get_user_model()
    seat_ids = Seat.objects.filter(
        game_id=game_id, index__in=to_act, status=Seat.Status.JOINED,
        user__is_active=True, user__turn_mail=User.TurnMail.EACH_TURN,
    ).values_list("pk", flat=True)
    for seat_id in seat_ids:
        enqueue(send_turn_mail, seat_id, version)


@receiver(signals.move_applied, dispatch_uid="games.clock.move_applied")
def keep_vacation_pauses(sender, game_id, version, seat, to_act, **kwargs):
    # services give every move a fresh deadline; a player to act who is on vacation must
    # not see that clock run.
    if clock.needs_vacation_sync(game_id, to_act):
        clock.sync_vacation_pause(game_id)


@receiver(signals.turn_changed, dispatch_uid="games.clock.game_started")
def pause_a_clock_that_starts_during_a_vacation(sender, game_id, version, to_act, **kwargs):
    # A game starts (version 0: an invitation or a challenge accepted) with a fresh
    # deadline even when the player to act first is away, e.g. a challenge posted before
    # leaving; without this its time would run out during the vacation.  Later turns are
    # kept by keep_vacation_pauses.
    if version == 0 and clock.needs_vacation_sync(game_id, to_act):
        clock.sync_vacation_pause(game_id)


@receiver(signals.game_finished_before_commit, dispatch_uid="games.mail.game_finished")
def mail_the_end(sender, game_id, status, version, **kwargs):
    from games.mail_tasks import send_game_over_mail

    enqueue(send_game_over_mail, game_id, version)


@receiver(signals.seat_invited_before_commit, dispatch_uid="games.mail.seat_invited")
def mail_the_invitation(sender, game_id, seat_id, **kwargs):
    from games.tasks import send_invitation_mail

    enqueue(send_invitation_mail, seat_id)

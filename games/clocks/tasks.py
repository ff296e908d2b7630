"""The clocks' Celery tasks: the scheduler's round, reminders, a day given, time-outs.

Same shape as the mail tasks (``games.mail.tasks``): ids in, checked again when run, a
mark that the mail went, bounded retries; no game row is locked while a mail server talks.
"""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.clocks import deadlines
from games.mail import bounces
from games.mail.outgoing import day_given_mail, reminder_mail
from games.mail.tasks import RETRY
from games.models import Game, GameEvent, Seat
from games.push.receivers import push_deadline_soon

User = get_user_model()


@shared_task(name="games.check_clocks", soft_time_limit=240, time_limit=300)
def check_clocks() -> dict:
    """The scheduler's round: reminders due, overdue games, spent vacations."""
    now = timezone.now()
    ended_vacations = deadlines.end_spent_vacations(now)
    reminders = 0
    for game_id, deadline in deadlines.reminders_due(now):
        send_deadline_reminder.delay(game_id, deadline.isoformat())
        push_deadline_soon(game_id, deadline)  # through the outbox, to the devices that take pushes
        reminders += 1
    overdue = 0
    for game_id, version in deadlines.overdue_games(now):
        end_overdue_game.delay(game_id, version)
        overdue += 1
    return {"reminders": reminders, "overdue": overdue, "vacations_ended": ended_vacations}


@shared_task(name="games.send_deadline_reminder", **RETRY)
def send_deadline_reminder(game_id: int, deadline: str) -> str:
    """Remind the seats to act that their time is nearly up, once per deadline.

    The game is read, the mails sent, then the deadline marked reminded, each on its own:
    no lock is held while the mail server talks, since the game's row lock made every move
    of the game wait for a slow server.  A failed send marks nothing and the task retries
    (a seat mailed before the failure may get a second reminder, never none); the mark is
    written only while the deadline is still the one reminded of."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.deadline is None:
        return "no clock running"
    if game.deadline != datetime.fromisoformat(deadline):
        return "deadline moved"
    if game.reminded_deadline == game.deadline:
        return "already reminded"
    seats = [seat for seat in game.seats.select_related("user").filter(status=Seat.Status.JOINED)
             if seat.index in game.to_act and seat.user is not None and seat.user.email
             and seat.user.is_active and seat.user.turn_mail != User.TurnMail.NEVER
             and not seat.mail_muted and not seat.user.mail_undeliverable]
    for seat in seats:
        seat.game = game
        bounces.send(reminder_mail(seat), seat.user)
    Game.objects.filter(pk=game.pk, deadline=game.deadline).update(reminded_deadline=game.deadline)
    return f"reminded {len(seats)}"


@shared_task(name="games.send_day_given_mail", **RETRY)
def send_day_given_mail(event_id: int) -> str:
    """Tell the seats a day was given to that they have it, once per event, while that
    turn is still open.  Days given in a quick row make one mail: the last one's, which
    counts them all."""
    with transaction.atomic():
        event = GameEvent.objects.select_for_update().select_related("game").filter(pk=event_id).first()
        if event is None:
            return "no such event"
        if event.mailed_at is not None:
            return "already sent"
        game = event.game
        if game.status != Game.Status.ACTIVE or game.version != event.version:
            return "turn already played"
        if GameEvent.objects.filter(game=game, kind=event.kind, version=event.version, seat=event.seat,
                                    pk__gt=event.pk).exists():
            return "a later day's mail tells it"
        sent = 0
        for seat in game.seats.select_related("user").filter(status=Seat.Status.JOINED, index__in=event.to_seats):
            user = seat.user
            if user is None or not user.is_active or not user.email or user.turn_mail == User.TurnMail.NEVER \
                    or seat.mail_muted or user.mail_undeliverable:
                continue
            seat.game = game
            # A failure rolls the mark back and the task retries; a bounce does not.
            sent += bounces.send(day_given_mail(seat, event), user)
        event.mailed_at = timezone.now()
        event.save(update_fields=["mailed_at"])
    return f"sent {sent}"


@shared_task(name="games.end_overdue_game", **RETRY)
def end_overdue_game(game_id: int, version: int) -> str:
    return deadlines.end_overdue_game(game_id, version)



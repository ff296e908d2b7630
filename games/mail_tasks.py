"""Celery tasks for turn mail, digests, reminders, days given, time-outs and spent vacations.

Each task takes ids, is queued with ``delay_on_commit`` (or by the scheduler), and checks
again when it runs whether it still has anything to do: a turn mail for a version the
game has left is dropped, so a worker catching up on a backlog sends no stale flood.  A
mail and the row that marks it sent are written in one transaction, so a failed send
leaves no mark and the retry (bounded, with backoff) sends it; a task run twice finds
the mark and sends nothing.
"""

from __future__ import annotations

from datetime import date, datetime

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from games import clock, services
from games.mail import day_given_mail, digest_mail, game_over_mail, reminder_mail, turn_mail
from games.mail_models import DigestSent, SeatMailSent
from games.models import Game, GameEvent, Seat
from sefirot_site.outbox import enqueue

User = get_user_model()

# Mail servers and databases have bad minutes: retry those, give up after about an hour.
RETRY = {
    "autoretry_for": (OSError, OperationalError),
    "retry_backoff": 30,
    "retry_backoff_max": 1800,
    "retry_jitter": True,
    "max_retries": 6,
    "soft_time_limit": 60,
    "time_limit": 90,
}


def deliver_turn_mail(seat_id: int, version: int, *, note: str = "", in_reply_to: str = "",
                      subject: str = "", answer: bool = False) -> str:
    """Send the turn mail of ``seat_id`` for ``version`` if that turn is still open.

    ``answer`` is for the answer to a mail the player sent: it goes whatever their
    preference and even if a turn mail for this version went out already, and a send
    failure is reported in the result instead of raised.
    """
    with transaction.atomic():
        seat = Seat.objects.select_related("game", "user").filter(pk=seat_id).first()
        if seat is None or seat.user is None or not seat.user.is_active or not seat.user.email:
            return "no player to mail"
        game = seat.game
        if game.status != Game.Status.ACTIVE or game.version != version or seat.index not in game.to_act:
            return "turn already played"
        if seat.status != Seat.Status.JOINED:
            return "seat not joined"
        if not answer and seat.user.turn_mail != User.TurnMail.EACH_TURN:
            return f"preference is {seat.user.turn_mail}"
        if not answer and _is_looking(seat):
            # The player has the game open right now (its page polls): a mail would only
            # repeat what the page shows. Asked again later; sent then if they left
            # without playing (the turn played meanwhile drops it above).
            enqueue(send_turn_mail, seat_id, version, delay=settings.TURN_MAIL_LOOKING_SECONDS)
            return "the player is looking at the game"
        if not answer and _earlier_mail_fits(seat, version):
            # Asked again only because another seat asked at the same time moved: the mail
            # the player has is still good (services.still_current), so a second one would
            # only say the same with new numbers.
            return "the earlier turn mail still fits"
        try:
            with transaction.atomic():
                SeatMailSent.objects.create(seat=seat, version=version, kind=SeatMailSent.Kind.TURN)
        except IntegrityError:
            if not answer:
                return "already sent"
        message = turn_mail(seat, note=note, in_reply_to=in_reply_to, subject=subject)
        if not answer:
            message.send()
            return "sent"
        try:
            message.send()
        except OSError as error:
            return f"failed: {error}"
    return "sent"


def _is_looking(seat: Seat) -> bool:
    return seat.seen_at is not None and (
        timezone.now() - seat.seen_at).total_seconds() < settings.TURN_MAIL_LOOKING_SECONDS


def _earlier_mail_fits(seat: Seat, version: int) -> bool:
    earlier = (SeatMailSent.objects.filter(seat=seat, kind=SeatMailSent.Kind.TURN, version__lt=version)
               .order_by("-version").values_list("version", flat=True).first())
    return earlier is not None and services.still_current(seat.game, seat.index, earlier)


@shared_task(name="games.send_turn_mail", **RETRY)
def send_turn_mail(seat_id: int, version: int) -> str:
    return deliver_turn_mail(seat_id, version)


# --- the daily digest -------------------------------------------------------------------


def waiting_seats(user) -> list[Seat]:
    """The user's seats in games that wait for them, oldest deadline first."""
    seats = (
        Seat.objects.filter(user=user, status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE)
        .select_related("game", "user")
        .order_by("game__deadline", "game_id")
    )
    # to_act is a JSON list; SQLite has no JSON "contains", so this check is in Python.
    return [seat for seat in seats if seat.index in seat.game.to_act]


@shared_task(name="games.send_daily_digests", soft_time_limit=240, time_limit=300)
def send_daily_digests() -> int:
    """Queue today's digest for every daily-digest player whose digest hour has come."""
    now = timezone.now()
    queued = 0
    waiting = (
        Seat.objects.filter(status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE,
                            user__turn_mail=User.TurnMail.DAILY_DIGEST, user__is_active=True)
        .values_list("user_id", "index", "game__to_act")
    )
    users = {user_id for user_id, index, to_act in waiting if index in (to_act or [])}
    for user in User.objects.filter(pk__in=users):
        day = clock.local_digest_day(user, now)
        if day is not None and not DigestSent.objects.filter(user=user, day=day).exists():
            send_digest.delay(user.pk, day.isoformat())
            queued += 1
    return queued


@shared_task(name="games.send_digest", **RETRY)
def send_digest(user_id: int, day: str) -> str:
    with transaction.atomic():
        user = User.objects.filter(pk=user_id, is_active=True).first()
        if user is None or not user.email or user.turn_mail != User.TurnMail.DAILY_DIGEST:
            return "not a digest reader"
        try:
            with transaction.atomic():
                DigestSent.objects.create(user=user, day=date.fromisoformat(day))
        except IntegrityError:
            return "already sent"
        seats = waiting_seats(user)
        if not seats:
            transaction.set_rollback(True)  # nothing waits now: no mail, and no mark either
            return "nothing waiting"
        digest_mail(user, seats).send()
    return f"sent {len(seats)}"


# --- clocks -----------------------------------------------------------------------------


@shared_task(name="games.check_clocks", soft_time_limit=240, time_limit=300)
def check_clocks() -> dict:
    """The scheduler's round: reminders due, overdue games, spent vacations."""
    now = timezone.now()
    ended_vacations = clock.end_spent_vacations(now)
    reminders = 0
    for game_id, deadline in clock.reminders_due(now):
        send_deadline_reminder.delay(game_id, deadline.isoformat())
        reminders += 1
    overdue = 0
    for game_id, version in clock.overdue_games(now):
        end_overdue_game.delay(game_id, version)
        overdue += 1
    return {"reminders": reminders, "overdue": overdue, "vacations_ended": ended_vacations}


@shared_task(name="games.send_deadline_reminder", **RETRY)
def send_deadline_reminder(game_id: int, deadline: str) -> str:
    """Remind the seats to act that their time is nearly up, once per deadline."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE or game.deadline is None:
            return "no clock running"
        if game.deadline != datetime.fromisoformat(deadline):
            return "deadline moved"
        if game.reminded_deadline == game.deadline:
            return "already reminded"
        game.reminded_deadline = game.deadline
        Game.objects.filter(pk=game.pk).update(reminded_deadline=game.deadline)
        sent = 0
        for seat in game.seats.select_related("user").filter(status=Seat.Status.JOINED):
            if seat.index not in game.to_act or seat.user is None or not seat.user.email:
                continue
            if not seat.user.is_active or seat.user.turn_mail == User.TurnMail.NEVER:
                continue
            seat.game = game
            reminder_mail(seat).send()  # a failure rolls the mark back and the task retries
            sent += 1
    return f"reminded {sent}"


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
            if user is None or not user.is_active or not user.email or user.turn_mail == User.TurnMail.NEVER:
                continue
            seat.game = game
            day_given_mail(seat, event).send()  # a failure rolls the mark back and the task retries
            sent += 1
        event.mailed_at = timezone.now()
        event.save(update_fields=["mailed_at"])
    return f"sent {sent}"


@shared_task(name="games.end_overdue_game", **RETRY)
def end_overdue_game(game_id: int, version: int) -> str:
    return clock.end_overdue_game(game_id, version)


@shared_task(name="games.send_game_over_mail", **RETRY)
def send_game_over_mail(game_id: int, version: int) -> str:
    """Tell the players a game ended, once each."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.is_over or game.version != version:
        return "not over"
    if game.players == 1 and game.status == Game.Status.FINISHED:
        return "solo game finished in front of its player"
    sent = 0
    for seat in game.seats.select_related("user").filter(status=Seat.Status.JOINED):
        user = seat.user
        if user is None or not user.is_active or not user.email or user.turn_mail == User.TurnMail.NEVER:
            continue
        with transaction.atomic():
            try:
                with transaction.atomic():
                    SeatMailSent.objects.create(seat=seat, version=version, kind=SeatMailSent.Kind.GAME_OVER)
            except IntegrityError:
                continue
            seat.game = game
            game_over_mail(seat).send()
            sent += 1
    return f"sent {sent}"

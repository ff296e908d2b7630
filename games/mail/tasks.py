"""Celery tasks of play by mail: turn mail, digests, game-over mail and invitations.

Each task takes ids, is queued with ``delay_on_commit`` (or by the scheduler), and checks
again when it runs whether it still has anything to do: a turn mail for a version the
game has left is dropped, so a worker catching up on a backlog sends no stale flood.  A
mail and the row that marks it sent are written in one transaction, so a failed send
leaves no mark and the retry (bounded, with backoff) sends it; a task run twice finds
the mark and sends nothing.
"""

from __future__ import annotations

import contextlib
import smtplib
import threading
from datetime import date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import OuterRef, Subquery
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games import services
from games.mail import bounces
from games.mail.outgoing import digest_mail, game_over_mail, reveal_mail, turn_mail
from games.mail.models import DigestSent, SeatMailSent
from games.models import Game, Seat
from sefirot_site.outbox import enqueue
from sefirot_site.prepared import PreparedQuery, insert

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
    # What a mail task returns is for the worker's log only: storing it in the result
    # backend cost every mail another round trip to Redis that nobody read.
    "ignore_result": True,
}


def deliver_turn_mail(seat_id: int, version: int, *, note: str = "", in_reply_to: str = "",
                      subject: str = "", answer: bool = False) -> str:
    """Send the turn mail of ``seat_id`` for ``version`` if that turn is still open.

    ``answer`` is for the answer to a mail the player sent: it goes whatever their
    preference and even if a turn mail for this version went out already, and a send
    failure is reported in the result instead of raised.
    """
    with transaction.atomic():
        # Every seat of the seat's game, joined to the game and their users, in one query:
        # the mail names the other players too (a load of the seats after the seat was one
        # round trip more per mail).
        seats = _SEATS_TO_MAIL(int(seat_id), int(version))
        seat = next((s for s in seats if s.pk == int(seat_id)), None)
        if seat is None or seat.user is None or not seat.user.is_active or not seat.user.email:
            return "no player to mail"
        if seat.user.mail_undeliverable:
            return "the address bounced"
        game = services.keep_seats(seat.game, seats)
        if game.status != Game.Status.ACTIVE or game.version != version or seat.index not in game.to_act:
            return "turn already played"
        if seat.status != Seat.Status.JOINED:
            return "seat not joined"
        if not answer and seat.user.turn_mail != User.TurnMail.EACH_TURN:
            return f"preference is {seat.user.turn_mail}"
        if not answer and seat.mail_muted:
            return "the player stopped this game's mail"
        if not answer and _is_looking(seat):
            # The player has the game open right now (its page polls): a mail would only
            # repeat what the page shows. Asked again the moment the hold ends (a task of
            # its own time, not the sweep's next round); sent then if they left without
            # playing (the turn played meanwhile drops it above).
            enqueue(send_turn_mail, seat_id, version, delay=_hold_left(seat))
            return "the player is looking at the game"
        if not answer and _earlier_mail_fits(seat, version):
            # Asked again only because another seat asked at the same time moved: the mail
            # the player has is still good (services.still_current), so a second one would
            # only say the same with new numbers.
            return "the earlier turn mail still fits"
        if answer:
            # An answer goes even if a turn mail for this version went out already.
            with contextlib.suppress(IntegrityError), transaction.atomic():
                SeatMailSent.objects.create(seat=seat, version=version, kind=SeatMailSent.Kind.TURN)
        else:
            _mark_only_commit_unflushed()
            try:
                # No savepoint of its own: this transaction has written nothing else, so
                # a twin task's mark found here rolls all of it back (two round trips
                # fewer per mail than a savepoint).
                insert(SeatMailSent(seat=seat, version=version, kind=SeatMailSent.Kind.TURN))
            except IntegrityError:
                transaction.set_rollback(True)
                return "already sent"
        message = turn_mail(seat, note=note, in_reply_to=in_reply_to, subject=subject)
        if not answer:
            if not bounces.send(message, seat.user, lambda: send_kept(message)):
                return "the address bounced"  # the mark stays: a retry would bounce again
            return "sent"
        try:
            if not bounces.send(message, seat.user):
                return "the address bounced"
        except OSError as error:
            return f"failed: {error}"
    return "sent"


def _mark_only_commit_unflushed() -> None:
    """Let this transaction's commit return before PostgreSQL has flushed it to disk.

    Called only where the transaction writes nothing but the sent mark: waiting for the
    flush (an fsync, a few milliseconds) was most of a turn mail's time.  The mark only
    stops a second mail; if the database crashed within the moment before its next
    flush, the mark could be lost and a task run again would send the mail twice (as a
    crash between the send and the commit always could), never lose it.  Any later
    commit that waits for the disk (the outbox marking its row done) flushes the mark
    with it.  SQLite has no such setting and commits as before.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit = off")


_kept = threading.local()


def send_kept(message) -> None:
    """Send through a connection this thread keeps open from one turn mail to the next: a
    worker mailing a backlog skips the connect, greeting and goodbye of every message.  A
    connection the server closed meanwhile is opened again once; any other failure is
    raised as before (the task's retry).  A connection that failed in any way is closed
    and forgotten: after a timeout or an error in the middle of a message its session is
    in an unknown state, and keeping it would fail every mail after it.  Kept per mail
    settings, so a change of backend or server gets a connection of its own; the other
    backends (files, memory) send as they always did."""
    if settings.EMAIL_BACKEND != "django.core.mail.backends.smtp.EmailBackend":
        message.send()
        return
    key = (settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_HOST_USER, settings.EMAIL_USE_TLS,
           settings.EMAIL_USE_SSL)
    for attempt in (1, 2):
        smtp = getattr(_kept, "connections", {}).get(key)
        if smtp is None:
            smtp = get_connection()
            smtp.open()
            _kept.connections = {key: smtp}
        message.connection = smtp
        try:
            message.send()
            return
        except Exception as error:
            _kept.connections = {}
            with contextlib.suppress(Exception):
                smtp.close()
            if attempt == 2 or not isinstance(error, (smtplib.SMTPServerDisconnected, ConnectionError)):
                raise


def _is_looking(seat: Seat) -> bool:
    return seat.seen_at is not None and (
        timezone.now() - seat.seen_at).total_seconds() < settings.TURN_MAIL_LOOKING_SECONDS


def _hold_left(seat: Seat) -> float:
    """Seconds until the player's last look at the game is ``TURN_MAIL_LOOKING_SECONDS``
    old, and a little more, so the task asked again then finds the hold over."""
    held = settings.TURN_MAIL_LOOKING_SECONDS - (timezone.now() - seat.seen_at).total_seconds()
    return max(held, 0) + 1


def _earlier_turn_mail(version: int) -> Subquery:
    """The version of the seat's latest turn mail before ``version``, read with the seat
    itself (one query fewer per mail)."""
    return Subquery(SeatMailSent.objects.filter(seat=OuterRef("pk"), kind=SeatMailSent.Kind.TURN, version__lt=version)
                    .order_by("-version").values("version")[:1])


# Run for every turn mail: compiled once (sefirot_site.prepared).
_SEATS_TO_MAIL = PreparedQuery(
    lambda seat_id, version: Seat.objects.select_related("game", "user")
    .annotate(earlier_turn_mail=_earlier_turn_mail(version))
    .filter(game_id=Subquery(Seat.objects.filter(pk=seat_id).order_by().values("game_id")[:1])), 2)


def _earlier_mail_fits(seat: Seat, version: int) -> bool:
    earlier = seat.earlier_turn_mail  # annotated by _earlier_turn_mail(version)
    return earlier is not None and services.still_current(seat.game, seat.index, earlier)


@shared_task(name="games.send_turn_mail", **RETRY)
def send_turn_mail(seat_id: int, version: int) -> str:
    return deliver_turn_mail(seat_id, version)


@shared_task(name="games.send_reveal_mail", **RETRY)
def send_reveal_mail(game_id: int, version: int) -> str:
    """Once cards were revealed at ``version``: one mail with the board to each seat that
    is not asked to act now (those asked get their turn mail, which tells the reveal too).
    Built from the game as it is when the task runs; a seat asked by then is left to its
    turn mail, and a game over to the game-over mail."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE:
        return "not in play"
    sent = 0
    seats = game.seats.select_related("user").filter(
        status=Seat.Status.JOINED, user__is_active=True, user__turn_mail=User.TurnMail.EACH_TURN)
    for seat in seats:
        if seat.index in game.to_act or not seat.user.email or seat.user.is_computer or _is_looking(seat) \
                or seat.mail_muted or seat.user.mail_undeliverable:
            continue
        with transaction.atomic():
            try:
                with transaction.atomic():
                    SeatMailSent.objects.create(seat=seat, version=version, kind=SeatMailSent.Kind.REVEAL)
            except IntegrityError:
                continue
            seat.game = game
            # A failure rolls the mark back and the task retries; a bounce keeps it.
            sent += bounces.send(reveal_mail(seat), seat.user)
    return f"sent {sent}"


# --- the daily digest -------------------------------------------------------------------


def local_digest_day(user, now: datetime) -> date | None:
    """The player's own date if their digest hour has come today, else None."""
    try:
        zone = ZoneInfo(user.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = now.astimezone(zone)
    return local.date() if local.hour >= settings.TURN_MAIL_DIGEST_HOUR else None


def waiting_seats(user) -> list[Seat]:
    """The user's seats in games that wait for them, oldest deadline first."""
    seats = (
        Seat.objects.filter(user=user, status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE)
        .select_related("game", "user")
        .order_by("game__deadline", "game_id")
    )
    # to_act is a JSON list; SQLite has no JSON "contains", so this check is in Python.
    return [seat for seat in seats if seat.index in seat.game.to_act and not seat.mail_muted]


@shared_task(name="games.send_daily_digests", soft_time_limit=240, time_limit=300)
def send_daily_digests() -> int:
    """Queue today's digest for every daily-digest player whose digest hour has come."""
    now = timezone.now()
    queued = 0
    waiting = (
        Seat.objects.filter(status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE, mail_muted=False,
                            user__turn_mail=User.TurnMail.DAILY_DIGEST, user__is_active=True)
        .values_list("user_id", "index", "game__to_act")
    )
    users = {user_id for user_id, index, to_act in waiting if index in (to_act or [])}
    for user in User.objects.filter(pk__in=users):
        day = local_digest_day(user, now)
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
        if user.mail_undeliverable:
            return "the address bounced"
        try:
            with transaction.atomic():
                DigestSent.objects.create(user=user, day=date.fromisoformat(day))
        except IntegrityError:
            return "already sent"
        seats = waiting_seats(user)
        if not seats:
            transaction.set_rollback(True)  # nothing waits now: no mail, and no mark either
            return "nothing waiting"
        if not bounces.send(digest_mail(user, seats), user):
            return "the address bounced"
    return f"sent {len(seats)}"


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
        if user is None or not user.is_active or not user.email or user.turn_mail == User.TurnMail.NEVER \
                or seat.mail_muted or user.mail_undeliverable:
            continue
        with transaction.atomic():
            try:
                with transaction.atomic():
                    SeatMailSent.objects.create(seat=seat, version=version, kind=SeatMailSent.Kind.GAME_OVER)
            except IntegrityError:
                continue
            seat.game = game
            sent += bounces.send(game_over_mail(seat), user)
    return f"sent {sent}"


# --- invitations ---------------------------------------------------------------------------


@shared_task(name="games.tasks.send_invitation_mail", bind=True, max_retries=5, default_retry_delay=60, soft_time_limit=60, time_limit=90)
def send_invitation_mail(self, seat_id: int) -> str:
    """Mail an invitation to the seat's address (a link that takes the seat) or to the
    invited user (a link to the game, where they accept or decline), once.

    The seat is read, the mail sent, and the seat marked sent, each on its own: no lock or
    transaction is held while the mail server talks, since a slow server then made the
    invited player's accept wait for the seat's row (13.5 s behind a 15 s delay).  The
    mark is written only where it is still empty, so a second run records nothing new; a
    crash between the send and the mark sends again once, never not at all.  Two runs at
    once are the outbox's to prevent (its claim on the task's row)."""
    seat = (
        Seat.objects
        .select_related("game", "game__created_by", "user")
        .filter(pk=seat_id)
        .first()
    )
    if seat is None or seat.status != Seat.Status.INVITED or not (seat.invite_token or seat.user):
        return "not invited any more"
    if seat.game.status != Game.Status.INVITED:
        return "game no longer waiting"
    if seat.invitation_mailed_at is not None:
        return "already sent"
    game = seat.game
    if seat.user is not None:
        if not seat.user.email or not seat.user.is_active or seat.user.turn_mail == seat.user.TurnMail.NEVER:
            return "the player wants no mail"
        if seat.user.mail_undeliverable:
            return "the address bounced"
        address = seat.user.email
        link = settings.SITE_URL + reverse("games:game", args=[game.pk])
    else:
        address = seat.invited_email
        link = settings.SITE_URL + reverse("games:invitation", args=[seat.invite_token])
    context = {
        "game": game,
        "host": str(game.created_by) if game.created_by else "A player",
        "link": link,
        "summary": game.rules.summary,
        # Only an invitation by address can lead to a sign-up; a player invited by name
        # has an account already.
        "newcomer": seat.user is None,
        "player": seat.user.username if seat.user is not None else "",
        "SITE_URL": settings.SITE_URL,
    }
    message = EmailMultiAlternatives(
        subject=f"{context['host']} invites you to play {game.title} on Sefirot Online",
        body=render_to_string("games/mail/invitation.txt", context),
        to=[address],
    )
    message.attach_alternative(render_to_string("games/mail/invitation.html", context), "text/html")
    try:
        if seat.user is not None and not bounces.send(message, seat.user):
            return "the address bounced"
        if seat.user is None:
            message.send()
    except OSError as error:  # SMTP down: nothing marked, try again later
        raise self.retry(exc=error) from None
    Seat.objects.filter(pk=seat.pk, invitation_mailed_at__isnull=True).update(invitation_mailed_at=timezone.now())
    return "sent"

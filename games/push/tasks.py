"""Celery tasks of Web Push: a turn, an invitation, a game's end, a deadline close.

The same shape as the mail tasks (``games.mail.tasks``): recorded in the outbox by the
change that needs them, ids in, checked again when run (a turn already played pushes
nothing), and safe to run twice: each device reached is marked (``PushSent``), and a run
again skips it.  The push itself is sent before the mark is written, with no transaction
held while the push service answers; a crash in between pushes that device once more,
and its notification replaces the first (same ``tag``), never none.  A push service that
is down or busy raises, and the outbox tries again later, a bounded number of times.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime

from celery import shared_task
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone
from pywebpush import WebPushException, webpush

from games.mail.tasks import RETRY
from games.models import Game, Seat
from games.push import payloads
from games.push.models import GameMute, PushSent, PushSubscription
from games.push.vapid import site_key
from sefirot_site.outbox import enqueue

log = logging.getLogger(__name__)

# Seconds a push service keeps a push for a device that is off (RFC 8030's TTL).
KEEP_SECONDS = 24 * 3600
# A push service that answers none of these within this many seconds is tried again later.
TIMEOUT_SECONDS = 10
# The subscription is gone (unsubscribed, expired, the browser's data wiped): RFC 8030 8.3.
GONE = {404, 410}
# The push service will never take this message (malformed, too large, a key it does not
# know): trying again would change nothing.
REFUSED = {400, 401, 403, 413}


def send_push(subscription: PushSubscription, key: str, payload: dict, *, ttl: int = KEEP_SECONDS) -> str:
    """Push ``payload`` to one device once (``key`` names the notification)."""
    if PushSent.objects.filter(subscription=subscription, key=key).exists():
        return "already sent"
    try:
        webpush(
            subscription.as_info(), json.dumps(payload),
            vapid_private_key=site_key(),
            # A new dict each time: pywebpush writes the audience (the push service's
            # origin) and the expiry into it.
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=max(int(ttl), 0), timeout=TIMEOUT_SECONDS,
            # A newer push about the same game replaces one the device has not fetched yet.
            headers={"Topic": payload["tag"], "Urgency": "normal"},
        )
    except WebPushException as error:
        status = error.status_code
        if status in GONE:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            return "subscription gone"
        if status in REFUSED:
            log.warning("push: %s refused a push to subscription %s: %s", status, subscription.pk, error.message)
            return f"refused ({status})"
        raise OSError(f"push service answered {status}: {error.message}") from None
    try:
        with transaction.atomic():
            PushSent.objects.create(subscription=subscription, key=key)
    except IntegrityError:
        pass  # a twin run marked it first
    PushSubscription.objects.filter(pk=subscription.pk).update(last_pushed_at=timezone.now())
    return "sent"


def push_to(user_id: int, game: Game, key: str, payload: dict, *, ttl: int = KEEP_SECONDS) -> int:
    """Push to each of the user's devices, unless they muted this game; how many were reached.
    Every device is tried before a failure is raised, so one device's push service being
    down does not hold the others back (those reached are marked and skipped next time)."""
    if GameMute.objects.filter(user_id=user_id, game=game).exists():
        return 0
    sent, failure = 0, None
    for subscription in PushSubscription.objects.filter(user_id=user_id, user__is_active=True).order_by("pk"):
        try:
            sent += send_push(subscription, key, payload, ttl=ttl) == "sent"
        except OSError as error:
            failure = error
    if failure is not None:
        raise failure
    return sent


def _game_with_people(game_id: int) -> Game | None:
    return Game.objects.filter(pk=game_id).select_related("created_by").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))).first()


def _is_person(seat: Seat) -> bool:
    return seat.user is not None and seat.user.is_active and not seat.user.is_computer


def _looking_for(seat: Seat) -> float:
    """Seconds the player has had the game open, if they look at it now (its page polls),
    else 0: a push would only repeat what the page shows."""
    if seat.seen_at is None:
        return 0
    held = settings.TURN_MAIL_LOOKING_SECONDS - (timezone.now() - seat.seen_at).total_seconds()
    return max(held, 0)


@shared_task(name="games.push.push_turn", **RETRY)
def push_turn(seat_id: int, version: int) -> str:
    game = _game_with_people(Seat.objects.filter(pk=seat_id).values("game_id")[:1])
    seat = next((s for s in game.seats.all() if s.pk == seat_id), None) if game else None
    if seat is None or not _is_person(seat) or seat.status != Seat.Status.JOINED:
        return "no player to tell"
    if game.status != Game.Status.ACTIVE or game.version != version or seat.index not in game.to_act:
        return "turn already played"
    if GameMute.objects.filter(user_id=seat.user_id, game=game).exists():
        return "muted"
    held = _looking_for(seat)
    if held:
        # As the turn mail does: asked again once the player has stopped looking, and
        # pushed then if they left without playing.
        enqueue(push_turn, seat_id, version, delay=held + 1)
        return "the player is looking at the game"
    return f"sent {push_to(seat.user_id, game, f'turn:{game.pk}:{version}', payloads.turn(game, seat))}"


@shared_task(name="games.push.push_invitation", **RETRY)
def push_invitation(seat_id: int) -> str:
    game = _game_with_people(Seat.objects.filter(pk=seat_id).values("game_id")[:1])
    seat = next((s for s in game.seats.all() if s.pk == seat_id), None) if game else None
    if seat is None or seat.status != Seat.Status.INVITED or not _is_person(seat):
        return "not invited any more"
    if game.status != Game.Status.INVITED:
        return "game no longer waiting"
    return f"sent {push_to(seat.user_id, game, f'invitation:{seat.pk}', payloads.invitation(game, seat))}"


@shared_task(name="games.push.push_game_over", **RETRY)
def push_game_over(game_id: int, version: int) -> str:
    game = _game_with_people(game_id)
    if game is None or not game.is_over or game.version != version:
        return "not over"
    if game.players == 1 and game.status == Game.Status.FINISHED:
        return "solo game finished in front of its player"
    sent = 0
    for seat in game.seats.all():
        if seat.status == Seat.Status.JOINED and _is_person(seat):
            sent += push_to(seat.user_id, game, f"over:{game.pk}", payloads.game_over(game, seat))
    return f"sent {sent}"


@shared_task(name="games.push.push_deadline", **RETRY)
def push_deadline(game_id: int, deadline: str) -> str:
    game = _game_with_people(game_id)
    if game is None or game.status != Game.Status.ACTIVE or game.deadline is None:
        return "no clock running"
    if game.deadline != datetime.fromisoformat(deadline):
        return "deadline moved"
    left = (game.deadline - timezone.now()).total_seconds()
    if left <= 0:
        return "too late"
    sent = 0
    for seat in game.seats.all():
        if seat.status == Seat.Status.JOINED and seat.index in game.to_act and _is_person(seat):
            # Kept by the push service no longer than the time there is to move.
            sent += push_to(seat.user_id, game, f"deadline:{game.pk}:{deadline}", payloads.deadline(game, seat),
                            ttl=int(left))
    return f"sent {sent}"

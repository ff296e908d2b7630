"""A turn mail waits while its reader looks at the game, from the moment a game is made on
the web, and leaves when that hold ends (issue 38, items 9 and 25).

With the real worker and SMTP server: a game its maker just made on the web is on their
screen, so its first turn mail is held like any mail to a player looking at the game;
and a held mail is queued again for the moment its hold ends (a task with its own
countdown, recorded in the outbox), not left for beat's sweep a minute or more later.
No beat runs here: only that countdown can deliver it.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, Seat
from sefirot_site.outbox.models import PendingTask
from sefirot_site.outbox.tasks import run_pending

from .mail_helpers import solo_game, two_player_game

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

TURN_MAIL = "games.send_turn_mail"


def wait_until(condition, timeout: float, what: str):
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"no {what} within {timeout} s")


def done_turn_mail_tasks() -> list[PendingTask]:
    return list(PendingTask.objects.filter(task=TURN_MAIL, done_at__isnull=False).order_by("pk"))


def test_a_solo_game_made_on_the_web_does_not_mail_its_maker_at_once(
        celery_worker_process, smtp_server, alice, alice_client):
    answer = alice_client.post(reverse("games:new"), {"mode": "hermits_arcana", "opponent": "solo"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    game = Game.objects.get(created_by=alice)
    assert answer["Location"] == game.get_absolute_url()

    # The worker has looked at the first turn mail and held it: she is on its page.
    (first,) = wait_until(done_turn_mail_tasks, 30, "turn mail task run by the worker")
    assert first.result == "the player is looking at the game"
    assert smtp_server.messages_to("alice@example.com") == []
    # Asked again when the hold ends, the outbox's sweep behind it as the safety net.
    again = PendingTask.objects.filter(task=TURN_MAIL, done_at__isnull=True).get()
    assert again.args == first.args
    assert again.due_at > timezone.now() + timedelta(seconds=settings.TURN_MAIL_LOOKING_SECONDS - 10)


def test_a_game_made_by_the_services_alone_mails_its_player_at_once(celery_worker_process, smtp_server, alice):
    """Nobody is looking at a game made away from the web (a test's, a script's)."""
    game = solo_game(alice)
    mail = smtp_server.wait_for("alice@example.com")
    assert f"(game {game.pk})" in mail["Subject"]


def test_a_held_turn_mail_leaves_when_its_hold_ends_not_at_the_next_sweep(
        celery_worker_process, smtp_server, alice, bob):
    game = two_player_game(alice, bob)
    smtp_server.wait_for("alice@example.com")  # her turn mail of version 0
    alices, bobs = game.seats.get(index=0), game.seats.get(index=1)

    # Bob looked at the game a moment ago: his hold ends three seconds from now.
    hold_ends_in = 3
    looked = timezone.now() - timedelta(seconds=settings.TURN_MAIL_LOOKING_SECONDS - hold_ends_in)
    Seat.objects.filter(pk=bobs.pk).update(seen_at=looked)
    services.submit_move(game.pk, alices, game.rules.legal_moves(game.load_state(), 0)[0], game.version)
    hold_ends = time.monotonic() + hold_ends_in

    held = wait_until(lambda: PendingTask.objects.filter(task=TURN_MAIL, args=[bobs.pk, 1],
                                                         result="the player is looking at the game").first(),
                      30, "held turn mail")
    assert smtp_server.messages_to("bob@example.com") == []

    mail = smtp_server.wait_for("bob@example.com", timeout=30)
    arrived = time.monotonic()
    assert f"(game {game.pk})" in mail["Subject"]
    # Shortly after the hold ended; beat's sweep (every OUTBOX_SWEEP_SECONDS) would be a
    # minute or more later, and none runs here.
    assert hold_ends - 0.5 <= arrived <= hold_ends + 15
    # Recorded in the outbox, left to the sweep only after the hold and a lease more.
    (pending,) = PendingTask.objects.filter(task=TURN_MAIL, args=[bobs.pk, 1], pk__gt=held.pk)
    assert pending.due_at >= looked + timedelta(seconds=settings.TURN_MAIL_LOOKING_SECONDS
                                                + settings.OUTBOX_LEASE_SECONDS)
    wait_until(lambda: PendingTask.objects.filter(pk=pending.pk, done_at__isnull=False).exists(), 10,
               "its outbox row marked done")
    assert PendingTask.objects.get(pk=pending.pk).result == "sent"

    # The sweep's copy, had it come too, sends nothing more.
    PendingTask.objects.filter(pk=pending.pk).update(done_at=None)
    assert run_pending(pending.pk) == "already sent"
    assert len(smtp_server.messages_to("bob@example.com")) == 1

"""A slow mail server delays only its mail: no task holds a row that a player's request
needs while it waits for the server.  The real worker sends to the test SMTP server, which
holds the mail to one address in the middle of its DATA command (``smtp_server.holding``)
while the player's request runs; once the server answers, the mail is recorded as sent,
once.  The locks matter on PostgreSQL (``select_for_update`` is a no-op on SQLite), where
each of these requests waited for the mail before."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.clocks.tasks import send_deadline_reminder
from games.models import Game, Seat
from games.wizards import services as wizards
from games.wizards import tasks as wizard_tasks
from games.wizards.models import AskMailSent, PlaySession, TableDigestSent
from sefirot_site.outbox.models import PendingTask

from .conftest import two_player_mode
from .integration_helpers import post_move, quiet_move
from .wizards_helpers import make_table

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
# How long a request may take before it counts as waiting for the mail: the mail server
# holds its answer until the test ends the hold, so a request that waits never finishes
# within this bound; one that does not wait takes milliseconds.
BOUND = 15


class Request(threading.Thread):
    """A player's request in a thread of its own (its own database connection), so the
    test can see whether it finishes while the mail server still holds the mail."""

    def __init__(self, action):
        super().__init__(daemon=True)
        self.action, self.answer, self.error = action, None, None
        self.start()

    def run(self):
        try:
            self.answer = self.action()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            self.error = error
        finally:
            connection.close()

    def finished(self) -> bool:
        self.join(BOUND)
        return not self.is_alive()


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def eventually(predicate, timeout=30):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.05)


def outbox_settled():
    return not PendingTask.objects.filter(done_at__isnull=True, failed_at__isnull=True).exists()


@pytest.fixture
def carol(make_user):
    return make_user("carol", display_name="Carol")


def test_accepting_an_invitation_does_not_wait_for_its_mail(celery_worker_process, smtp_server, alice, bob):
    with smtp_server.holding("bob@example.com") as slow:
        game = services.start_game(alice, two_player_mode(), {"variant": "standard"}, opponent=bob)
        assert slow.arrived.wait(30), "the invitation mail never reached the server"
        accepting = Request(lambda: logged_in(bob).post(reverse("games:accept", args=[game.pk])))
        assert accepting.finished(), "accepting waited for the invitation mail"
        assert accepting.error is None and accepting.answer.status_code == 302
        assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
        assert Seat.objects.get(game=game, user=bob).invitation_mailed_at is None  # not answered yet
    eventually(lambda: Seat.objects.get(game=game, user=bob).invitation_mailed_at is not None)
    eventually(outbox_settled)
    assert len(smtp_server.messages_to("bob@example.com")) == 1


def test_a_move_does_not_wait_for_the_deadline_reminder(celery_worker_process, smtp_server, alice, bob):
    game = services.start_game(alice, two_player_mode(), {"variant": "standard"}, opponent=bob, time_control=3,
                               seed=5)
    services.accept_invitation(game.pk, bob)
    eventually(outbox_settled)
    game = Game.objects.get(pk=game.pk)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(hours=10))
    game.refresh_from_db()
    (acting,) = game.to_act
    player = alice if acting == 0 else bob
    with smtp_server.holding(player.email) as slow:
        send_deadline_reminder.delay(game.pk, game.deadline.isoformat())
        assert slow.arrived.wait(30), "the reminder never reached the server"
        moving = Request(lambda: post_move(logged_in(player), game, quiet_move(game, acting)))
        assert moving.finished(), "the move waited for the reminder"
        assert moving.error is None and moving.answer.status_code in (200, 302)
        assert Game.objects.get(pk=game.pk).version == game.version + 1
    # The move set a new deadline: the reminder went, and the new deadline earns its own.
    reminders = lambda: [m for m in smtp_server.messages_to(player.email)  # noqa: E731
                         if m["Subject"].startswith("Time is running out")]
    eventually(lambda: len(reminders()) == 1)
    assert Game.objects.get(pk=game.pk).reminded_deadline is None


def test_the_session_page_does_not_wait_for_an_ask_mail(celery_worker_process, smtp_server, alice, bob, carol):
    table = make_table(alice, bob, carol)
    eventually(outbox_settled)  # the invitations' mails
    session = wizards.start_session(table, alice)
    with smtp_server.holding("bob@example.com") as slow:
        session = wizards.act(session.pk, alice, {"type": "ask", "target": wizards.key_of(bob)}, session.version)
        assert slow.arrived.wait(30), "the ask mail never reached the server"
        looking = Request(lambda: logged_in(bob).get(session.get_absolute_url()))
        assert looking.finished(), "the session page waited for the ask mail"
        assert looking.error is None and looking.answer.status_code == 200
    eventually(lambda: AskMailSent.objects.filter(seat__session=session, seat__user=bob).exists())
    eventually(outbox_settled)
    asks = [m for m in smtp_server.messages_to("bob@example.com") if "asks you to act" in m["Subject"]]
    assert len(asks) == 1 and session.seats.get(user=bob).mailed_version == session.version


def test_the_session_page_does_not_wait_for_the_daily_digest(celery_worker_process, smtp_server, alice, bob, carol):
    table = make_table(alice, bob, carol, slow=True)
    eventually(outbox_settled)
    session = wizards.start_session(table, alice)
    wizards.act(session.pk, alice, {"type": "post", "narration": "The ferry leaves at dawn."}, session.version)
    day = timezone.now().date()
    with smtp_server.holding("bob@example.com") as slow:
        wizard_tasks.send_table_digest.delay(bob.pk, day.isoformat())
        assert slow.arrived.wait(30), "the digest never reached the server"
        looking = Request(lambda: logged_in(bob).get(session.get_absolute_url()))
        assert looking.finished(), "the session page waited for the digest"
        assert looking.error is None and looking.answer.status_code == 200
    eventually(lambda: TableDigestSent.objects.filter(user=bob, day=day).exists())
    assert session.seats.get(user=bob).digested_upto == len(PlaySession.objects.get(pk=session.pk).state["log"])
    digests = [m for m in smtp_server.messages_to("bob@example.com") if "tables today" in m["Subject"]]
    assert len(digests) == 1
    # Asked again the same day, it sends nothing.
    assert wizard_tasks.send_table_digest(bob.pk, day.isoformat()) == "already sent"

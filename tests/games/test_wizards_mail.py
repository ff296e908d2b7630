"""A player at a tarot wizards table casts by replying to the mail the GM's ask sends:
the real worker sends the mail to the test SMTP server, the reply goes by SMTP to the
site's own receiver, and the cast lands in the session's log."""

from __future__ import annotations

import time

import pytest

from games.wizards import services
from games.wizards.models import PlaySession
from sefirot_site.outbox.models import PendingTask

from .mail_helpers import reply, reply_address_of, send_by_smtp
from .wizards_helpers import make_table, stack

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def carol(make_user):
    return make_user("carol", display_name="Carol")


def settled(session_id, predicate, timeout=30):
    """The session once ``predicate`` holds of it (the receiver plays in its own thread)."""
    deadline = time.monotonic() + timeout
    while True:
        session = PlaySession.objects.get(pk=session_id)
        if predicate(session) or time.monotonic() > deadline:
            return session
        time.sleep(0.1)


def settled_outbox(timeout=30):
    """Once the worker has done every task recorded so far."""
    deadline = time.monotonic() + timeout
    while PendingTask.objects.filter(done_at__isnull=True, failed_at__isnull=True).exists():
        assert time.monotonic() < deadline, "the worker did not finish its tasks"
        time.sleep(0.05)


def test_a_player_casts_by_reply_and_posts_by_reply(celery_worker_process, smtp_server, receiver, alice, bob, carol,
                                                    outsider):
    table = make_table(alice, bob, carol)
    # The invitations' tasks race the acceptances: whether Bob's invitation mail went out
    # depends on which came first.  Let them finish, then count from the ask's mail.
    settled_outbox()
    smtp_server.clear()
    session = stack(services.start_session(table, alice), bob=["Ac", "9w", "M3", "7s", "Kp"])
    bob_key = services.key_of(bob)
    session = services.act(session.pk, alice, {"type": "challenge", "source": "rating", "rating": 9,
                                               "target": bob_key}, session.version)
    session = services.act(session.pk, alice, {"type": "ask", "target": bob_key,
                                               "narration": "The ferryman wants paying."}, session.version)

    asked = smtp_server.wait_for("bob@example.com")
    text = smtp_server.text(asked)
    assert "Alice asks you to act" in text and "1. cast Ace of Cups" in text and "6. roll the die" in text
    assert "The ferryman wants paying." in text
    address = reply_address_of(asked)

    # Someone else replying from their own address cannot cast Bob's card: Bob hears of it,
    # the sender hears nothing.
    send_by_smtp(receiver.hostname, receiver.port, reply(address, "1", sender="outsider@example.com", quoting=asked))
    assert "not one of your account's verified addresses" in smtp_server.text(
        smtp_server.wait_for("bob@example.com", count=2))
    assert PlaySession.objects.get(pk=session.pk).version == session.version
    assert smtp_server.messages_to("outsider@example.com") == []

    # Bob answers "1" and says what the spell does.
    before_cast = session.version
    mail = reply(address, "1\nA tide of silver coins rises from the river.", sender="bob@example.com", quoting=asked)
    send_by_smtp(receiver.hostname, receiver.port, mail)
    answer = smtp_server.wait_for("bob@example.com", count=3)
    assert "Played: cast Ace of Cups" in smtp_server.text(answer)
    session = settled(session.pk, lambda s: s.version > before_cast)
    texts = [e["text"] for e in session.state["log"]]
    assert f"{{{bob_key}}} cast Ace of Cups (value 12)." in texts
    assert f"Value 12 meets rating 9: {{{bob_key}}} succeeded." in texts
    assert session.state["actors"][bob_key]["hand"] == ["9w", "M3", "7s", "Kp"]
    cast = next(e for e in session.state["log"] if e["kind"] == "cast")
    assert cast["narration"] == "A tide of silver coins rises from the river."

    # Asked again, Bob answers in words: they are posted to the log.
    session = services.act(session.pk, alice, {"type": "ask", "target": bob_key}, session.version)
    again = smtp_server.wait_for("bob@example.com", count=4)
    assert "1. cast Nine of Wands" in smtp_server.text(again)
    send_by_smtp(receiver.hostname, receiver.port,
                 reply(reply_address_of(again), "I tip my hat to the ferryman and step aboard.",
                       sender="bob@example.com", quoting=again))
    smtp_server.wait_for("bob@example.com", count=5)
    session = settled(session.pk, lambda s: s.state["log"][-1]["kind"] == "post")
    assert session.state["log"][-1].get("narration") == "I tip my hat to the ferryman and step aboard.", session.state["log"][-3:]
    assert session.state["asked"] == []

    # An old reply (the first mail's address) is stale: nothing more is played.
    before = session.version
    send_by_smtp(receiver.hostname, receiver.port, reply(address, "2", sender="bob@example.com", quoting=asked))
    smtp_server.wait_for("bob@example.com", count=6)
    assert PlaySession.objects.get(pk=session.pk).version == before

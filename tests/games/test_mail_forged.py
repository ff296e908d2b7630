"""Forged mail does not make the site a mail cannon (issue 38, item 16).

Anyone can write any From header and make up a reply address: sixty mails to
``play+<22 letters>.1@`` from dave once made sixty answers to dave, each quoting the
subject and first line the forger chose.  Only a seat's own player is answered, at a
verified address; nothing of an unmatched mail is repeated; and the answers saying
nothing was played stop at ``INBOUND_REFUSALS_PER_HOUR`` per address.
"""

from __future__ import annotations

import secrets
import string

import pytest

from games.mail.inbound import handle_message
from games.mail.outgoing import reply_address

from .conftest import reload
from .mail_helpers import reply, solo_game

pytestmark = pytest.mark.django_db

PHISHING = "Your account is locked: http://evil.example/login"


def forged(to: str, sender: str, first_line: str = PHISHING) -> bytes:
    mail = reply(to, first_line, sender=sender)
    del mail["Subject"]
    mail["Subject"] = PHISHING
    return mail.as_bytes()


def made_up_address() -> str:
    letters = "".join(secrets.choice(string.ascii_letters) for _ in range(22))
    return f"play+{letters}.1@sefirot.localhost"


def everything_said(smtp_server, mail) -> str:
    return str(mail["Subject"]) + "\n" + smtp_server.text(mail) + "\n" + "".join(
        part.get_content() for part in mail.walk() if part.get_content_type() == "text/html")


def test_mail_to_made_up_reply_addresses_is_never_answered_even_from_a_player(smtp_server, make_user, alice):
    make_user("dave", email="dave@example.test")  # an account of the site, verified
    outcomes = [handle_message(forged(made_up_address(), "dave@example.test")) for _ in range(60)]
    assert {(o.status, o.reason) for o in outcomes} == {("ignored", "unknown address")}
    # A real move right after is answered: had dave been answered, his would be there first.
    game = solo_game(alice)
    assert handle_message(reply(reply_address(game.seats.get(), 0), "1", sender="alice@example.com")
                          .as_bytes()).status == "played"
    smtp_server.wait_for("alice@example.com")
    assert smtp_server.messages_to("dave@example.test") == []


def test_a_stranger_to_a_real_seat_is_not_answered_and_the_player_hears_of_it_without_its_words(
        smtp_server, alice, outsider):
    game = solo_game(alice)
    address = reply_address(game.seats.get(), game.version)
    outcome = handle_message(forged(address, "outsider@example.com", first_line="1"))
    assert (outcome.status, outcome.reason) == ("ignored", "wrong sender")
    assert reload(game).version == 0

    notice = smtp_server.wait_for("alice@example.com")
    said = everything_said(smtp_server, notice)
    assert notice["Subject"] == "A mail to your reply address was not played"
    assert "not one of your account's verified addresses" in said
    assert "evil.example" not in said and "locked" not in said
    assert notice["Auto-Submitted"] == "auto-replied"
    assert smtp_server.messages_to("outsider@example.com") == []


def test_answers_saying_nothing_was_played_stop_at_the_hourly_limit(smtp_server, settings, alice, outsider):
    settings.INBOUND_REFUSALS_PER_HOUR = 3
    game = solo_game(alice)
    address = reply_address(game.seats.get(), game.version)

    for _ in range(8):  # numbers that name no move: each answered by a fresh turn mail, up to the limit
        assert handle_message(reply(address, "99", sender="alice@example.com").as_bytes()).reason == "illegal move"
    for _ in range(8):  # a stranger's mails to her seat: told to alice, up to the limit too
        handle_message(forged(address, "outsider@example.com"))
    smtp_server.wait_for("alice@example.com", count=3)
    assert len(smtp_server.messages_to("alice@example.com")) == 3
    assert smtp_server.messages_to("outsider@example.com") == []

    # A move is still read and played, and answered: its answer is bounded by the game.
    assert handle_message(reply(address, "1", sender="alice@example.com").as_bytes()).status == "played"
    assert reload(game).version == 1
    assert "Played:" in smtp_server.text(smtp_server.wait_for("alice@example.com", count=4))

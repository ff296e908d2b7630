"""Inbound mail handled in-process (the SMTP receiver and ingest_mail both end here)."""

from __future__ import annotations

import pytest

from games import services
from games.mail.inbound import handle_message
from games.mail.outgoing import reply_address
from games.models import Move

from .conftest import reload
from .mail_helpers import reply, solo_game, two_player_game

pytestmark = pytest.mark.django_db


def seat(game, index=0):
    return game.seats.select_related("user", "game").get(index=index)


def test_an_auto_reply_is_neither_played_nor_answered(smtp_server, alice):
    game = solo_game(alice)
    mail = reply(reply_address(seat(game), game.version), "1", sender="alice@example.com")
    mail["Auto-Submitted"] = "auto-replied"
    outcome = handle_message(mail.as_bytes())
    assert (outcome.status, outcome.reason) == ("ignored", "automatic mail")
    assert reload(game).version == 0 and smtp_server.messages == []


def test_a_reply_for_a_finished_game_says_so(smtp_server, alice, bob):
    game = two_player_game(alice, bob)
    services.abandon_game(game.pk, "Alice went to sea.")
    outcome = handle_message(reply(reply_address(seat(game), game.version), "1", sender="alice@example.com").as_bytes())
    assert outcome.status == "refused"
    answer = smtp_server.wait_for("alice@example.com")
    assert "This game has ended (Alice went to sea.)" in smtp_server.text(answer)
    assert not Move.objects.filter(game=game).exists()


def test_a_reply_when_it_is_not_the_seats_turn_says_whose_turn_it_is(smtp_server, alice, bob):
    game = two_player_game(alice, bob)
    outcome = handle_message(reply(reply_address(seat(game, 1), game.version), "1", sender="bob@example.com").as_bytes())
    assert outcome.reason == "not this seat's turn"
    assert "It is Alice's turn" in smtp_server.text(smtp_server.wait_for("bob@example.com"))
    assert reload(game).version == game.version


def test_an_unverified_address_of_the_player_cannot_play(smtp_server, alice):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=alice, email="alice@work.example", verified=False)
    game = solo_game(alice)
    outcome = handle_message(reply(reply_address(seat(game), game.version), "1", sender="alice@work.example").as_bytes())
    assert outcome.reason == "wrong sender"
    assert reload(game).version == 0


def test_a_reply_with_no_move_on_its_first_line_asks_again_with_the_same_numbers(smtp_server, alice):
    game = solo_game(alice)
    address = reply_address(seat(game), game.version)
    outcome = handle_message(reply(address, "", sender="alice@example.com").as_bytes())
    assert outcome.reason == "unreadable"
    answer = smtp_server.wait_for("alice@example.com")
    assert smtp_server.text(answer).startswith("Nothing was played: I found no move in your reply")
    assert str(answer["Reply-To"]) == address
    assert reload(game).version == 0


def test_a_lower_cased_reply_address_still_finds_its_seat(smtp_server, alice):
    game = solo_game(alice)
    outcome = handle_message(
        reply(reply_address(seat(game), game.version).lower(), "1", sender="ALICE@example.com").as_bytes())
    assert outcome.status == "played"
    assert reload(game).version == 1

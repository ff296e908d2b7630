"""Play by mail end to end over real SMTP on loopback.

The worker sends turn mail to the test SMTP server; replies go by smtplib to the site's
own receiver (aiosmtpd, started here on a free port) which plays them through services.
"""

from __future__ import annotations

import smtplib

import pytest

from games.models import Game, Move

from .mail_helpers import reply, reply_address_of, send_by_smtp, two_player_game

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def text(smtp_server, message) -> str:
    return smtp_server.text(message)


def test_a_game_is_played_by_mail_and_every_bad_reply_is_explained_and_changes_nothing(
        celery_worker_process, smtp_server, receiver, alice, bob, outsider):
    def send(mail):
        send_by_smtp(receiver.hostname, receiver.port, mail)

    game = two_player_game(alice, bob)
    assert game.to_act == [0]

    # The worker mails alice her turn: the board as she sees it, numbered moves, a link.
    turn = smtp_server.wait_for("alice@example.com")
    body = text(smtp_server, turn)
    address = reply_address_of(turn)
    assert turn["Auto-Submitted"] == "auto-generated"
    assert "YOUR MOVES" in body and "\n1. " in body
    assert f"/games/{game.pk}/" in body
    assert "Material Plane" in body or "Hand" in body

    def unchanged():
        fresh = Game.objects.get(pk=game.pk)
        assert (fresh.version, fresh.state) == (game.version, game.state)
        assert not Move.objects.filter(game=game).exists()

    # A stranger who got hold of the address cannot play and hears nothing (a From header
    # can be forged); alice is told that a mail came, and nothing of what it said.
    send(reply(address, "1", sender="Olive <outsider@example.com>", quoting=turn))
    notice = smtp_server.wait_for("alice@example.com", count=2)
    assert "Nothing was played" in text(smtp_server, notice)
    assert "not one of your account's verified addresses" in text(smtp_server, notice)
    assert smtp_server.messages_to("outsider@example.com") == []
    unchanged()

    # A move that is not in the list: the answer says so and asks again, same address.
    send(reply(address, "99", sender="alice@example.com", quoting=turn))
    again = smtp_server.wait_for("alice@example.com", count=3)
    assert "Nothing was played: There is no move 99" in text(smtp_server, again)
    assert reply_address_of(again) == address
    unchanged()

    # Move 1 by number: played through services, alice gets the confirmation.
    game.refresh_from_db()
    first_move = game.rules.legal_moves(game.load_state(), 0)[0]
    send(reply(address, "1", sender="alice@example.com", quoting=turn))
    played = smtp_server.wait_for("alice@example.com", count=4)
    assert "Played:" in text(smtp_server, played)
    game.refresh_from_db()
    assert game.version == 1
    assert list(Move.objects.filter(game=game).values_list("seat", "move")) == [(0, first_move)]

    # The same reply again (a stale mail): refused, nothing changes.
    before = (game.version, game.state)
    send(reply(address, "2", sender="alice@example.com", quoting=turn))
    stale = smtp_server.wait_for("alice@example.com", count=5)
    assert "already played" in text(smtp_server, stale)
    game.refresh_from_db()
    assert (game.version, game.state) == before and Move.objects.filter(game=game).count() == 1

    # Bob's turn mail comes from the worker; he answers with the move in words.
    bobs_turn = smtp_server.wait_for("bob@example.com")
    bob_address = reply_address_of(bobs_turn)
    assert bob_address != address
    game.refresh_from_db()
    assert game.to_act == [1]
    state = game.load_state()
    move = game.rules.legal_moves(state, 1)[-2]
    words = game.rules.describe_move(state, 1, move)
    send(reply(bob_address, words, sender="bob@example.com", quoting=bobs_turn))
    smtp_server.wait_for("bob@example.com", count=2)
    game.refresh_from_db()
    assert game.version == 2
    assert Move.objects.get(game=game, number=2).move == move


def test_mail_to_an_unknown_address_is_not_answered_whoever_it_claims_to_be_from(
        celery_worker_process, smtp_server, receiver, alice, bob):
    """Anyone can forge a From header and make up a token: the site must not mail anyone on
    request, not even a player of its own (issue 38)."""
    unknown = "play+NoSuchTokenAtAll0123456789.3@sefirot.localhost"
    send_by_smtp(receiver.hostname, receiver.port, reply(unknown, "1", sender="victim@example.org"))
    send_by_smtp(receiver.hostname, receiver.port, reply(unknown, "1", sender="alice@example.com"))
    # A real seat's mail right after is answered; the two before it never were.
    game = two_player_game(alice, bob)
    turn = smtp_server.wait_for("alice@example.com")
    send_by_smtp(receiver.hostname, receiver.port, reply(reply_address_of(turn), "99", sender="alice@example.com"))
    assert "Nothing was played: There is no move 99" in text(smtp_server, smtp_server.wait_for("alice@example.com",
                                                                                               count=2))
    assert len(smtp_server.messages_to("alice@example.com")) == 2
    assert smtp_server.messages_to("victim@example.org") == []
    assert Game.objects.get(pk=game.pk).version == 0


def test_the_receiver_takes_mail_only_for_reply_addresses(receiver):
    mail = reply("somebody@example.org", "1", sender="alice@example.com")
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        send_by_smtp(receiver.hostname, receiver.port, mail)

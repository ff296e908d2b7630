"""Tarot Hallow's court powers on the page and in mail name the players whose Readings
they act on ("your", a name), never the engine's "Seat 0" (issue 38, item 2)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine.cards import MINORS
from games.mail.outgoing import turn_mail
from games.models import Game

from .conftest import reload
from .hallow_helpers import cast, page, post_move

pytestmark = pytest.mark.django_db

SEAT_WORDS = re.compile(r"\bseat \d", re.I)
# Alice (seat 0) wins XII The Hanged Man in round 1; in round 2 Carol (seat 2) wins X Wheel
# of Fortune while Alice plays a Page and Bob a Queen, so both have a power to use.
HANDS = [["9c", "Pc", "3s", "4s"], ["2s", "Qs", "6s", "8s"], ["3w", "9w", "4w", "5w"]]
ROUNDS = [{0: "9c", 1: "2s", 2: "3w"}, {0: "Pc", 1: "Qs", 2: "9w"}]


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def _table_at_the_powers(users, hands=HANDS, rounds=ROUNDS) -> Game:
    minors = [c for hand in hands for c in hand]
    options = {"minors_deck": minors + [c for c in MINORS if c not in minors], "majors_deck": ["M12", "M10"]}
    game = services.start_game(users[0], "tarot_hallow", options, seats=3, invitees=list(users[1:]), seed=1)
    for user in users[1:]:
        services.accept_invitation(game.pk, user)
    game = reload(game)
    for cards in rounds:
        for seat, card in cards.items():
            game = reload(game)
            assert post_move(client_of(users[seat]), game, {"type": "play", "card": card},
                             game.version).status_code in (200, 302)
    return reload(game)


def test_power_buttons_name_the_players_whose_readings_they_act_on(make_user, alice, bob):
    alice, bob, carol = cast(make_user, alice, bob, 3)
    game = _table_at_the_powers([alice, bob, carol])
    assert game.to_act == [0]  # the Page first: clockwise from the winner, Carol
    html = page(client_of(alice), game, pick="M10")
    assert "Page: move X Wheel of Fortune from Carol&#x27;s Magick to Bob&#x27;s Reading" in html
    assert not SEAT_WORDS.search(_text_of(html)), _text_of(html)
    decline = {"type": "decline"}
    assert post_move(client_of(alice), game, decline, game.version).status_code in (200, 302)
    game = reload(game)
    assert game.to_act == [1]
    for pick, words in (("M12", "Queen: turn Alice&#x27;s XII The Hanged Man reversed"),
                        ("M10", "Queen: turn Carol&#x27;s X Wheel of Fortune reversed")):
        html = page(client_of(bob), game, pick=pick)
        assert words in html
        assert not SEAT_WORDS.search(_text_of(html)), _text_of(html)


def test_power_moves_in_a_turn_mail_name_the_players(make_user, alice, bob):
    alice, bob, carol = cast(make_user, alice, bob, 3)
    game = _table_at_the_powers([alice, bob, carol])
    mail = turn_mail(game.seats.get(index=0))
    assert "Page: move X Wheel of Fortune from Carol's Magick to Bob's Reading" in mail.body
    for body in [mail.body] + [content for content, _ in mail.alternatives]:
        assert not SEAT_WORDS.search(_text_of(body)), body


def test_the_confirmation_of_a_knight_names_the_player_it_gives_to(make_user, alice, bob):
    alice, bob, carol = cast(make_user, alice, bob, 3)
    hands = [["9c", "2c", "3s", "4s"], ["Nc", "2s", "6s", "8s"], ["3w", "9w", "4w", "5w"]]
    game = _table_at_the_powers([alice, bob, carol], hands, [{0: "9c", 1: "Nc", 2: "3w"}])
    assert game.to_act == [1]
    seat = game.seats.get(index=1)
    seat.confirm_moves = True  # a Knight takes cards at random: the page asks first
    seat.save(update_fields=["confirm_moves"])
    knight = next(m for m in game.rules.legal_moves(game.load_state(), 1)
                  if m["type"] == "knight" and m["to"] == "hand:0")
    answer = post_move(client_of(bob), game, knight, game.version)
    html = answer.content.decode()
    assert "to Alice and take 2 at random" in html
    assert not SEAT_WORDS.search(_text_of(html)), _text_of(html)

"""The house: every game the site offers is one engine module and one registry line.

A tiny game defined here, registered with nothing but ``register`` (what its module would
do on import) and one ``registry.add`` line, is played through the web page, by mail and
into the journal with no other change anywhere; and every game the registry lists has
everything the site needs of it, from its own line or the generic fallback.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import registry
from games.engine import RULES, Rules, register
from games.engine.base import shuffled
from games.engine.drawings import render_generic
from games.mail.inbound import handle_message
from games.mail.outgoing import reply_address, turn_mail
from games.models import Game
from journal.models import Entry

from .conftest import move_forms, pick_links, reload
from .mail_helpers import reply

HX = {"HTTP_HX_REQUEST": "true"}


class TwoCards(Rules):
    """Draw two cards from a face-down pile of four Majors, keep one: the higher the better."""

    slug = "two_cards"
    title = "Two Cards"
    summary = "Draw two cards face down and keep the one you like."

    def setup(self, state, options, deck):
        state["deck"] = list(deck) if deck else shuffled(state, ["M1", "M2", "M3", "M4"])
        state["hand"], state["kept"], state["out"] = [], None, []

    def to_act(self, state):
        return [] if state["kept"] else [0]

    def legal_moves(self, state, seat):
        if seat != 0 or state["kept"]:
            return []
        if len(state["hand"]) < 2:
            return [{"type": "draw"}]
        return [{"type": "keep", "card": card} for card in state["hand"]]

    def play(self, state, seat, move):
        if move["type"] == "draw":
            state["hand"].append(state["deck"].pop(0))
        else:
            state["kept"] = move["card"]
            state["out"] = [card for card in state["hand"] if card != move["card"]]
            state["hand"] = []

    def view(self, state, seat):
        return {"hand": list(state["hand"]), "deck": len(state["deck"]), "kept": state["kept"]}

    def zones(self, state):
        return {"deck": list(state["deck"]), "hand:0": list(state["hand"]),
                "kept": [state["kept"]] if state["kept"] else [], "out": list(state["out"])}

    def outcome(self, state):
        if not state["kept"]:
            return None
        score = int(state["kept"][1:])
        return {"result": "win", "winners": [0], "scores": [score], "reason": f"Seat 0 kept a card worth {score}."}

    def reading(self, state):
        return {"cards": [state["kept"]] if state["kept"] else []}

    def describe_move(self, state, seat, move):
        return "draw a card" if move["type"] == "draw" else f"keep {move['card']}"


@pytest.fixture
def two_cards():
    """The toy game, in the engine and on the site by one line each, for this test only."""
    register(TwoCards())
    registry.add(registry.GameEntry("two_cards"))  # the one line a new game adds
    yield
    RULES.pop("two_cards")
    registry.GAMES.pop("two_cards")


def test_a_new_game_plays_through_the_page_the_mail_and_into_the_journal(two_cards, alice, alice_client,
                                                                       outsider_client, smtp_server):
    assert any(m["slug"] == "two_cards" for m in alice_client.get(reverse("games:new")).context["form"].modes)
    # Private: an outsider sees nothing of it (a public game they could watch).
    response = alice_client.post(reverse("games:new"), {"mode": "two_cards", "opponent": "solo", "private": "on"})
    game = Game.objects.get(mode="two_cards")
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()

    # The page shows the game and offers its move; an outsider sees nothing of it.
    page = alice_client.get(game.get_absolute_url())
    assert page.status_code == 200 and "Two Cards" in page.content.decode()
    assert move_forms(page.content.decode()) == [{"type": "draw"}]
    assert outsider_client.get(game.get_absolute_url()).status_code in (403, 404)

    # First card on the web, through the htmx form.
    answer = alice_client.post(reverse("games:move", args=[game.pk]),
                               {"move": json.dumps({"type": "draw"}), "version": game.version, "confirmed": "1"}, **HX)
    assert answer.status_code == 200
    game = reload(game)
    assert game.version == 1 and len(game.load_state()["hand"]) == 1

    # Second card by mail: the turn mail numbers the move, the reply plays it.
    seat = game.seats.select_related("user", "game").get(index=0)
    mail = turn_mail(seat)
    assert "1. Draw a card" in mail.body or "1. draw a card" in mail.body.lower()
    outcome = handle_message(reply(reply_address(seat, game.version), "1", sender="alice@example.com").as_bytes())
    assert outcome.status == "played", outcome
    game = reload(game)
    hand = game.load_state()["hand"]
    assert game.version == 2 and len(hand) == 2

    # The last choice on the plain form (no JavaScript); the game ends.
    best = max(hand, key=lambda card: int(card[1:]))
    assert best in pick_links(alice_client.get(game.get_absolute_url()).content.decode())
    page = alice_client.get(game.get_absolute_url() + f"?pick={best}").content.decode()
    assert move_forms(page) == [{"type": "keep", "card": best}]
    alice_client.post(reverse("games:move", args=[game.pk]),
                      {"move": json.dumps({"type": "keep", "card": best}), "version": game.version, "confirmed": "1"})
    game = reload(game)
    assert game.status == Game.Status.FINISHED

    # Its reading is in alice's journal, the generic layout naming the kept card.
    entry = Entry.objects.get(owner=alice, source_game=game)
    assert entry.mode == "two_cards"
    assert [p["card"] for p in entry.reading["sections"][0]["positions"]] == [best]
    detail = alice_client.get(reverse("journal:detail", args=[entry.pk])).content.decode()
    assert "Two Cards" in detail
    assert outsider_client.get(reverse("journal:detail", args=[entry.pk])).status_code == 404
    assert alice_client.get(reverse("journal:list")).status_code == 200


def test_a_game_without_a_line_of_its_own_still_gets_the_generic_one(two_cards):
    registry.GAMES.pop("two_cards")
    line = registry.entry("two_cards")
    assert line.board.__name__.endswith("generic") and line.text_drawing is None
    assert [game.slug for game in registry.entries()][-1] == "two_cards"
    registry.add(registry.GameEntry("two_cards"))


def test_an_unknown_game_has_no_line():
    with pytest.raises(ValueError, match="Unknown game"):
        registry.entry("chess")


@pytest.mark.parametrize("slug", [game.slug for game in registry.entries()])
def test_every_registered_game_names_all_the_site_needs(slug):
    line = registry.entry(slug)
    rules = line.rules
    assert rules is RULES[slug] and rules.title and rules.summary
    assert callable(line.board.present) and callable(line.reading_layout)
    drawing = line.text_drawing or render_generic
    players = rules.min_players
    state = rules.new_game(seed=3, players=players, options={"variant": "standard"})
    assert all(isinstance(row, str) for row in drawing(rules.view(state, 0)))
    for variant in rules.variants:
        if variant != "standard":
            assert line.describe_variant(variant), f"{slug}: no words for the variation {variant!r}"
    shown = registry.present(rules, state, 0)
    assert shown is not None
    layout = line.reading_layout(rules.reading(state), rules.outcome(state))
    assert "sections" in layout

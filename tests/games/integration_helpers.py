"""Shared by the integration tests (tests/games/test_integration_*.py): games with a clock
between alice and bob, and reading the game page the way a browser would."""

from __future__ import annotations

import json
import re

from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game

from .conftest import reload, two_player_mode

HX = {"HTTP_HX_REQUEST": "true"}


def timed_duel(alice, bob, days: int = 1, seed: int = 5, mode: str | None = None) -> Game:
    """A two-player game with a clock, alice at seat 0, bob at seat 1, both seated."""
    game = services.start_game(alice, mode or two_player_mode(), {"variant": "standard"}, opponent=bob,
                               time_control=days, seed=seed)
    services.accept_invitation(game.pk, bob)
    return reload(game)


def mover_and_waiter(game: Game, clients: dict[int, Client]) -> tuple[Client, Client]:
    """(client of the seat to act, client of the seat waiting), by the game's to_act."""
    (acting,) = game.to_act
    return clients[acting], clients[1 - acting]


def game_url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", args=[game.pk])


def give_day_url(game_or_id) -> str:
    return reverse("clocks:give_day", args=[getattr(game_or_id, "pk", game_or_id)])


def page_of(client: Client, game: Game) -> str:
    response = client.get(game_url("game", game))
    assert response.status_code == 200
    return response.content.decode()


def seen_hashes(client: Client, game: Game) -> dict[str, str]:
    """What an open page sends with each htmx request: the hash of every region it shows."""
    partials = client.get(game_url("game", game), **HX).content.decode()
    return {f"seen_{k}": v for k, v in re.findall(r'name="seen_(\w+)" value="([\w.]+)"', partials)}


def oob_regions(answer: str) -> set[str]:
    """The regions an htmx answer swaps (the ids of its out-of-band elements, hashes aside)."""
    return set(re.findall(r'<(?:section|div) id="([\w-]+)"[^>]*hx-swap-oob="true"', answer))


def form_for(page: str, action: str) -> str:
    """The whole <form> posting to ``action`` ('' if the page has none)."""
    found = re.search(rf'<form [^>]*action="{re.escape(action)}"[^>]*>.*?</form>', page, re.S)
    return found.group(0) if found else ""


def post_move(client: Client, game: Game, move: dict, version: int | None = None, **extra):
    data = {"version": game.version if version is None else version, "move": json.dumps(move)}
    data.update({k: v for k, v in extra.items() if not k.startswith("HTTP_")})
    return client.post(game_url("move", game), data, **{k: v for k, v in extra.items() if k.startswith("HTTP_")})


def drawing_move(game: Game, seat: int = 0) -> dict:
    """A legal move after which the face-down deck is shorter: one that cannot be taken back."""
    rules = game.rules
    state = game.load_state()

    def in_decks(s):
        return sum(len(cards) for zone, cards in rules.zones(s).items() if "deck" in zone)

    for move in rules.legal_moves(state, seat):
        if in_decks(rules.apply(state, seat, move)) < in_decks(state):
            return move
    raise AssertionError("no legal move draws a card here")


def quiet_move(game: Game, seat: int = 0) -> dict:
    """A legal move that draws nothing."""
    rules = game.rules
    state = game.load_state()
    deck = lambda s: sum(len(c) for z, c in rules.zones(s).items() if "deck" in z)  # noqa: E731
    for move in rules.legal_moves(state, seat):
        if deck(rules.apply(state, seat, move)) == deck(state):
            return move
    raise AssertionError("every legal move draws here")

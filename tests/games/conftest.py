"""Helpers for the games app's tests; the cast (alice, bob, outsider and their clients),
the worker, the SMTP collector and the browser come from tests/conftest.py."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

TWO_PLAYER_MODES = ("lovers_discourse", "warring_planets")


def registered(slug: str) -> bool:
    from games.engine import RULES

    return slug in RULES


# The shared tests below (leaks, golden renders, a game by one line) seat alice and bob;
# tables of three to six (issue 16) are tested with a larger cast in test_hallow_*.py.
SITE_MAX_SEATS = 2


def site_seat_counts(rules) -> list[int]:
    return list(range(rules.min_players, min(rules.max_players, SITE_MAX_SEATS) + 1))


def two_player_mode() -> str:
    """The first two-player game whose engine has landed."""
    for slug in TWO_PLAYER_MODES:
        if registered(slug):
            return slug
    pytest.fail("no two-player engine is registered")


def reload(game):
    from games.models import Game

    return Game.objects.get(pk=game.pk)


def play_random_moves(game, count: int, seed: int = 0):
    """Make up to ``count`` random legal moves through games.services, as the pages do."""
    from games import services

    choose = random.Random(seed)
    for _ in range(count):
        game = reload(game)
        if game.status != game.Status.ACTIVE:
            break
        seat_index = choose.choice(game.to_act)
        seat = game.seats.get(index=seat_index)
        rules = game.rules
        moves = rules.legal_moves(rules.loads(game.state), seat_index)
        services.submit_move(game.pk, seat, choose.choice(moves), game.version)
    return reload(game)


def move_forms(page_html: str) -> list[dict]:
    """Every move a page offers as a form, as the dicts it would post."""
    return [json.loads(html.unescape(v)) for v in re.findall(r'name="move" value="([^"]*)"', page_html)]


def pick_links(page_html: str) -> list[str]:
    return sorted(set(re.findall(r'href="\?pick=([^"&]+)"', page_html)) - {"none"})


@pytest.fixture
def solo_game(alice):
    from games import services

    return services.start_game(alice, "know_thyself", {"variant": "standard"}, seed=11)


@pytest.fixture
def duel(alice, bob):
    """A two-player game alice (seat 0) started and bob (seat 1) accepted."""
    from games import services

    game = services.start_game(alice, two_player_mode(), {"variant": "standard"}, opponent=bob, seed=5)
    services.accept_invitation(game.pk, bob)
    return reload(game)


@pytest.fixture
def receiver():
    """The site's SMTP receiver of replies (aiosmtpd) on a free loopback port."""
    from games.mail.smtp_receiver import make_controller
    from tests.support.net import free_port

    controller = make_controller("127.0.0.1", free_port())
    controller.start()
    yield controller
    controller.stop()

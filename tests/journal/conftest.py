"""Helpers for the journal's tests; the cast (alice, bob, outsider and their clients), the
worker and the browser come from tests/conftest.py."""

from __future__ import annotations

import random

import pytest

KNOW_THYSELF_SEED = 7  # a short game (13 moves) that ends in a loss, so it has an obstacle


def finish_know_thyself(user, seed: int = KNOW_THYSELF_SEED):
    """Play a whole Know Thyself game for ``user`` through games.services, as the web
    pages do, choosing among the legal moves with a seeded generator."""
    from games import services as games
    from games.models import Game

    game = games.start_game(user, "know_thyself", {"variant": "standard"}, seed=seed)
    choose = random.Random(seed)
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            return game
        rules = game.rules
        moves = rules.legal_moves(rules.loads(game.state), 0)
        games.submit_move(game.pk, user, choose.choice(moves), game.version)


@pytest.fixture
def finished_game(alice, django_capture_on_commit_callbacks):
    """A Know Thyself game alice has finished, with the after-commit signals delivered."""
    with django_capture_on_commit_callbacks(execute=True):
        return finish_know_thyself(alice)


@pytest.fixture
def drawn_entry(alice):
    from journal import services

    return services.record_drawn(alice, spread="three", reversals=True, title="Morning draw", tags=["morning"])

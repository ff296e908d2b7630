"""Helpers shared by the engine tests: stacked decks and short ways to make moves.

A stacked deck lists the cards a scenario needs first, in draw order, followed by every other
card in deck order.  In Know Thyself the opening hand is the first three cards and each turn
draws one more, so a scenario whose cards are listed in the order they are played always
has the next one in hand.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, get_rules
from games.engine.cards import DECK

KT = get_rules("know_thyself")


def deck_starting(*cards: str) -> list[str]:
    assert len(set(cards)) == len(cards), "a stacked deck cannot hold a card twice"
    return list(cards) + [c for c in DECK if c not in cards]


def new_game(*cards: str, variant="standard", seed: int = 0) -> dict:
    return KT.new_game(seed, 1, {"variant": variant}, deck=deck_starting(*cards))


def act(state: dict, type: str, **keys) -> dict:
    return KT.apply(state, 0, {"type": type, **keys})


def play(state: dict, card: str, where) -> dict:
    """Play a hand card: a Minor to a column (int), a Major to a space (str)."""
    key = "column" if isinstance(where, int) else "to"
    return act(state, "play", card=card, **{key: where})


def place(state: dict, card: str, to: str) -> dict:
    return act(state, "place", card=card, to=to)


def refused(state: dict, move: dict) -> str:
    """Apply a move that must be refused; return the message, and prove nothing changed."""
    before = KT.dumps(state)
    with pytest.raises(IllegalMove) as error:
        KT.apply(state, 0, move)
    assert KT.dumps(state) == before
    return str(error.value)


def moves_of(state: dict, type: str) -> list[dict]:
    return [m for m in KT.legal_moves(state, 0) if m["type"] == type]


def places_for(state: dict, card: str) -> list[str]:
    return [m["to"] for m in KT.legal_moves(state, 0) if m.get("card") == card and m["type"] == "place"]


@pytest.fixture
def kt():
    return KT

"""Helpers shared by the engine tests.

For every game: ``refused_by`` (a refused move changes nothing), and what a view names
(``codes_in``, ``cards_named``, ``strings``), for the checks that no view leaks a hidden card.

For Know Thyself: stacked decks and short ways to make moves.  A stacked deck lists the cards a scenario needs first, in draw order, followed by every other
card in deck order.  In Know Thyself the opening hand is the first three cards and each turn
draws one more, so a scenario whose cards are listed in the order they are played always
has the next one in hand.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, get_rules
from games.engine.cards import DECK, label

KT = get_rules("know_thyself")
CARD_CODES = frozenset(DECK)


# --- every game -------------------------------------------------------------------------------

def refused_by(rules, state: dict, seat: int, move: dict) -> str:
    """Apply a move that must be refused; return the message, and prove nothing changed."""
    before = rules.dumps(state)
    with pytest.raises(IllegalMove) as error:
        rules.apply(state, seat, move)
    assert rules.dumps(state) == before
    return str(error.value)


def strings(data) -> list[str]:
    """Every string in a JSON-like value, keys included."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [k, *strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return []


def codes_in(value) -> set[str]:
    """Every card code standing as a whole string anywhere in a JSON-like value, keys
    included.  A loop rather than ``strings``: the random tests call it on every view."""
    found: set[str] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind is str:
            if item in CARD_CODES:
                found.add(item)
        elif kind is dict:
            todo.extend(item.keys())
            todo.extend(item.values())
        elif kind is list or kind is tuple:
            todo.extend(item)
    return found


def cards_named(view: dict) -> set[str]:
    """Every card a view names: by code in any field, by name in any sentence."""
    words = "\n".join(strings(view))
    return codes_in(view) | {c for c in DECK if label(c) in words}


# --- Know Thyself -----------------------------------------------------------------------------


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
    return refused_by(KT, state, 0, move)


def moves_of(state: dict, type: str) -> list[dict]:
    return [m for m in KT.legal_moves(state, 0) if m["type"] == type]


def places_for(state: dict, card: str) -> list[str]:
    return [m["to"] for m in KT.legal_moves(state, 0) if m.get("card") == card and m["type"] == "place"]


@pytest.fixture
def kt():
    return KT

"""Determinization: a full game state built from one seat's view, its hidden cards dealt
at random from the cards that seat has not seen (for information-set search, the bots).

Each game's folder holds its builder, ``determinize.py`` exposing
``determinize(rules, view, seat, rng) -> state`` (a family's serves all its games).  The
builder sees only the view, never a real state, so a determinization cannot carry the
real hidden cards: two states with the same view give the same determinizations for the
same generator.  This module is the part every game shares: finding the builder, and the
helpers the builders use.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from .cards import DECK
from .folders import game_part

Builder = Callable[[Any, dict, int, random.Random], dict]


def builder_for(rules) -> Builder | None:
    return getattr(game_part(rules, "determinize"), "determinize", None)


def determinize(rules, view: dict, seat: int, rng: random.Random) -> dict:
    build = builder_for(rules)
    if build is None:
        raise NotImplementedError(f"{rules.title} has no determinizer yet")
    return build(rules, view, seat, rng)


def unseen(*seen_lists) -> list[str]:
    """The cards of the deck (in deck order) not named in any of the given lists."""
    seen: set[str] = set()
    for cards in seen_lists:
        seen.update(c for c in cards if c)
    return [c for c in DECK if c not in seen]


def new_seed(rng: random.Random) -> int:
    return rng.randrange(2**31)

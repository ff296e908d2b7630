"""Determinization: a full game state built from one seat's view, its hidden cards dealt
at random from the cards that seat has not seen (for information-set search, the bots).

Each game registers a builder in a module of its own, ``determinize_<slug>.py`` beside
this one (or under another name listed in ``MODULES``), exposing
``determinize(rules, view, seat, rng) -> state``.  The builder sees only the view, never a
real state, so a determinization cannot carry the real hidden cards: two states with the
same view give the same determinizations for the same generator.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Callable

from .cards import DECK

Builder = Callable[[Any, dict, int, random.Random], dict]

# slug -> module (relative to this package) that holds ``determinize``; a game not listed
# is looked for as ``determinize_<slug>``.
MODULES = {
    "warring_planets": ".determinize_starfield",
    "lovers_discourse": ".determinize_starfield",
    "know_thyself": ".determinize_know_thyself",
    "lovers_discourse_2021": ".determinize_starfield",
    "warring_planets_2021": ".determinize_starfield",
}


def builder_for(slug: str) -> Builder | None:
    name = MODULES.get(slug, f".determinize_{slug}")
    try:
        module = importlib.import_module(name, __package__)
    except ModuleNotFoundError as e:
        if e.name and e.name.endswith(name.lstrip(".")):
            return None
        raise
    return getattr(module, "determinize", None)


def determinize(rules, view: dict, seat: int, rng: random.Random) -> dict:
    build = builder_for(rules.slug)
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

"""Determinizing Dream Odyssey from the player's view.

The player's view carries ``known``: the state as the player knows it, every unseen card a
blank ("?M" in a Majors pile or an unopened Sefira, "?m" in the Minors deck or a stack
below its top), no seed.  A determinization deals the cards the view does not show into
the blanks at random, Majors into the Majors' blanks first, and gives the state a fresh
seed for the piles' later reshuffles.
"""

from __future__ import annotations

import copy
import random

from ..cards import MAJORS, MINORS, is_card
from ..determinize import new_seed

BLANKS = ("?M", "?m")


def determinize(rules, view: dict, seat: int, rng: random.Random) -> dict:
    state = copy.deepcopy(view["known"])
    # The cards in the known places (not a stale mention elsewhere) are not dealt.
    seen = {c for cards in rules.zones(state).values() for c in cards if is_card(c)}
    majors = [c for c in MAJORS if c not in seen]
    minors = [c for c in MINORS if c not in seen]
    rng.shuffle(majors)
    rng.shuffle(minors)
    pools = {"?M": majors, "?m": minors}
    either = majors + minors

    def deal(item):
        if isinstance(item, str) and item in BLANKS:
            own, other = pools[item], pools["?m" if item == "?M" else "?M"]
            return (own or other).pop()  # a blank of the wrong kind only if the counts disagree
        if item == "?x":  # a mention outside the piles: any unseen card stands for it
            return rng.choice(either) if either else item
        if isinstance(item, list):
            return [deal(x) for x in item]
        if isinstance(item, dict):
            return {k: deal(v) for k, v in item.items()}
        return item

    state = deal(state)
    assert not majors and not minors, "the view's blanks do not add up to the deck"
    state["seed"], state["rng"], state["tale"] = new_seed(rng), 0, []
    return state

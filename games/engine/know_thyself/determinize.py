"""Determinizing Know Thyself from the player's view.

The player sees everything but the order of the deck (and, in Numerology, the card that set
the sacred number until the game ends), so a determinization keeps the view and shuffles
the unseen cards into a deck of the size the view shows.  Two details of the turn are not
shown and are approximated: which matched groups may still negate (taken to be every court
pair among the waiting cards) and how many discard-and-refill rounds are owed (one while
discarding).  The 2021 edition has a builder of its own (``determinize_2021``);
``determinize`` hands each edition to its own.
"""

from __future__ import annotations

import random

from ..determinize import new_seed, unseen
from .determinize_2021 import determinize as determinize_2021


def determinize(rules, view: dict, seat: int, rng: random.Random) -> dict:
    build = determinize_2021 if rules.slug == "know_thyself_2021" else determinize_final
    return build(rules, view, seat, rng)


def determinize_final(rules, view: dict, seat: int, rng: random.Random) -> dict:
    tree, seen = {}, []
    for space, t in view["tree"].items():
        tree[space] = {"major": t["major"], "minors": list(t["minors"]),
                       "room": None if t["takes_any"] else t["needs"], "resolved": t["resolved"]}
        seen += [t["major"]] + t["minors"]
    plane = [list(col) for col in view["plane"]]
    for col in plane:
        seen += col
    grace = list(view["grace"])
    pool = unseen(view["hand"], seen, grace, view["waiting"], view["discard"], view["out"])
    rng.shuffle(pool)
    assert len(pool) == view["deck_count"], "the view's counts do not add up to the deck"
    variants = list(view["variant"])
    phase = view["phase"]
    return {
        "game": rules.slug, "seed": new_seed(rng), "rng": 0, "players": 1,
        "options": {"variant": variants}, "moves": 0,
        "meditative": "meditative" in variants, "fated": "fated" in variants,
        "sacred": view["sacred"], "sacred_card": view.get("sacred_card"),
        "deck": pool, "hand": list(view["hand"]), "plane": plane, "tree": tree, "grace": grace,
        "waiting": list(view["waiting"]),
        "negatable": [list(view["waiting"])] if phase in ("negate", "discard") else [],
        "choices": [list(c) for c in view["choices"]],
        "refills": 1 if phase == "discard" else 0,
        "discard": list(view["discard"]), "out": list(view["out"]),
        "phase": phase, "turn": view["turn"], "result": None, "log": "",
    }

"""Determinizing Know Thyself (2021 prototype) from the player's view.

The player sees everything but the order of the deck, so a determinization keeps the view
(tree, bridges, plane with its holes, Grace Fields, waiting cards, sets on offer) and
shuffles the unseen cards into a deck of the size the view shows.
"""

from __future__ import annotations

import random

from ..determinize import new_seed, unseen


def determinize(rules, view: dict, seat: int, rng: random.Random) -> dict:
    tree, seen = {}, []
    for space, t in view["tree"].items():
        tree[space] = {"major": t["major"], "minors": list(t["minors"]), "room": t["room"],
                       "resolved": t["resolved"], "bridge": t["bridge"], "never": t["never"]}
        seen += [t["major"]] + t["minors"]
    bridges = {}
    for b, t in view["bridges"].items():
        bridges[b] = {"minors": list(t["minors"]), "room": t["needs"], "resolved": t["resolved"]}
        seen += t["minors"]
    plane = [list(col) for col in view["plane"]]
    for col in plane:
        seen += col
    grace = list(view["grace"])
    pool = unseen(view["hand"], seen, grace, view["waiting"], view["discard"], view["out"])
    rng.shuffle(pool)
    assert len(pool) == view["deck_count"], "the view's counts do not add up to the deck"
    variants = list(view["variant"])
    return {
        "game": rules.slug, "seed": new_seed(rng), "rng": 0, "players": 1,
        "options": {"variant": variants}, "moves": 0,
        "easy": "easy" in variants, "expert": "expert" in variants,
        "freethought": "freethought" in variants,
        "meditative": False, "fated": False, "sacred": None, "sacred_card": None,
        "negatable": [], "refills": 0,
        "deck": pool, "hand": list(view["hand"]), "plane": plane, "tree": tree, "bridges": bridges,
        "grace": grace, "waiting": list(view["waiting"]),
        "choices": [list(c) for c in view["choices"]],
        "discard": list(view["discard"]), "out": list(view["out"]),
        "phase": view["phase"], "turn": view["turn"], "result": None, "log": "",
    }

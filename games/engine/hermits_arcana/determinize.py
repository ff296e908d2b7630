"""Determinizing Hermit's Arcana from the player's view.

The player sees everything but the order of Fate and Chance, so a determinization keeps
the board as the view shows it and deals the cards not on it into the two piles at random;
the orientation of a card not in sight is drawn at random too."""

from __future__ import annotations

import random

from ..cards import MAJORS, MINORS
from ..determinize import new_seed


def determinize(rules, view: dict, seat: int, rng: random.Random) -> dict:
    seen: dict[str, bool] = {}
    altar, offered = [], {}
    for sigil in view["altar"]:
        if sigil is None:
            altar.append(None)
            continue
        altar.append(sigil["card"])
        seen[sigil["card"]] = sigil["reversed"]
        offered[sigil["card"]] = [o["card"] for o in sigil["offered"]]
        seen.update((o["card"], o["reversed"]) for o in sigil["offered"])
    table = [t["card"] if t else None for t in view["table"]]
    for entry in [t for t in view["table"] if t] + view["heap"] + view["honour"]:
        seen[entry["card"]] = entry["reversed"]
    fate = [m for m in MAJORS if m not in seen]
    chance = [m for m in MINORS if m not in seen]
    rng.shuffle(fate)
    rng.shuffle(chance)
    assert len(fate) == view["fate_count"] and len(chance) == view["chance_count"], "the view's counts do not add up"
    reversed_ = [c for c in MAJORS + MINORS if seen.get(c, rng.random() < 0.5)]
    counters = view["counters"]
    return {
        "game": rules.slug, "seed": new_seed(rng), "rng": 0, "players": 1,
        "options": {"variant": list(view["variant"])}, "moves": 0,
        "fate": fate, "chance": chance, "reversed": reversed_,
        "altar": altar, "offered": offered, "table": table,
        "heap": [h["card"] for h in view["heap"]], "honour": [h["card"] for h in view["honour"]],
        "round": view["round"], "phase": view["phase"], "owed": view["owed"],
        "search": counters["search"], "keep": counters["keep"],
        "modes": dict(counters["modes"]), "death": dict(counters["death"]),
        "tower_discards": counters["tower_discards"], "fool_returned": counters["fool_returned"],
        "fool_pending": counters["fool_pending"], "banished": counters["banished"],
        "result": None, "log": [],
    }

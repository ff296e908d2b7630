"""Determinizing Warring Planets and Lovers' Discourse from one seat's view.

Known to the seat: its hand, both Material Planes, the Starfield, the cards waiting to be
placed, the cards out of the game, the face-up gifts, the discard when it is public, and
from its own log lines the cards it discarded or locked face down.  Unseen: the partner's
or rival's hand, the deck, the other seat's hidden discards and locked gifts; these are
dealt at random from the unseen cards in the counts the view shows.
"""

from __future__ import annotations

import random

from ..determinize import new_seed, unseen


def determinize(rules, view: dict, seat: int, rng: random.Random) -> dict:
    other = 1 - seat
    log = view["log"]
    mine = [e for e in log if e.get("seat") == seat]
    known_discards = [e["card"] for e in mine if e["event"] == "discard" and "card" in e]
    known_locks = {e["to"]: e["card"] for e in mine if e["event"] == "lock" and "card" in e}
    given = [e["card"] for e in log if e["event"] == "give" and "card" in e]

    board = {}
    seen: list[str] = []
    for space, e in view["board"].items():
        if "guard" in e:
            board[space] = {"guard": e["guard"], "facing": e["facing"]}
            seen.append(e["guard"])
            continue
        entry = {"majors": list(e["majors"]), "by": list(e["by"]), "minors": list(e["minors"]),
                 "resolved_by": e["resolved_by"]}
        if "facing" in e:
            entry["facing"] = e["facing"]
        board[space] = entry
        seen += e["majors"] + e["minors"]
    planes = [[list(col) for col in p] for p in view["planes"]]
    for p in planes:
        for col in p:
            seen += col
    hand = list(view["hand"])
    public_discard = "discard" in view
    discard = list(view["discard"]) if public_discard else list(known_discards)
    gifts_view = view.get("gifts")
    face_up = [f["card"] for f in (gifts_view or {}).values() if f and "card" in f]
    pool = unseen(hand, seen, view["waiting"], view["out"], discard, face_up,
                  known_locks.values())
    rng.shuffle(pool)

    def deal(n: int) -> list[str]:
        got = pool[:n]
        del pool[:n]
        return got

    hands = [None, None]
    hands[seat] = hand
    hands[other] = deal(view["hand_counts"][other])
    if not public_discard:
        discard += deal(view["discard_count"] - len(discard))
    gifts = None
    if gifts_view is not None:
        gifts = []
        for g, f in gifts_view.items():
            if f is None:
                gifts.append(None)
            elif "card" in f:
                gifts.append({"card": f["card"], "locked": False})
            else:
                gifts.append({"card": known_locks.get(g) or deal(1)[0], "locked": True})
    deck = deal(view["deck_count"])
    assert not pool, "the view's counts do not add up to the deck"
    groups = [{"cards": list(m["cards"]), "must": False, "done": False}
              for m in view["legal_moves"] if m["type"] == "negate"]
    state = {
        "game": rules.slug, "seed": new_seed(rng), "rng": 0, "players": 2,
        "options": {"variant": list(view["variant"])}, "moves": 0,
        "deck": deck, "hands": hands, "planes": planes, "board": board,
        "raised": list(view["waiting"]), "groups": groups, "discard": discard,
        "out": list(view["out"]), "turn": view["turn"], "phase": view["phase"],
        "events": {}, "log": "", "end": None,
        "sacred": ({"number": view["sacred"], "card": view.get("sacred_card")}
                   if view["sacred"] is not None else None),
    }
    if gifts is not None:
        state["gifts"] = gifts
        state["given"] = given
    return state

"""Determinizing Tarot Hallow from one seat's view.

Known to the seat: its hand and its own face-down card, every card revealed this round and
the last, the discard, the Majors taken (Readings, the story, the ones out), and from the
Knights' log lines it was part of the cards it gave to a rival (taken to be still in that
hand until the rival reveals them).  Unseen: the rivals' hands and face-down cards, the
Minors deck and the order of the Majors still to come; these are dealt at random from
the cards the seat has not seen, in the counts the view shows.
"""

from __future__ import annotations

import random

from ..cards import MAJORS, MINORS
from ..determinize import new_seed

FOOL = "M0"


def determinize(rules, view: dict, seat: int, rng: random.Random) -> dict:
    n = view["players"]
    hand = list(view["hand"])
    steps = [[[r["seat"], r["card"]] for r in step] for step in view["revealed"]]
    played = [[] for _ in range(n)]
    for step in steps:
        for s, c in step:
            played[s].append(c)
    mine_down = view["your_card"]
    public = set(hand) | set(view["discard"]) | {c for p in played for c in p} | {mine_down}

    # Cards this seat knows to be in a rival's hand: what it gave them with a Knight or
    # what their Knight took from it, until they reveal it.
    known_in: list[list[str]] = [[] for _ in range(n)]
    for e in view["log"]:
        if e["event"] == "knight" and "cards" in e:
            giver, to = e["seat"], e["to"]
            if giver == seat:
                known_in[to] += e["cards"]
            elif to == seat:
                known_in[giver] += e.get("taken", [])
        elif e["event"] == "reveal":
            for cards in known_in:
                if e.get("card") in cards:
                    cards.remove(e["card"])
    for s in range(n):
        if s == seat:
            known_in[s] = []
            continue
        kept = [c for c in dict.fromkeys(known_in[s]) if c not in public]
        known_in[s] = kept[:view["hand_counts"][s]]
        public |= set(known_in[s])

    pool = [c for c in MINORS if c not in public]
    rng.shuffle(pool)

    def deal(k: int) -> list[str]:
        got = pool[:k]
        del pool[:k]
        return got

    hands = []
    for s in range(n):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(known_in[s] + deal(view["hand_counts"][s] - len(known_in[s])))
    face_down = [None] * n
    for s in range(n):
        if view["has_played"][s]:
            face_down[s] = mine_down if s == seat else deal(1)[0]
    minors = deal(view["deck_count"])
    # Should the counts disagree (a Knight's card gone where this seat could not follow),
    # the rest join the deck: a consistent deal matters more than the deck's exact size.
    minors += pool

    taken = {c for reading in view["readings"] for stack in reading.values() for c in
             (x["card"] for x in stack)}
    taken |= {e["major"] for e in view["story"]} | set(view["out"])
    if view["major"]:
        taken.add(view["major"])
    majors = [c for c in MAJORS if c != FOOL and c not in taken]
    rng.shuffle(majors)

    rnd = None
    if view["phase"] != "over":
        rnd = {"number": view["round"], "major": view["major"], "fool_round": view["fool_round"],
               "contest": list(view["contest"]), "pending": list(view["waiting"]),
               "face_down": face_down, "played": played, "steps": steps,
               "winner": view["winner"]}
    last = view["last_round"]
    if last:
        last = {**{k: v for k, v in last.items() if k != "revealed"},
                "steps": [[[r["seat"], r["card"]] for r in step] for step in last["revealed"]]}
    return {
        "game": rules.slug, "seed": new_seed(rng), "rng": 0, "players": n,
        "options": {"variant": ["standard"]}, "moves": 0, "dealer": view["dealer"],
        "minors": minors, "discard": list(view["discard"]), "majors": majors,
        "fool": FOOL if view["fool_under_pile"] else None, "hands": hands,
        "readings": [{slot: [[x["card"], x["upright"]] for x in stack]
                      for slot, stack in reading.items()} for reading in view["readings"]],
        "out": list(view["out"]), "log": [dict(e) for e in view["log"]],
        "story": [dict(e) for e in view["story"]], "phase": view["phase"],
        "powers": [[p["seat"], p["card"]] for p in view["powers"]],
        "last_round": last, "round": rnd, "final": view["outcome"],
    }

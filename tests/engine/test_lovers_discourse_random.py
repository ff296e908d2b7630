"""Lovers' Discourse played by random partners over many seeds: every game ends (even
between partners who pass cards through the Gift Fields whenever they can), the 78 cards are
conserved after every move, a replay of the record is byte-identical, no view ever shows
what its seat may not know, and moves off the legal list are refused."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import get_rules
from games.engine.base import check_zones
from games.engine.cards import DECK

from .conftest import cards_named
from .starfield_support import Knowledge, check_moves_and_secrecy, check_views

LD = get_rules("lovers_discourse")
VARIANTS = ["standard", "meditative", "fated", "numerology", ["meditative", "fated", "numerology"]]
MOVE_CAP = 5000
# Rather build than wander: a bot that mostly prefers placing and playing to the board.
PREFERENCE = {"place": 0, "play": 1, "take": 2, "draw": 2, "negate": 3, "match": 3, "lock": 4,
              "raise": 4, "refill": 4, "discard": 5, "give": 5}


def choose(rnd: random.Random, legal: list[dict]) -> dict:
    if rnd.random() < 0.5:
        return rnd.choice(legal)
    best = min(PREFERENCE[m["type"]] for m in legal)
    return rnd.choice([m for m in legal if PREFERENCE[m["type"]] == best])


def bad_moves(state: dict, seat: int, legal: list[dict], rnd: random.Random) -> list[dict]:
    """Moves close to legal ones that are not legal now."""
    out: list[dict] = []
    for move in rnd.sample(legal, min(3, len(legal))):
        if "card" in move:
            for c in rnd.sample(DECK, 4):
                out.append({**move, "card": c})
        if "to" in move:
            out.append({**move, "to": rnd.choice(["C2", "L3", "gift:0", "gift:1", "X9"])})
        if "column" in move:
            out.append({**move, "column": rnd.choice([-1, 3, 1.0, "1"])})
        out.append({**move, "extra": 1})
    return [m for m in out if m not in legal]


def play_one(seed: int, variant) -> tuple[dict, list]:
    rnd = random.Random(seed)
    state = LD.new_game(seed, 2, {"variant": variant})
    record = []
    knows = Knowledge(LD)
    for step in range(MOVE_CAP):
        check_zones(LD.zones(state), DECK)
        check_views(LD, state, knows)
        seats = LD.to_act(state)
        if not seats:
            break
        assert len(seats) == 1 and LD.legal_moves(state, 1 - seats[0]) == []
        seat = seats[0]
        legal = LD.legal_moves(state, seat)
        assert legal, "a running game always offers the seat to act a move"
        if step % 7 == 0:
            check_moves_and_secrecy(LD, state, seat, legal, bad_moves(state, seat, legal, rnd), rnd)
        move = choose(rnd, legal)
        record.append((seat, move))
        state = LD.apply(state, seat, move)
    else:
        raise AssertionError(f"seed {seed} did not end within {MOVE_CAP} moves")
    return state, record


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "+".join(v) if isinstance(v, list) else v)
def test_random_partners_finish_conserve_cards_replay_exactly_and_never_peek(variant):
    results = {}
    for seed in range(25):
        state, record = play_one(seed, variant)
        outcome = LD.outcome(state)
        assert outcome["result"] in ("win", "loss")
        assert outcome["scores"][0] == outcome["scores"][1]
        results[outcome["result"]] = results.get(outcome["result"], 0) + 1
        again = LD.replay(seed, 2, {"variant": variant}, record)
        assert LD.dumps(again) == LD.dumps(state)
        assert LD.loads(LD.dumps(state)) == state
        reading = LD.reading(state)
        assert reading["complete"] and json.loads(json.dumps(reading)) == reading
        assert len(reading["positions"]) == 3
    assert results.get("loss")


def pass_whenever_possible(rnd: random.Random, legal: list[dict]) -> dict:
    """A pair of partners set on stalling: take the gift rather than draw, give rather than
    play, and otherwise anything."""
    for kind in ("take", "give"):
        options = [m for m in legal if m["type"] == kind]
        if options:
            return rnd.choice(options)
    return rnd.choice(legal)


@pytest.mark.parametrize("seed", range(20))
def test_partners_passing_gifts_whenever_they_can_still_reach_an_end(seed):
    # Each card is given at most once and played at most once (a played card never comes
    # back to a hand), so a game has at most 78 gives and 78 plays: 156 turns.
    rnd = random.Random(seed)
    state = LD.new_game(seed, 2, {"variant": VARIANTS[seed % len(VARIANTS)]})
    turns = 0
    while LD.to_act(state):
        seat = LD.to_act(state)[0]
        move = pass_whenever_possible(rnd, LD.legal_moves(state, seat))
        turns += move["type"] in ("play", "give")
        assert turns <= 2 * len(DECK), "a turn beyond the bound: cards go round in circles"
        state = LD.apply(state, seat, move)
    check_zones(LD.zones(state), DECK)
    gives = [e for e in LD.view(state, 0)["log"] if e["event"] == "give"]
    assert gives and len({e["card"] for e in gives}) == len(gives)


def test_the_peek_check_finds_a_card_in_any_field_or_sentence():
    # A code right after a key ("card": "9c") or a name inside any sentence counts as shown.
    view = {"log": [{"event": "lock", "card": "9c"}], "x": {"y": "you drew the Ace of Cups"}}
    assert cards_named(view) == {"9c", "Ac"}

"""Warring Planets played by random rivals over many seeds: every game ends, the 78 cards
are conserved after every move, a replay of the record is byte-identical, no view ever
shows what its seat may not know, and moves off the legal list are refused."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import get_rules
from games.engine.base import check_zones
from games.engine.cards import DECK

from .starfield_support import Knowledge, check_moves_and_secrecy, check_views

WP = get_rules("warring_planets")
FORFEIT = {"type": "forfeit"}
VARIANTS = ["standard", "noble", "outnumber", ["noble", "outnumber"]]
MOVE_CAP = 5000
PREFERENCE = {"place": 0, "attack": 1, "play": 1, "guard": 2}


def choose(rnd: random.Random, legal: list[dict]) -> dict:
    legal = [m for m in legal if m != FORFEIT]
    if rnd.random() < 0.5:
        return rnd.choice(legal)
    best = min(PREFERENCE[m["type"]] for m in legal)
    return rnd.choice([m for m in legal if PREFERENCE[m["type"]] == best])


def bad_moves(legal: list[dict], rnd: random.Random) -> list[dict]:
    out: list[dict] = []
    for move in rnd.sample(legal, min(3, len(legal))):
        if "card" in move:
            out += [{**move, "card": c} for c in rnd.sample(DECK, 4)]
        if "cards" in move:
            out.append({**move, "cards": move["cards"][:1] + ["Kc"]})
        if "to" in move:
            out.append({**move, "to": rnd.choice(["C2", "L3", "R0", "gift:1", ""])})
        if "column" in move:
            out.append({**move, "column": rnd.choice([-1, 3, 2.0, None])})
        out.append({**move, "type": "give"})
    return [m for m in out if m not in legal]


def play_one(seed: int, variant) -> tuple[dict, list]:
    rnd = random.Random(seed)
    state = WP.new_game(seed, 2, {"variant": variant})
    record = []
    knows = Knowledge(WP)
    for step in range(MOVE_CAP):
        check_zones(WP.zones(state), DECK)
        check_views(WP, state, knows)
        seats = WP.to_act(state)
        if not seats:
            break
        assert len(seats) == 1
        seat = seats[0]
        legal = WP.legal_moves(state, seat)
        assert FORFEIT in legal and len(legal) > 1
        assert WP.legal_moves(state, 1 - seat) == [FORFEIT]
        if step % 7 == 0:
            check_moves_and_secrecy(WP, state, seat, legal, bad_moves(legal, rnd), rnd)
        if rnd.random() < 0.004:  # now and then someone gives up, on their turn or not
            seat, move = rnd.choice((0, 1)), FORFEIT
        else:
            move = choose(rnd, legal)
        record.append((seat, move))
        state = WP.apply(state, seat, move)
    else:
        raise AssertionError(f"seed {seed} did not end within {MOVE_CAP} moves")
    return state, record


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "+".join(v) if isinstance(v, list) else v)
def test_random_rivals_finish_conserve_cards_replay_exactly_and_never_peek(variant):
    hows = set()
    for seed in range(25):
        state, record = play_one(seed, variant)
        outcome = WP.outcome(state)
        hows.add(state["end"]["how"])
        assert outcome["scores"] == WP.scores(state)
        if state["end"]["how"] == "forfeit":
            assert outcome["winners"] == [1 - state["end"]["seat"]]
        elif outcome["scores"][0] == outcome["scores"][1]:
            assert outcome["result"] == "draw" and outcome["winners"] == []
        else:
            assert outcome["winners"] == [outcome["scores"].index(max(outcome["scores"]))]
        again = WP.replay(seed, 2, {"variant": variant}, record)
        assert WP.dumps(again) == WP.dumps(state)
        reading = WP.reading(state)
        assert reading["complete"] and json.loads(json.dumps(reading)) == reading
        assert reading["story"][-1] == outcome["reason"]
    assert "stuck" in hows

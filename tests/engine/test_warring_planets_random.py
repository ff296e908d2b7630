"""Warring Planets played by random rivals over many seeds: every game ends, the 78 cards
are conserved after every move, a replay of the record is byte-identical, no view ever
shows what its seat may not know, and moves off the legal list are refused."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import IllegalMove, get_rules
from games.engine.base import check_zones
from games.engine.cards import DECK, is_card, label

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


def public_cards(state: dict) -> set[str]:
    seen = set(state["out"]) | set(state["raised"]) | set(state["discard"])
    for p in state["planes"]:
        for col in p:
            seen |= set(col)
    for e in state["board"].values():
        seen |= {e["guard"]} if "guard" in e else set(e["majors"]) | set(e["minors"])
    return seen


def strings(data) -> list[str]:
    """Every string in a JSON-like value, keys included."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [k, *strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return []


def cards_named(view: dict) -> set[str]:
    """Every card a view names: by code in any field, by name in any sentence."""
    texts = strings(view)
    words = "\n".join(texts)
    return {t for t in texts if is_card(t)} | {c for c in DECK if label(c) in words}


def check_views(state: dict, seen: set[str], held: list[set[str]]) -> None:
    hidden = set(state["deck"]) | set(state["hands"][0]) | set(state["hands"][1])
    for seat in (0, 1, None):
        knows = seen | (held[seat] if seat is not None else set())
        secret = (hidden - knows) - (set(state["hands"][seat]) if seat is not None else set())
        leaked = cards_named(WP.view(state, seat)) & secret
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"


def swap_hidden(state: dict, seat: int, rnd: random.Random) -> dict | None:
    other = 1 - seat
    mine = [c for c in state["hands"][other] if c not in public_cards(state)]
    if not mine or not state["deck"]:
        return None
    twin = json.loads(json.dumps(state))
    a, b = rnd.choice(mine), rnd.choice(twin["deck"])
    twin["hands"][other][twin["hands"][other].index(a)] = b
    twin["deck"][twin["deck"].index(b)] = a
    rnd.shuffle(twin["deck"])
    return twin


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
    seen = public_cards(state)
    held = [set(state["hands"][0]), set(state["hands"][1])]
    for step in range(MOVE_CAP):
        check_zones(WP.zones(state), DECK)
        seen |= public_cards(state)
        held[0] |= set(state["hands"][0])
        held[1] |= set(state["hands"][1])
        check_views(state, seen, held)
        seats = WP.to_act(state)
        if not seats:
            break
        assert len(seats) == 1
        seat = seats[0]
        legal = WP.legal_moves(state, seat)
        assert FORFEIT in legal and len(legal) > 1
        assert WP.legal_moves(state, 1 - seat) == [FORFEIT]
        if step % 7 == 0:
            assert all(WP.describe_move(state, seat, m) for m in legal)
            before = WP.dumps(state)
            for bad in bad_moves(legal, rnd):
                with pytest.raises(IllegalMove):
                    WP.apply(state, seat, bad)
            with pytest.raises(IllegalMove):
                WP.apply(state, 1 - seat, legal[0])
            assert WP.dumps(state) == before
            for watcher in (0, 1):
                twin = swap_hidden(state, watcher, rnd)
                if twin is not None:
                    assert WP.view(twin, watcher) == WP.view(state, watcher)
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

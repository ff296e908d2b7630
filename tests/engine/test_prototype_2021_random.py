"""The three 2021 prototype games played by random players through the contract alone,
over many seeds and every variation: every game ends, every card is in exactly one zone
after every move, ``dumps`` is lossless and a replay of the record is byte-identical, no
view names a card its seat may not know (another hand, the deck), and the bots'
determinizations match what the seat sees."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import IllegalMove, get_rules
from games.engine.base import check_zones
from games.engine.cards import DECK

from .conftest import cards_named
from .starfield_support import Knowledge, check_moves_and_secrecy, check_views

MOVE_CAP = 3000
CASES = [("know_thyself_2021", v) for v in ("standard", "easy", "expert", "freethought", ["easy", "expert"])]
CASES += [(slug, v) for slug in ("lovers_discourse_2021", "warring_planets_2021") for v in ("standard", "easy")]


def choose(rnd: random.Random, legal: list[dict]) -> dict:
    kept = [m for m in legal if m["type"] != "forfeit"] or legal
    # Onto a Major first half the time, so games reach their ends by resolving too.
    onto = [m for m in kept if m["type"] in ("place", "play") and "to" in m and not m["card"].startswith("M")]
    if onto and rnd.random() < 0.5:
        return rnd.choice(onto)
    return rnd.choice(kept)


def check_solo_view(rules, state: dict) -> None:
    zones = rules.zones(state)
    hidden_from_all = set(zones["deck"])
    assert not cards_named(rules.view(state, 0)) & hidden_from_all
    assert not cards_named(rules.view(state, None)) & (hidden_from_all | set(zones["hand:0"]))


def play_one(rules, seed: int, variant) -> tuple[dict, list]:
    rnd = random.Random(seed)
    state = rules.new_game(seed, rules.min_players, {"variant": variant})
    record = []
    knows = Knowledge(rules) if rules.min_players == 2 else None
    for step in range(MOVE_CAP):
        check_zones(rules.zones(state), DECK)
        assert rules.loads(rules.dumps(state)) == state
        if knows:
            check_views(rules, state, knows)
        else:
            check_solo_view(rules, state)
        seats = rules.to_act(state)
        if not seats:
            break
        seat = seats[0]
        legal = rules.legal_moves(state, seat)
        assert legal, "a seat to act always has a move"
        if knows and step % 9 == 0:
            check_moves_and_secrecy(rules, state, seat, legal, [{"type": "play", "card": "M5", "column": 2}]
                                    if {"type": "play", "card": "M5", "column": 2} not in legal else [], rnd)
        if step % 11 == 0:
            world = rules.determinize(rules.view(state, seat), seat, rnd)
            assert sorted(c for cards in rules.zones(world).values() for c in cards) == sorted(DECK)
            assert rules.legal_moves(world, seat) == legal
        move = choose(rnd, legal)
        record.append((seat, move))
        state = rules.apply(state, seat, move)
    else:
        raise AssertionError(f"seed {seed} did not end within {MOVE_CAP} moves")
    return state, record


@pytest.mark.parametrize("slug,variant", CASES, ids=lambda v: v if isinstance(v, str) else "+".join(v))
def test_random_games_end_conserve_cards_replay_exactly_and_never_peek(slug, variant):
    rules = get_rules(slug)
    results = set()
    for seed in range(12):
        state, record = play_one(rules, seed, variant)
        outcome = rules.outcome(state)
        assert outcome["result"] in ("win", "loss", "draw", "ended") and outcome["reason"]
        results.add(outcome["result"])
        again = rules.replay(seed, rules.min_players, {"variant": variant}, record)
        assert rules.dumps(again) == rules.dumps(state)
        reading = rules.reading(state)
        assert reading["complete"] and json.loads(json.dumps(reading)) == reading
        assert reading["game"] == slug and reading["edition"] == "2021"
        with pytest.raises(IllegalMove, match="over"):
            rules.apply(state, 0, record[-1][1])
    assert results


def test_a_freethought_game_can_be_won_and_its_reading_is_tainted():
    rules = get_rules("know_thyself_2021")
    wins = []
    for seed in range(40):
        state, _ = play_one(rules, seed, "freethought")
        if rules.outcome(state)["result"] == "win":
            wins.append(state)
    assert wins
    assert all(rules.reading(s)["tainted"] for s in wins)

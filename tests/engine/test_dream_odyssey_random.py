"""Dream Odyssey under random play, over hundreds of seeds.

Two players drive the games: one picks uniformly among ``legal_moves`` (the contract's
random player, who loses fast), the other picks at random among sensible moves (answer a
card with a pip that beats it, climb toward the Crown), so long journeys, victories and
late-game powers are exercised too.  Every step proves: the 78 cards each in one zone, no
view holding a hidden card, a bounded and non-empty move list; every game ends, and its
seed and moves replay to byte-identical text.
"""

from __future__ import annotations

import random

import pytest

from games.engine import IllegalMove
from games.engine.base import check_zones
from games.engine.cards import DECK, value
from games.engine.tree import LAYOUT

from .dream_odyssey_support import DO, hidden_codes, shown_codes

MOVE_CAP = 2_000  # far above any game seen; reaching it would mean a game that never ends
MOVES_BOUND = 200  # legal_moves stays a short menu


def uniform(state: dict, rnd: random.Random) -> dict:
    return rnd.choice(DO.legal_moves(state, 0))


def sensible(state: dict, rnd: random.Random) -> dict:
    """A random player with some sense; always returns one of the legal moves."""
    moves = DO.legal_moves(state, 0)
    phase = state["phase"]
    if phase == "travel" and rnd.random() < 0.8:
        trips = [m for m in moves if m["type"] == "travel"]
        fresh = [m for m in trips if not state["spaces"][m["to"]]["won"]] or trips
        highest = min(LAYOUT[m["to"]][1] for m in fresh)
        return rnd.choice([m for m in fresh if LAYOUT[m["to"]][1] == highest])
    if phase == "encounter":
        slots = state["encounter"]["slots"]

        def against(m):
            return slots[int(m["to"].split(":")[1])]

        winning = [m for m in moves if m["type"] == "play"
                   and value(m["card"]) >= value(against(m)["card"])]
        if winning and rnd.random() < 0.9:
            return min(winning, key=lambda m: value(m["card"]))
        helping = [m for m in moves if m["type"] == "augment"
                   and DO._strength(state, against(m)) < value(against(m)["card"])]
        helping += [m for m in moves if m["type"] == "defeat"]
        if helping:
            return rnd.choice(helping)
        if rnd.random() < 0.5:
            used = [m for m in moves if m["type"] == "power"]
            if used:
                return rnd.choice(used)
        plays = [m for m in moves if m["type"] == "play"]
        return rnd.choice(plays or moves)
    if phase == "guard":
        return rnd.choice(moves) if rnd.random() < 0.3 else {"type": "power", "card": "M11"}
    return rnd.choice(moves)


def assert_sound(state: dict) -> None:
    check_zones(DO.zones(state), DECK)
    for seat in (0, None):
        leaked = shown_codes(state, seat) & hidden_codes(state, seat)
        assert not leaked, f"view({seat}) shows hidden {sorted(leaked)} in phase {state['phase']}"


def run(seed: int, player, check_every_step: bool = True):
    state = DO.new_game(seed, 1, {})
    rnd = random.Random(seed)
    record = []
    while DO.outcome(state) is None:
        assert len(record) < MOVE_CAP, f"seed {seed} did not end"
        moves = DO.legal_moves(state, 0)
        assert 0 < len(moves) <= MOVES_BOUND, (seed, state["phase"], len(moves))
        move = player(state, rnd)
        record.append((0, move))
        state = DO.apply(state, 0, move)
        if check_every_step:
            assert_sound(state)
    return state, record


# Uniform random games lose within a few dozen moves, alike from one seed to the next: 600
# of them, checked at every step, in two blocks the workers share (the 3,000 they once were
# made four of the suite's slowest tests).
BLOCKS, BLOCK = 2, 300


@pytest.mark.parametrize("block", range(BLOCKS))
def test_uniform_random_games_end_conserve_cards_hide_cards_and_replay(block):
    for seed in range(block * BLOCK, (block + 1) * BLOCK):
        state, record = run(seed, uniform)
        assert DO.outcome(state)["result"] in ("win", "loss")
        assert DO.to_act(state) == [] and DO.legal_moves(state, 0) == []
        assert DO.dumps(DO.replay(seed, 1, {}, record)) == DO.dumps(state)


def test_sensible_random_games_reach_the_crown_and_leave_a_reading():
    results = {"win": 0, "loss": 0}
    used_powers: set[str] = set()
    # 250 games: enough for 15 wins and every one of the 22 powers used (500 once).
    for seed in range(250):
        state, record = run(10_000 + seed, sensible)
        outcome = DO.outcome(state)
        results[outcome["result"]] += 1
        used_powers |= {m["card"] for _, m in record if m["type"] == "power"}
        reading = DO.reading(state)
        assert reading["complete"] and reading["cards"][0] == state["world"]["crown"]
        assert reading["majors_gained"][0]["from"] == "start"
        if outcome["result"] == "win":
            assert state["spaces"]["crown"]["won"] and outcome["winners"] == [0]
            assert set(reading["crown_party"]) <= set(reading["cards"])
        if seed % 10 == 0:
            assert DO.dumps(DO.replay(10_000 + seed, 1, {}, record)) == DO.dumps(state)
    assert results["win"] >= 15, results
    assert used_powers == {f"M{n}" for n in range(22)}, sorted(used_powers)


def test_every_listed_move_applies_and_reads_as_words():
    for seed in range(100):
        state = DO.new_game(20_000 + seed, 1, {})
        rnd = random.Random(seed)
        while DO.outcome(state) is None:
            for move in DO.legal_moves(state, 0):
                after = DO.apply(state, 0, move)
                assert after["moves"] == state["moves"] + 1
                words = DO.describe_move(state, 0, move)
                assert words and "=" not in words, (move, words)
            state = DO.apply(state, 0, sensible(state, rnd))


def _mutations(state: dict, move: dict, rnd: random.Random) -> list:
    cards = list(DECK)
    places = ["encounter:0", "encounter:3", "encounter:x", "crown", "root", "sun", "deck:minors",
              "discard:minors", 7, None]
    out = [dict(move, card=rnd.choice(cards)), dict(move, to=rnd.choice(places)),
           dict(move, cards=[rnd.choice(cards)]), dict(move, type=rnd.choice(
               ["play", "power", "travel", "resolve", "keep", "place", "pass", "done", "x"])),
           {k: v for k, v in move.items() if k != rnd.choice(list(move))},
           dict(move, column=1), [move], "resolve", {"type": None}]
    return out


def test_mangled_moves_are_refused_with_words_and_change_nothing():
    refusals = 0
    # Each move of a game is mangled nine ways: 80 games is thousands of refusals (200 once).
    for seed in range(80):
        state = DO.new_game(30_000 + seed, 1, {})
        rnd = random.Random(seed)
        while DO.outcome(state) is None:
            legal = DO.legal_moves(state, 0)
            before = DO.dumps(state)
            for bad in _mutations(state, rnd.choice(legal), rnd):
                if isinstance(bad, dict) and DO.normalise_move(bad) in legal:
                    continue
                with pytest.raises(IllegalMove) as error:
                    DO.apply(state, 0, bad)
                assert str(error.value).strip()
                refusals += 1
            assert DO.dumps(state) == before
            state = DO.apply(state, 0, sensible(state, rnd))
    assert refusals > 5_000

"""The solver for finished deals (``games.solver``): what it says is true.

- Every winning line it prints, replayed move by move through the engine from the deal's
  first state, is legal and ends in a win (seeded deals of every game it settles, small
  budgets).
- A deal no line wins is reported UNWINNABLE (a stacked Know Thyself deck whose Majors all
  come after the Minors: the plane must match long before any Major can take a raised card).
- A budget too small to settle a deal gives UNDECIDED, saying which limit ran out, and the
  search reports its progress on the way.
- The canonical key of Know Thyself treats the Seeress columns as interchangeable, and the
  symmetric moves it prunes are exactly the ones that reach a position already listed.
"""

from __future__ import annotations

import pytest

from games.engine import get_rules
from games.engine.cards import MAJORS, MINORS
from games.solver import (SOLVABLE, UNDECIDED, UNWINNABLE, WINNABLE, Progress, Result, iter_solve,
                          replay, solve)
from games.solver.keys import key_function, prune_function

# Deals per game, and the states each may search: enough to settle some deals of every
# game quickly, small enough for a test.
SEEDS = range(3)
BUDGET = 8_000


def first_state(slug: str, seed: int, **kwargs) -> tuple[object, dict]:
    rules = get_rules(slug)
    return rules, rules.new_game(seed, rules.min_players, {"variant": "standard"}, **kwargs)


@pytest.mark.parametrize("slug", SOLVABLE)
def test_it_replays_every_winning_line_it_prints_to_a_win(slug):
    won = 0
    for seed in SEEDS:
        rules, first = first_state(slug, seed)
        # Small slices: the depth-first search and the beams both take turns.
        result = solve(rules, first, max_nodes=BUDGET, max_seconds=None, slice_nodes=2_000)
        assert result.verdict in (WINNABLE, UNWINNABLE, UNDECIDED)
        if result.verdict != WINNABLE:
            assert result.line is None
            continue
        won += 1
        end = replay(rules, first, result.line)  # the engine checks every move
        assert rules.outcome(end)["result"] == "win"
    if slug in ("know_thyself", "dream_odyssey"):
        assert won, f"no deal of {slug} settled as winnable within {BUDGET} states"


def test_it_finds_the_winning_line_of_a_know_thyself_deal_the_first_state_never_shows():
    rules, first = first_state("know_thyself", 0)
    result = solve(rules, first, max_nodes=BUDGET, max_seconds=None)
    assert result.verdict == WINNABLE
    assert len(result.line) > 50  # a whole game, move by move
    assert rules.outcome(replay(rules, first, result.line))["result"] == "win"


def test_it_proves_a_deal_no_line_wins_unwinnable():
    # Every Minor before any Major: within a few turns two cards of one suit share a row or
    # a column and rise, with no Major on the tree to take them; the four Grace Fields fill
    # and the next raised card loses.  The search must try every order to say so.
    rules, first = first_state("know_thyself", 1, deck=list(MINORS) + list(MAJORS))
    result = solve(rules, first, max_nodes=BUDGET, max_seconds=None)
    assert result.verdict == UNWINNABLE
    assert result.line is None
    assert result.nodes > 100  # a search, not a glance


def test_it_calls_a_state_already_lost_unwinnable_at_once():
    rules, first = first_state("know_thyself", 1, deck=list(MINORS) + list(MAJORS))
    state = first
    while rules.outcome(state) is None:
        state = rules.apply(state, 0, rules.legal_moves(state, 0)[0])
    assert solve(rules, state).verdict == UNWINNABLE


def test_it_leaves_a_deal_undecided_when_the_node_budget_runs_out():
    rules, first = first_state("know_thyself", 3)
    result = solve(rules, first, max_nodes=2_000, max_seconds=None)
    assert result.verdict == UNDECIDED
    assert result.limit == "nodes"
    assert result.line is None
    assert 2_000 <= result.nodes < 2_000 + 1_000  # checked every CHECK_EVERY states


def test_it_leaves_a_deal_undecided_when_the_time_runs_out():
    rules, first = first_state("know_thyself", 3)
    result = solve(rules, first, max_nodes=None, max_seconds=0.05)
    assert result.verdict == UNDECIDED
    assert result.limit == "time"


def test_it_reports_its_progress_while_it_searches():
    rules, first = first_state("know_thyself", 3)
    seen = []
    result = solve(rules, first, max_nodes=6_000, max_seconds=None, every=1_000, on_progress=seen.append)
    assert result.verdict == UNDECIDED
    assert len(seen) >= 4
    assert all(isinstance(p, Progress) for p in seen)
    assert [p.nodes for p in seen] == sorted(p.nodes for p in seen)
    # The generator form yields the same snapshots, then the result last.
    items = list(iter_solve(rules, first, max_nodes=6_000, max_seconds=None, every=1_000))
    assert isinstance(items[-1], Result) and items[-1].nodes == result.nodes
    assert [p.nodes for p in items[:-1]] == [p.nodes for p in seen]


def test_it_sees_know_thyself_columns_as_interchangeable():
    rules, first = first_state("know_thyself", 5)
    key = key_function("know_thyself")
    plane = [["3c"], [], ["Kp", "2s"]]
    swapped = [plane[2], plane[0], plane[1]]
    assert key({**first, "plane": plane}) == key({**first, "plane": swapped})
    assert key({**first, "plane": plane}) != key({**first, "plane": [["3c", "Kp"], [], ["2s"]]})


def test_it_prunes_only_moves_that_reach_a_position_already_listed():
    rules, first = first_state("know_thyself", 5)
    key = key_function("know_thyself")
    moves = rules.legal_moves(first, 0)
    kept = prune_function("know_thyself")(rules, first, moves)
    assert len(kept) < len(moves)  # the three empty Seeresses are alike
    reached = {key(rules.apply(first, 0, m)) for m in kept}
    assert reached == {key(rules.apply(first, 0, m)) for m in moves}


# --- the bounds (games.solver.bounds) and the randomised restarts -----------------------------

def _place_phase_survivable(rules, state, memo) -> bool:
    """The engine's own answer, by trying every order and every place: can the raised cards
    waiting now all be placed (or the game won on the way) without losing?  A loss that
    comes after the phase (the next turn's draw) is not the phase's."""
    out = rules.outcome(state)
    if out is not None:
        return out["result"] == "win" or "was raised" not in out["reason"]
    if state["phase"] != "place":
        return True
    key = key_function("know_thyself")(state)
    if key not in memo:
        memo[key] = any(_place_phase_survivable(rules, rules.apply(state, 0, m), memo)
                        for m in rules.legal_moves(state, 0))
    return memo[key]


def test_the_know_thyself_place_bound_calls_lost_exactly_the_phases_no_order_survives():
    import random

    from games.solver.bounds import know_thyself_place_lost

    rules = get_rules("know_thyself")
    rng = random.Random(7)
    asked = lost = 0
    for seed in range(40):
        variant = ("standard", "meditative", "fated")[seed % 3]
        state = rules.new_game(seed, 1, {"variant": variant})
        while rules.outcome(state) is None:
            if state["phase"] == "place" and len(state["waiting"]) <= 4:
                asked += 1
                verdict = know_thyself_place_lost(state)
                lost += verdict
                assert verdict == (not _place_phase_survivable(rules, state, {})), (seed, state["waiting"])
            state = rules.apply(state, 0, rng.choice(rules.legal_moves(state, 0)))
    assert asked > 200 and lost > 5  # both answers were put to the test


def test_the_bound_and_the_restarts_leave_every_exhaustive_verdict_as_it_was():
    # Positions off the winning lines of three Know Thyself deals, near their ends (the
    # deck nearly drawn, the tree nearly complete: where the bound's win-drops-the-rest
    # case lives), each searched to the end both ways: plainly (no bound, no restarts)
    # and as the solver searches; the verdicts must agree, and every line must win.
    rules = get_rules("know_thyself")
    compared = {WINNABLE: 0, UNWINNABLE: 0}
    cut = 0
    for seed in (0, 2, 6):
        first = rules.new_game(seed, 1, {"variant": "standard"})
        line = solve(rules, first, max_nodes=30_000, max_seconds=None, bounds=False, diversify=False).line
        states = [first]
        for move in line:
            states.append(rules.apply(states[-1], 0, move))
        for back in range(3, 40, 4):
            for move in rules.legal_moves(states[-back], 0)[:3]:
                start = rules.apply(states[-back], 0, move)
                plain = solve(rules, start, max_nodes=30_000, max_seconds=None, bounds=False, diversify=False)
                if plain.verdict == UNDECIDED:
                    continue
                pruned = solve(rules, start, max_nodes=None, max_seconds=None, slice_nodes=500)
                assert pruned.verdict == plain.verdict, (seed, back, move)
                if pruned.verdict == WINNABLE:
                    assert rules.outcome(replay(rules, start, pruned.line))["result"] == "win"
                compared[plain.verdict] += 1
                cut += pruned.stats.get("cut", 0)
    assert compared[UNWINNABLE] >= 10 and compared[WINNABLE] >= 50
    assert cut > 0  # the bound was put to work

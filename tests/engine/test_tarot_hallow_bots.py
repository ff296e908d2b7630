"""Computer players at Tarot Hallow tables of two to six (issue 38, item 24): whichever seat
is asked, in whatever order the seats asked at once answer, a bot of every level answers
with a legal move of its own seat, to the end of the game.

The site asks a computer seat as soon as it is to act, not only when it is the first seat
listed: in a round played face down, a bot at seat 2 chooses while seats 0 and 1 still
have to play.  The search levels once applied their own cards to the first listed seat
("The 4 of Wands is not in your hand"), and the worker's task failed at every retry.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.bots import LEVELS, choose_move, core
from games.engine.cards import DECK
from games.engine.base import check_zones

from .tarot_hallow_support import TH

MOVE_CAP = 3000
# The search levels' iterations for this test: a few walk every line of the search (its
# root, a node added, one chosen by UCB, a playout) at a hundredth of the site's cost.
SMALL_BUDGETS = {"ismcts": 3, "ismcts_deep": 5}


def same_moves(a: list[dict], b: list[dict]) -> bool:
    return sorted(map(repr, a)) == sorted(map(repr, b))


def bots_play_to_the_end(seed: int, levels: list[str]) -> dict:
    """A table of ``len(levels)`` bots played to its end, the seats asked at once
    answering in a seeded random order as they do on the site; every bot's answer is
    checked against its seat's legal moves before it is applied."""
    order = random.Random(seed)
    state = TH.new_game(seed, len(levels))
    for version in range(MOVE_CAP):
        asked = TH.to_act(state)
        if not asked:
            return state
        seat = order.choice(asked)
        view, legal = TH.view(state, seat), TH.legal_moves(state, seat)
        # What the search builds its worlds from gives the seat the same choices.
        world = TH.determinize(view, seat, random.Random(version))
        check_zones(TH.zones(world), DECK)
        assert TH.to_act(world) == asked and same_moves(TH.legal_moves(world, seat), legal)
        move = choose_move(TH, view, legal, seat, levels[seat], seed=seed * 1_000_003 + version)
        assert move in legal, f"seat {seat} ({levels[seat]}) answered {move} at move {version}"
        state = TH.apply(state, seat, move)
    raise AssertionError(f"seed {seed} did not end")


# Each level at a seat other than the first, at every size of table.
EVERY_LEVEL = [[LEVELS[(s + k) % len(LEVELS)] for s in range(n)] for n, k in
               ((2, 1), (2, 3), (3, 2), (4, 0), (4, 1), (5, 3), (6, 2))]


# The explicit examples put every level at a seat other than the first at every size of
# table, and keep the stalled table that found the fault; a few drawn tables more vary the
# order the seats are asked in.  25 drawn tables (33 games in all) made this one of the
# suite's slowest tests for little: each game asks every seat's bot at every move.
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31 - 1),
       levels=st.integers(2, 6).flatmap(lambda n: st.lists(st.sampled_from(LEVELS), min_size=n, max_size=n)))
@example(seed=0, levels=["random", "random", "ismcts"])  # the stalled table: seat 2 asked first
@example(seed=1, levels=EVERY_LEVEL[0])
@example(seed=2, levels=EVERY_LEVEL[1])
@example(seed=3, levels=EVERY_LEVEL[2])
@example(seed=4, levels=EVERY_LEVEL[3])
@example(seed=5, levels=EVERY_LEVEL[4])
@example(seed=6, levels=EVERY_LEVEL[5])
@example(seed=7, levels=EVERY_LEVEL[6])
def test_a_bot_of_every_level_answers_a_legal_move_of_its_seat_to_the_end(seed, levels):
    with pytest.MonkeyPatch.context() as patch:
        for level, budget in SMALL_BUDGETS.items():
            patch.setitem(core.BUDGETS, level, budget)
        state = bots_play_to_the_end(seed, levels)
    assert TH.outcome(state) is not None


def test_a_searching_bot_asked_before_the_seats_listed_first_plays_its_own_card():
    """The stalled table at the site's own budget: three seats, nobody has played yet,
    the bot at the last seat is asked first."""
    state = TH.new_game(0, 3)
    for level in ("greedy", "ismcts", "ismcts_deep"):
        legal = TH.legal_moves(state, 2)
        assert choose_move(TH, TH.view(state, 2), legal, 2, level, seed=1) in legal

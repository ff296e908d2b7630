"""Positions the solver may call lost without searching them, per game.

A *bound* reads a state and says True only when no line from it can win: the search then
treats the state as a lost end (as it does a state whose ``outcome`` is a loss), and skips
its whole subtree.  A bound that said True of a position some line wins would make the
solver print a wrong "No line wins this deal", so each bound below states the argument
that makes it a proof, and tests/engine/test_solver.py checks it against the engine's own
moves, exhaustively, on every state it is asked about.

Know Thyself: the raised cards waiting for a place.  Where the search spends most of its
work in Know Thyself is the placing of raised cards ("place" phase): k cards, each on any
unresolved Sefira it fits or, fitting none, on an empty Grace Field, in any order, and a
loss as soon as one fits nowhere with every Grace Field taken.  The depth-first search
proves such a phase lost by trying every order and every Sefira for each card (k! orders
or more), and this happens below every earlier choice of the game.  The bound decides it
at once, from the numbers alone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from games.engine.cards import VALUES
from games.engine.tree import SEFIRA

Bound = Callable[[dict], bool]
_SEFIRA = frozenset(SEFIRA)


def know_thyself_place_lost(state: dict) -> bool:
    """In the "place" phase: True when no way of placing the waiting cards avoids a loss.

    Why this is exact.  A placing phase ends in one assignment: each waiting card on a
    Sefira (the Minors put on one Sefira total at most what its Major had left to fill:
    a card goes on only while it fits, and rooms only shrink) or on an empty Grace Field
    (allowed only while the card fits no Sefira).  Any order that reaches an assignment
    can be rearranged to put every Sefira placement first and the Grace Fields last: the
    Sefira placements stay legal in any order (only their totals matter), and a card that
    fitted nowhere when it went to a Grace Field still fits nowhere once more cards sit on
    the tree (rooms only shrink).  So the phase can be survived exactly when some
    assignment of the cards to rooms (within each room's total) leaves the rest, at most
    as many as the empty Grace Fields, each too big for every room left; or when some of
    the cards, placed first, resolve every slot of a complete tree (the win, which drops
    the cards still waiting: the first version of this bound forgot it and called won
    positions lost; the exhaustive comparison test caught it).  This function searches those assignments (a handful of cards and
    rooms), so it is the engine's own verdict on the phase, found without its k! orders.
    """
    if state["phase"] != "place":
        return False
    tree = state["tree"]
    rooms = []
    for slot in tree.values():
        if not slot["resolved"]:
            rooms.append(-1 if slot["room"] is None else slot["room"])  # -1: a Fool, any one card
    complete = _SEFIRA <= tree.keys()
    free_grace = sum(1 for g in state["grace"] if g is None)
    values = tuple(sorted((VALUES[c] for c in state["waiting"]), reverse=True))
    return not _survivable(values, tuple(sorted(rooms)), free_grace, complete)


@lru_cache(maxsize=200_000)
def _survivable(values: tuple[int, ...], rooms: tuple[int, ...], free_grace: int, complete: bool) -> bool:
    """Whether the cards ``values`` (largest first) can all be put on ``rooms`` (what each
    unresolved slot still takes, -1 for a Fool taking one card of any value) or on the
    ``free_grace`` Grace Fields, each card sent to a Grace Field fitting no room at the
    end, or else a complete tree's every slot resolved on the way (a win, which drops the
    cards still waiting, whatever their size: so on a complete tree a card may also be
    left out, if the others then win)."""
    return _assign(values, 0, rooms, free_grace, 99, complete, False)


@lru_cache(maxsize=200_000)
def _assign(values, i, rooms, grace_left, smallest_graced, complete, dropped) -> bool:
    if complete and not rooms:
        return True  # every slot resolved: the game is won, the rest no longer matter
    if i == len(values):
        if dropped:
            return False  # a card left waiting, and no win to drop it
        # Each card sent to a Grace Field must fit no room left; the smallest of them
        # decides.  A Fool's room (-1) takes any card.
        return all(r != -1 and r < smallest_graced for r in rooms)
    v = values[i]
    tried = set()
    for j, r in enumerate(rooms):
        if r in tried:
            continue  # two rooms with the same amount left are alike
        tried.add(r)
        if r == -1 or v <= r:
            left = 0 if r == -1 else r - v
            rest = rooms[:j] + rooms[j + 1:]
            if left:
                rest = tuple(sorted(rest + (left,)))
            if _assign(values, i + 1, rest, grace_left, smallest_graced, complete, dropped):
                return True
    if grace_left and _assign(values, i + 1, rooms, grace_left - 1, min(smallest_graced, v), complete, dropped):
        return True
    # On a complete tree the card may also still be waiting when the others' placings win
    # the game (the win drops it).
    return complete and _assign(values, i + 1, rooms, grace_left, smallest_graced, complete, True)


BOUNDS: dict[str, Bound] = {"know_thyself": know_thyself_place_lost}


def bound_function(slug: str) -> Bound | None:
    return BOUNDS.get(slug)

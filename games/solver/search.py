"""The search itself: depth-first over the engine's own states, in the manner of
Solvitaire (Blake and Gent, "The Winnability of Klondike Solitaire and Many Other Patience
Games").

A finished deal is a reachability question with every card's place known: is some state
whose ``outcome`` is a win reachable from the deal's first state by legal moves?  The
search walks ``legal_moves``/``apply`` (the engine stays the single source of truth, so
what the solver finds is a line the engine accepts), and keeps:

- a transposition table: every state met is remembered by its *key* (``games.solver.keys``),
  a canonical encoding of what matters for the rest of the game only (no log, no move
  counter; hands as sets, symmetric parts sorted), so a position reached again by another
  order of moves, or by a symmetric move, is searched once.  Marking a state when it is
  generated (not when it is proved lost) is plain graph search, sound for reachability
  even where the game can come back to an earlier position (Dream Odyssey's travel);
- per-game pruning of moves that lead to the same position as a sibling (``keys.prune``),
  kept small and documented beside each game;
- move ordering by the game's own heuristic (``games.solver.order``): the children of a
  state are searched best first, so a winnable deal is usually settled long before the
  budget runs out;
- per-game bounds (``games.solver.bounds``): a state a game's bound proves lost is not
  searched at all (a lost end, as a state whose ``outcome`` is a loss);
- a node budget and a CPU-time limit: when either runs out the answer is UNDECIDED.

An exhaustive search that finds no win proves the deal UNWINNABLE.  Keys are stored as
Python's 64-bit hashes of the canonical encoding, to hold millions of states in memory:
two different positions with one hash (odds about n²/2⁶⁵, under 10⁻⁷ for a million
states) would make the search skip one, which can only turn a WINNABLE into a wrong
UNWINNABLE, never print a line that does not win; every printed line is replayed through
the engine by the tests.
"""

from __future__ import annotations

import heapq
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from . import bounds as game_bounds
from . import keys as game_keys
from . import order as game_order

WINNABLE = "winnable"
UNWINNABLE = "unwinnable"
UNDECIDED = "undecided"

# How often (in nodes) the clock is read and progress is reported.
CHECK_EVERY = 512


@dataclass
class Progress:
    """A snapshot while the search runs: how many states were generated, in how long."""
    nodes: int
    seconds: float
    depth: int


@dataclass
class Result:
    """The verdict on one deal.

    ``line`` (WINNABLE only) is the winning line from the deal's first state: the moves
    in order, each made by the one seat ``to_act`` names at that point.  ``nodes`` counts
    the states generated (one ``apply`` each), ``seconds`` the CPU time spent, ``limit``
    what stopped an UNDECIDED search ("nodes" or "time").
    """
    verdict: str
    line: list[dict] | None = None
    nodes: int = 0
    seconds: float = 0.0
    limit: str | None = None
    max_depth: int = 0
    stats: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"verdict": self.verdict, "line": self.line, "nodes": self.nodes,
                "seconds": round(self.seconds, 3), "limit": self.limit, "max_depth": self.max_depth}


def _is_win(rules, state) -> bool:
    out = rules.outcome(state)
    return out is not None and out["result"] == "win"


# The beams' widths, tried in turn (see ``iter_solve``), and how many states each search
# generates before the other takes its turn.
BEAM_WIDTHS = (64, 512, 4096, 16384)
SLICE = 20_000
# The randomised restarts' unit budget (states) and how often a run tries a random child
# first (see ``iter_solve``'s ``restarts``).
RESTART_NODES = 4_000
RESTART_NOISE = 0.05


def _luby(i: int) -> int:
    """The i-th term (from 1) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if i == (1 << k) - 1:
        return 1 << (k - 1)
    return _luby(i - (1 << (k - 1)) + 1)
_TICK = object()  # what a search yields to hand control back to the driver
_EXHAUSTED = "exhausted"


def iter_solve(rules, state: dict, *, max_nodes: int | None = 1_000_000,
               max_seconds: float | None = 30.0, every: int = 20_000,
               slice_nodes: int = SLICE, bounds: bool = True,
               diversify: bool = True) -> Iterator[Progress | Result]:
    """Search ``state`` (the deal's first state, or any state of it) for a winning line.

    Yields a ``Progress`` every ``every`` nodes (a worker reports it while the search
    runs), and ends by yielding the ``Result``.  ``max_nodes``/``max_seconds`` bound the
    search (None: no bound); time is this process's CPU time, so a shared machine does not
    shorten the search.

    Two searches take turns, ``slice_nodes`` states each, until one settles the deal:

    - the exhaustive depth-first search with the transposition table: the proof of an
      unwinnable deal, and the quickest win when the game's ordering is right from the
      start;
    - beam searches of growing width (``BEAM_WIDTHS``): level by level, only the best
      ``width`` states by the game's rank are kept.  A depth-first search commits to its
      first choices and can spend its whole budget below a bad early move (the last
      twenty moves of a Know Thyself game searched again and again under a fifth move that
      already lost the deal); a beam keeps many early choices open at once and finds
      most winning lines far sooner.  A beam that never had to drop a state was a
      complete breadth-first search: if it ends without a win, that is a proof too;
    - randomised restarts (``restarts`` below; ``diversify=False`` leaves them out).

    ``bounds=False`` leaves the games' bounds out (``bench/solver.py --compare`` sets the
    search without both against the search with them).
    """
    clock = time.process_time
    start = clock()
    key_of = game_keys.key_function(rules.slug)
    prune = game_keys.prune_function(rules.slug)
    rank = game_order.rank_function(rules)
    bound = game_bounds.bound_function(rules.slug) if bounds else None
    cut = [0]  # states the bound proved lost

    if _is_win(rules, state):
        yield Result(WINNABLE, [], 0, 0.0)
        return
    if rules.outcome(state) is not None or (bound is not None and bound(state)):
        yield Result(UNWINNABLE, None, 0, 0.0)
        return

    nodes = 0
    max_depth = 0
    tick_at = CHECK_EVERY  # the searches yield _TICK once nodes pass it

    def expand(parent: dict, seen: set[int]):
        """The parent's unseen children as (rank, move, state), or (move, None) for a
        winning move, which ends the search at once."""
        nonlocal nodes
        seat = rules.to_act(parent)[0]
        found = []
        for move in prune(rules, parent, rules.legal_moves(parent, seat)):
            child = rules.apply(parent, seat, move)
            nodes += 1
            out = rules.outcome(child)
            if out is not None:
                if out["result"] == "win":
                    return move, None
                continue  # a lost end: nothing to search
            h = hash(key_of(child))
            if h in seen:
                continue
            seen.add(h)
            if bound is not None and bound(child):
                cut[0] += 1
                continue  # proved lost by the game's bound (``bounds``): nothing to search
            found.append((rank(child), move, child))
        return None, found

    def unwind(tail) -> list[dict]:
        line = []
        while tail is not None:
            tail, move = tail
            line.append(move)
        line.reverse()
        return line

    def beams():
        """Beam searches of growing width; the last item is the winning line, _EXHAUSTED
        (a proof: one beam never dropped a state) or None (no beam found a win)."""
        nonlocal max_depth
        for width in BEAM_WIDTHS:
            seen = {hash(key_of(state))}
            level = [(state, None)]  # (state, its line as a linked list (parent, move))
            dropped = False
            depth = 0
            made = 0
            while level:
                depth += 1
                max_depth = max(max_depth, depth)
                # The best ``width`` children, kept in a heap as they come (worst on top),
                # so a wide beam never holds every child of its level at once.
                following: list = []
                for parent, tail in level:
                    winning, kids = expand(parent, seen)
                    if winning is not None:
                        found_by.append(f"beam {width}")
                        yield unwind((tail, winning))
                        return
                    for r, move, child in kids:
                        made += 1
                        item = (r, -made, (tail, move), child)  # ties: the first made wins
                        if len(following) < width:
                            heapq.heappush(following, item)
                        else:
                            dropped = True
                            if item > following[0]:
                                heapq.heapreplace(following, item)
                    if nodes >= tick_at:
                        yield _TICK
                level = [(child, tail) for _, _, tail, child in following]
            if not dropped:
                yield _EXHAUSTED
                return
        yield None

    def walk(ordered, limit=None, label=None):
        """Depth first from the deal, children in the order ``ordered(parent)`` gives (or
        the winning move it found), until the tree is exhausted or ``nodes`` reaches
        ``limit``: yields _TICK now and then and the winning line if found (``label``, if
        given, recorded in found_by first); returns whether it found one."""
        nonlocal max_depth
        path: list[dict] = []
        winning, kids = ordered(state)
        if winning is not None:
            if label:
                found_by.append(label)
            yield [winning]
            return True
        stack = [kids]
        while stack and (limit is None or nodes < limit):
            todo = stack[-1]
            if not todo:
                stack.pop()
                if path:
                    path.pop()
                continue
            move, child = todo.pop()
            path.append(move)
            winning, kids = ordered(child)
            if winning is not None:
                if label:
                    found_by.append(label)
                yield path + [winning]
                return True
            stack.append(kids)
            if len(stack) > max_depth:
                max_depth = len(stack)
            if nodes >= tick_at:
                yield _TICK
        return False

    def depth_first():
        """The exhaustive search; the last item is the winning line or _EXHAUSTED."""
        seen = {hash(key_of(state))}

        def ordered(parent):
            winning, kids = expand(parent, seen)
            if winning is not None:
                return winning, None
            # Best first, ties in the engine's own order of moves (Hermit's Arcana lists
            # exalts first, say): sorted worst first, as the best is popped from the end.
            order = sorted(range(len(kids)), key=lambda i: (kids[i][0], -i))
            return None, [kids[i][1:] for i in order]

        if not (yield from walk(ordered)):
            yield _EXHAUSTED

    def restarts():
        """Short depth-first searches, each with its own table, ties between equally ranked
        children broken at random and, now and then, a child picked at random first; the
        budget of the i-th is RESTART_NODES times the i-th term of Luby's sequence (1, 1, 2,
        1, 1, 2, 4, ...).  The time a depth-first search takes to find a win depends wildly
        on the order it tries equal children in (Know Thyself's deal 4: unsettled in 30 s
        with the engine's order of ties, won in 6 s with the reverse), the heavy tail that
        randomised restarts cut (Gomes, Selman and Kautz 1998).  It never proves a deal
        lost (each run is cut short); its last item is the winning line."""
        run = 0
        while True:
            run += 1
            rng = random.Random(run)
            limit = nodes + RESTART_NODES * _luby(run)
            seen = {hash(key_of(state))}

            def ordered(parent):
                winning, kids = expand(parent, seen)
                if winning is not None:
                    return winning, None
                keyed = [(r, rng.random(), move, child) for r, move, child in kids]
                keyed.sort(key=lambda k: k[:2])
                if len(keyed) > 1 and rng.random() < RESTART_NOISE:
                    keyed.append(keyed.pop(rng.randrange(len(keyed) - 1)))
                return None, [k[2:] for k in keyed]

            if (yield from walk(ordered, limit, "restarts")):
                return

    found_by: list[str] = []  # which search settled the deal, for the bench's stats
    searches = [depth_first(), beams()] + ([restarts()] if diversify else [])
    turn = 0
    slice_end = slice_nodes
    next_report = every
    while True:
        search = searches[turn % len(searches)]
        item = next(search)
        if item is _TICK:
            tick_at = nodes + CHECK_EVERY
            elapsed = clock() - start
            if max_nodes is not None and nodes >= max_nodes:
                yield Result(UNDECIDED, None, nodes, elapsed, "nodes", max_depth, stats={"cut": cut[0]})
                return
            if max_seconds is not None and elapsed >= max_seconds:
                yield Result(UNDECIDED, None, nodes, elapsed, "time", max_depth, stats={"cut": cut[0]})
                return
            if nodes >= next_report:
                next_report = nodes + every
                yield Progress(nodes, elapsed, max_depth)
            if nodes >= slice_end:
                slice_end = nodes + slice_nodes
                turn += 1
        elif isinstance(item, list):
            yield Result(WINNABLE, item, nodes, clock() - start, max_depth=max_depth,
                         stats={"found_by": found_by[0] if found_by else "depth-first", "cut": cut[0]})
            return
        elif item == _EXHAUSTED:
            yield Result(UNWINNABLE, None, nodes, clock() - start, max_depth=max_depth, stats={"cut": cut[0]})
            return
        else:  # the beams are done without a win: the depth-first search goes on alone
            searches.remove(search)


def solve(rules, state: dict, *, max_nodes: int | None = 1_000_000, max_seconds: float | None = 30.0,
          on_progress: Callable[[Progress], None] | None = None, every: int = 20_000,
          slice_nodes: int = SLICE, bounds: bool = True,
          diversify: bool = True) -> Result:
    """``iter_solve`` run to its end: the Result, with ``on_progress`` called on the way."""
    for item in iter_solve(rules, state, max_nodes=max_nodes, max_seconds=max_seconds, every=every,
                           slice_nodes=slice_nodes, bounds=bounds, diversify=diversify):
        if isinstance(item, Result):
            return item
        if on_progress is not None:
            on_progress(item)
    raise AssertionError("the search ended without a result")

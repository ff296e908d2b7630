"""A solver for finished deals: with every card's place known, can the deal be won?

Once a solo game (or a Lovers' Discourse pair's game, both hands then known) is over, its
whole deal is known: the deck order is in the first state, and any later randomness
(Dream Odyssey's reshuffle of an empty Minors deck) is drawn from the seed and the
state's counter, so the first state determines every future.  ``solve`` searches it:

    from games.engine import get_rules
    from games.solver import solve, WINNABLE

    rules = get_rules("know_thyself")
    first = rules.new_game(seed, 1, options)          # the finished game's deal
    result = solve(rules, first, max_nodes=500_000, max_seconds=30)
    result.verdict   # "winnable" (result.line: the moves that win, from ``first``),
                     # "unwinnable" (the search was exhaustive), or
                     # "undecided" (the budget ran out: result.limit says which)

``iter_solve`` is the same search as a generator that yields ``Progress`` (nodes, CPU
seconds) on the way, for a worker that reports while it runs.

The search (``search``) is depth-first with a transposition table over canonical state
keys (``keys``), symmetric-move pruning (``keys``) and move ordering by each game's own
heuristic (``order``), in the manner of Solvitaire (Blake and Gent), taking turns with beam
searches and randomised restarts that find wins sooner; per-game bounds (``bounds``) call
a position lost without searching it where a game has one (Know Thyself's placing of raised
cards).  Pure Python over the engine's contract: no Django here.
"""

from __future__ import annotations

from .search import (UNDECIDED, UNWINNABLE, WINNABLE, Progress, Result, iter_solve, solve)

# The games the solver settles: every one-seat game, and the cooperative pair games, whose
# partners' hands are both known once the game is over.
SOLVABLE = ("know_thyself", "know_thyself_2021", "dream_odyssey", "hermits_arcana",
            "lovers_discourse", "lovers_discourse_2021")


def replay(rules, state: dict, line: list[dict]) -> dict:
    """The state ``line`` leads to from ``state``, each move made by the seat to act (the
    engine checks every move: an illegal one raises ``IllegalMove``)."""
    for move in line:
        state = rules.apply(state, rules.to_act(state)[0], move)
    return state


__all__ = ["SOLVABLE", "UNDECIDED", "UNWINNABLE", "WINNABLE", "Progress", "Result", "iter_solve",
           "replay", "solve"]

"""Which child the solver tries first: the game's own heuristic, best first.

Ordering changes how fast a winnable deal is settled, never the verdict: the search
still tries every child before it calls a state lost.  Each game's rank reads the state
the move leads to (more is better) and reuses the bots' per-game scoring
(``games.bots.scoring.scorer_for``: a game folder's ``scoring.py``, else the generic one).
"""

from __future__ import annotations

from typing import Callable

from games.bots import scoring

Rank = Callable[[dict], float]


def _hermits_arcana(rules) -> Rank:
    """Hermit's Arcana has no bots' scorer: its own score (ten a Sigil honoured, one a card
    left in Chance), less a penalty for each Sigil on the altar whose offerings can no
    longer complete its ritual (a locked Sigil takes an altar place for good, unless
    banished or the Tower takes it)."""
    def rank(state: dict) -> float:
        locked = sum(1 for sigil in state["altar"] if sigil and rules.locked(state, sigil))
        return rules.score(state) - 15.0 * locked
    return rank


CUSTOM: dict[str, Callable[[object], Rank]] = {"hermits_arcana": _hermits_arcana}


def rank_function(rules) -> Rank:
    make = CUSTOM.get(rules.slug)
    if make is not None:
        return make(rules)
    # The game's own scorer, found in its folder (games.engine.folders); the generic one
    # where a game has none.
    scorer = scoring.scorer_for(rules)
    # Every seat of a one-seat or cooperative game shares the result: seat 0's score.
    return lambda state: scorer(rules, state, 0)

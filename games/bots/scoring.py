"""How good a (determinized) state looks to a seat: the greedy level's one-move look-ahead
and the value ISMCTS gives a playout it cuts short.  One function per game, registered by
slug; a game without one gets ``generic``, which reads only the contract's ``outcome`` and
the scores a game may put in its view.  A game's own functions live in its folder,
``scoring.py`` beside its rules, as ``SCORERS = {slug: function}`` (found by the folder's
layout, ``games.engine.folders``); ``register`` adds one from anywhere else.  This module
is the part every game shares: the terminal score, the generic one, and the reward.

Every function returns a number where more is better for ``seat``; ``value`` maps it to
a reward in [0, 1], 1 for a win.
"""

from __future__ import annotations

import math
from typing import Callable

from games.engine.folders import game_part

Scorer = Callable[[object, dict, int], float]
SCORERS: dict[str, Scorer] = {}
WIN = 1000.0
SCALE = 20.0  # score difference that makes a reward of about 0.73


def register(slug: str):
    def wrap(fn: Scorer) -> Scorer:
        SCORERS[slug] = fn
        return fn
    return wrap


def terminal(rules, state: dict, seat: int) -> float | None:
    out = rules.outcome(state)
    if out is None:
        return None
    if seat in out["winners"]:
        return WIN
    if out["result"] == "draw":
        return 0.0
    if out["result"] == "ended":
        scores = out.get("scores") or [0]
        return float(scores[seat] if seat < len(scores) else 0)
    return -WIN


def generic(rules, state: dict, seat: int) -> float:
    """A game's own score for the seat, less the best rival's, if the view shows scores."""
    done = terminal(rules, state, seat)
    if done is not None:
        return done
    v = rules.view(state, seat)
    scores = v.get("scores")
    if isinstance(scores, list) and scores:
        rivals = [s for i, s in enumerate(scores) if i != seat]
        return float(scores[seat] - (max(rivals) if rivals else 0))
    return float(v.get("score") or 0)


def scorer_for(rules) -> Scorer:
    found = SCORERS.get(rules.slug)
    if found is None:
        # Looked up once per game: the search calls ``score`` at every node it grows.
        module = game_part(rules, "scoring")
        found = SCORERS[rules.slug] = getattr(module, "SCORERS", {}).get(rules.slug) or generic
    return found


DOOMERS: dict[str, Callable[[object, dict, int], int] | None] = {}


def doom_for(rules):
    """The game's count of what its board reports as lost (a locked ritual in Hermit's
    Arcana), from ``DOOMED = {slug: function}`` in its folder's ``scoring.py``; None for a
    game that reports nothing of the kind."""
    if rules.slug not in DOOMERS:
        module = game_part(rules, "scoring")
        DOOMERS[rules.slug] = getattr(module, "DOOMED", {}).get(rules.slug)
    return DOOMERS[rules.slug]


def score(rules, state: dict, seat: int) -> float:
    return (SCORERS.get(rules.slug) or scorer_for(rules))(rules, state, seat)


def value(rules, state: dict, seat: int, scale: float = SCALE) -> float:
    """The score as a reward in [0, 1]: 1 for a win, 0 for a loss, a logistic in between."""
    s = score(rules, state, seat)
    if s >= WIN:
        return 1.0
    if s <= -WIN:
        return 0.0
    return 1.0 / (1.0 + math.exp(-s / scale))

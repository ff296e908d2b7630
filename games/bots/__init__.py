"""Computer players: pure Python over the engine contract (no Django).

``choose_move(rules, view, moves, seat, level, seed)`` picks a move for a seat from its
view and its legal moves alone; ``hint`` and ``review`` (``advice.py``) explain and grade
a player's moves in the solo modes.  See ``core.py`` for the levels.

This is the bots' core, shared by every game: the search, the advice, and in ``scoring``
what every game's scoring shares.  A game's own parts for the bots are in its folder
(``games/engine/<folder>/determinize.py`` and ``scoring.py``), found by that layout.
"""

from .core import BUDGETS, LEVELS, choose_move, decide, playable

__all__ = ["BUDGETS", "LEVELS", "choose_move", "decide", "playable"]

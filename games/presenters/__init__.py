"""Turn what one seat may see into template context: one module per kind of board.

A presenter gets only the engine contract's output for that seat, ``view(state, seat)``
and ``legal_moves(state, seat)`` (plus ``describe_move`` for labels), and returns plain
data for ``templates/games/game.html``.  Nothing here knows a game's rules: where a card
may go is read from the legal moves, never worked out again.

``games.registry.present(rules, state, seat, pick=None)`` asks the game's board module,
named by its line in the registry; a game without one of its own is shown by ``generic``
(hand and moves as buttons), so every registered engine is playable here the day it lands.
"""

from __future__ import annotations

from .common import Presentation, visible_cards


__all__ = ["Presentation", "visible_cards"]

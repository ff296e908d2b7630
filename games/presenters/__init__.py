"""What every board presenter shares: ``common`` (the ``Presentation`` a game page is drawn
from, cards, choices, segments, the 2021 plane's holes) and ``generic`` (the board of a
game without one of its own).  Each game's own presenter is ``presenter.py`` in its folder
(``games/engine/<folder>/``), named by its line in ``games.registry``.

A presenter turns what one seat may see into template context.  It gets only the engine
contract's output for that seat, ``view(state, seat)`` and ``legal_moves(state, seat)``
(plus ``describe_move`` for labels), and returns plain data for
``templates/games/game.html``.  No presenter works a game's rules out again: where a card
may go is read from the legal moves.

``games.registry.present(rules, state, seat, pick=None)`` asks the game's board module; a
game without one of its own is shown by ``generic`` (hand and moves as buttons), so every
registered engine is playable here the day it lands.
"""

from __future__ import annotations

from .common import Presentation, visible_cards


__all__ = ["Presentation", "visible_cards"]

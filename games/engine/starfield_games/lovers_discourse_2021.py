"""Lovers' Discourse as first printed: the 2021 prototype's cooperative chapter
(``sefirot-2021-prototype-rules.txt``; gaps in ``docs/rules-notes/prototype-2021.md``).

The final edition's engine (``lovers_discourse.py``) with the prototype's Material Plane
and transfers (``rules_2021.Prototype2021``), and these differences:

- A Minor goes on a Major you played, or on your partner's Major only when you have
  played a Major on an adjacent space (no reach across resolved Sefira, none from your
  edge).
- No Gift Fields, no court negation; a lifted Minor with no place loses the game for both.
- Variation: ``easy`` only.
"""

from __future__ import annotations

from .. import starfield
from ..base import State
from ..cards import label
from ..known_games import register
from .lovers_discourse import LoversDiscourse
from .rules_2021 import Prototype2021


class LoversDiscourse2021(Prototype2021, LoversDiscourse):
    slug = "lovers_discourse_2021"
    title = "Lovers' Discourse (2021 prototype)"
    summary = ("The cooperative Starfield as first printed: partners grow it from opposite edges, "
               "raising Minors that total 10, 20 or 30, and may feed each other's Majors only "
               "beside one of their own.")
    minor_reach_words = ("a Minor goes on a Major you played, or on your partner's Major beside a "
                         "Major you played")

    def minor_access(self, state: State, seat: int) -> list[str]:
        board = state["board"]
        mine = [s for s, e in board.items() if seat in e["by"]]
        near = set(mine)
        for s in mine:
            near |= starfield.ADJACENT[s]
        return [s for s in starfield.SPACES
                if s in near and s in board and board[s]["resolved_by"] is None]

    def cannot_play(self, state: State, seat: int) -> None:
        hand = state["hands"][seat]
        why = (f"Seat {seat} held only Majors with nowhere to play them." if hand
               else f"Seat {seat} had no card left to play.")
        self.finish(state, "stuck", why, seat, obstacle=hand[-1] if hand else None)

    def cannot_place(self, state: State, seat: int) -> None:
        card = state["raised"][0]
        self.finish(state, "stuck",
                    f"Seat {seat} raised {label(card)}, which had no Major to go on.", seat, obstacle=card)


register(LoversDiscourse2021())

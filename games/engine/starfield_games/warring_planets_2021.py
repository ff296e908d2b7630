"""Warring Planets as first printed: the 2021 prototype's competitive chapter
(``sefirot-2021-prototype-rules.txt``; gaps in ``docs/rules-notes/prototype-2021.md``).

The final edition's engine (``warring_planets.py``) with the prototype's Material Plane
and transfers (``rules_2021.Prototype2021``), and these differences:

- Majors and Guards keep facing the seat that played them; the points of a resolved
  Major go to the seat whose card resolved it ("the resolver claims the points").
- A Minor goes on a Major you played, or on your rival's Major only when you have played
  a Major or a Guard on an adjacent space.
- Guards are played from the hand: ``{"type": "guard", "card": m, "to": space}`` onto an
  empty space next to any Major on the Starfield (either seat's).  Your rival may not
  play a Major there; you may play Majors next to it (and, as in the final edition, slip
  one under it).  ``{"type": "attack", "card": m, "to": space}`` lays a Minor of at least
  the Guard's value on a rival Guard: both leave the game (to the discard).
- Lifted Minors go only onto Majors; one with no place ends the game (scores decide).
- No Noble or Outnumber; variation ``easy`` only.
"""

from __future__ import annotations

from .. import starfield
from ..base import Move, State
from ..cards import is_card, label, value
from ..known_games import register
from .rules_2021 import Prototype2021
from .warring_planets import WarringPlanets


class WarringPlanets2021(Prototype2021, WarringPlanets):
    slug = "warring_planets_2021"
    title = "Warring Planets (2021 prototype)"
    summary = ("The competitive Starfield as first printed: rivals build from opposite edges, "
               "set Guards beside Majors, and claim the points of every Major their card "
               "resolves.")
    major_reach_words = ("a Major goes on your own edge, next to a Major or Guard you played, or "
                         "under your own Guard worth no more than it")
    minor_reach_words = ("a Minor goes on a Major you played, or on your rival's Major beside a "
                         "Major or Guard you played")

    def on_resolved(self, state: State, seat: int, space: str) -> None:
        pass  # a Major keeps facing who played it; the resolver's points are in scores()

    def scores(self, state: State) -> list[int]:
        scores = [0, 0]
        for e in state["board"].values():
            if "majors" in e and e["resolved_by"] is not None:
                scores[e["resolved_by"]] += self.worth(state, e)
        return scores

    def minor_access(self, state: State, seat: int) -> list[str]:
        board = state["board"]
        near = set()
        for s, e in board.items():
            if e["facing"] == seat:
                near |= starfield.ADJACENT[s] | {s}
        return [s for s in starfield.SPACES if s in near and s in board and "majors" in board[s]
                and board[s]["resolved_by"] is None
                and (board[s]["facing"] == seat or s in self._beside_own(state, seat))]

    @staticmethod
    def _beside_own(state: State, seat: int) -> set[str]:
        near: set[str] = set()
        for s, e in state["board"].items():
            if e["facing"] == seat:
                near |= starfield.ADJACENT[s]
        return near

    def hand_minor_moves(self, state: State, seat: int, card: str) -> list[Move]:
        board = state["board"]
        beside_majors: set[str] = set()
        for s, e in board.items():
            if "majors" in e:
                beside_majors |= starfield.ADJACENT[s]
        moves = self.onto_moves(state, seat, card, "play")
        moves += [{"type": "guard", "card": card, "to": s} for s in starfield.SPACES
                  if s in beside_majors and s not in board]
        moves += [{"type": "attack", "card": card, "to": s} for s in starfield.SPACES
                  if s in board and "guard" in board[s] and board[s]["facing"] != seat
                  and value(card) >= value(board[s]["guard"])]
        return moves

    def play(self, state: State, seat: int, move: Move) -> None:
        if state["phase"] == "play" and move["type"] in ("guard", "attack"):
            card, to = move["card"], move["to"]
            state["hands"][seat].remove(card)
            board = state["board"]
            if move["type"] == "guard":
                board[to] = {"guard": card, "facing": seat}
                self._log(state, seat, "guard", card=card, to=to)
                self.note_joining(state, seat, to, card, board)
            else:
                guard = board.pop(to)["guard"]
                state["discard"] += [card, guard]
                self._log(state, seat, "attack", cards=[card], card=guard, to=to)
            self._end_turn(state, seat)
            return
        super().play(state, seat, move)

    def explain_illegal(self, state: State, seat: int, move: Move) -> str:
        kind = move["type"]
        if state["phase"] == "play" and kind in ("guard", "attack"):
            card, to = move.get("card"), move.get("to")
            if not is_card(card):
                return f"{card!r} is not a card code (examples: 9c, Qp, 10w)."
            if card not in state["hands"][seat]:
                return f"You do not hold {label(card)}."
            if card.startswith("M"):
                return "Only a Minor can be a Guard or attack one."
            if not isinstance(to, str) or to not in starfield.SPACES:
                return f"{to!r} is not a space of the Starfield (L0-L3, C0-C4, R0-R3)."
            entry = state["board"].get(to)
            if kind == "guard":
                if entry is not None:
                    return f"A Guard goes only on an empty space, and {to} is taken."
                return f"A Guard goes only on an empty space next to a Major; {to} is next to none."
            if entry is None or "guard" not in entry:
                return f"There is no Guard on {to} to attack."
            if entry["facing"] == seat:
                return f"The Guard on {to} is your own."
            return (f"{label(card)} ({value(card)}) is worth less than the Guard on {to} "
                    f"({label(entry['guard'])}, {value(entry['guard'])}).")
        if kind in ("guard", "attack"):
            return f"You cannot {kind} now: only a Minor from your hand sets or attacks a Guard."
        return super().explain_illegal(state, seat, move)


register(WarringPlanets2021())

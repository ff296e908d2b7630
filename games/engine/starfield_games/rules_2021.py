"""What the two Starfield games of the 2021 prototype share (``sefirot-2021-prototype-rules.txt``,
RULINGS.md section 7, ``docs/rules-notes/prototype-2021.md``): a mixin laid over the final
editions' engines (``LoversDiscourse``, ``WarringPlanets``), which keep the board, the
turn, the Sun and the Moon on C2, the log and the reading.

Where the prototype differs from the final editions:

- Each seat's Material Plane fills in reading order and lifted Minors leave holes; two or
  more Minors of one row or column totalling 10, 20 or 30 must be lifted (``plane_2021``).
  There is no court negation and no other variation than ``easy`` (twice the values).
- A Minor may go from the hand straight onto a Major the seat may reach
  (``{"type": "play", "card": m, "to": space}``), as lifted Minors do (``place``).
- Lifted Minors are discarded while no Major stands on the Starfield; one with no place
  ends the game.
- The Fool has no rule of its own in the two-player chapters: worth 0, it takes no Minor
  and never resolves, and (as in Know Thyself) does not stand in the way of victory.

A subclass says which Majors a seat may feed (``minor_access``).
"""

from __future__ import annotations

from .. import plane_2021, starfield
from ..base import Move, State
from ..cards import FOOL, is_major, label, value

EASY_TEXT = "Every Major absorbs twice its value."


class Prototype2021:
    """Mixin: put it before the final edition's class in the bases."""

    variants = ("standard", "easy")
    combinable = True
    uses_gifts = False
    negates = False
    edition = "2021"

    # --- values -------------------------------------------------------------------------------

    def meditative(self, state: State) -> bool:
        return "easy" in state["options"]["variant"]

    def fits(self, state: State, entry: dict, card: str) -> bool:
        if entry.get("majors") == [FOOL]:
            return False  # worth 0: it absorbs nothing
        return super().fits(state, entry, card)

    def worth(self, state: State, entry: dict) -> int:
        return 0 if entry["majors"] == [FOOL] else self.capacity(state, entry)

    def all_resolved(self, state: State) -> bool:
        board = state["board"]
        return len(board) == len(starfield.SPACES) and all(
            "majors" in e and (e["resolved_by"] is not None or e["majors"] == [FOOL])
            for e in board.values())

    def _public_entry(self, state: State, entry: dict) -> dict:
        out = super()._public_entry(state, entry)
        if "majors" in entry and entry["majors"] == [FOOL]:
            out["capacity"] = 0
            out["never"] = True
        return out

    # --- moves --------------------------------------------------------------------------------

    def has_move(self, kind: object) -> bool:
        return kind == "match" or super().has_move(kind)

    def minor_access(self, state: State, seat: int) -> list[str]:
        raise NotImplementedError

    def onto_moves(self, state: State, seat: int, card: str, kind: str) -> list[Move]:
        board = state["board"]
        return [{"type": kind, "card": card, "to": s} for s in self.minor_access(state, seat)
                if self.fits(state, board[s], card)]

    def hand_minor_moves(self, state: State, seat: int, card: str) -> list[Move]:
        """What a Minor in the hand may do besides going to the plane."""
        return self.onto_moves(state, seat, card, "play")

    def _play_moves(self, state: State, seat: int) -> list[Move]:
        moves: list[Move] = []
        hand = state["hands"][seat]
        column = plane_2021.next_column(state["planes"][seat])
        places = self.major_places(state, seat, [c for c in hand if is_major(c)])
        for card in hand:
            if is_major(card):
                moves += [{"type": "play", "card": card, "to": s} for s in places[card]]
            else:
                moves.append({"type": "play", "card": card, "column": column})
                moves += self.hand_minor_moves(state, seat, card)
        return moves

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if not state["end"] and seat == state["turn"] and state["phase"] == "choose_set":
            moves = [{"type": "match", "cards": s} for s in plane_2021.transfer_sets(state["planes"][seat])]
            return moves + ([{"type": "forfeit"}] if self.forfeits else [])
        return super().legal_moves(state, seat)

    def place_moves(self, state: State, seat: int) -> list[Move]:
        moves: list[Move] = []
        for card in state["raised"]:
            moves += self.onto_moves(state, seat, card, "place")
        return moves

    def play_raised(self, state: State, seat: int, move: Move) -> None:
        self.add_minor(state, seat, move["to"], move["card"])

    def _play_card(self, state: State, seat: int, move: Move) -> None:
        card = move["card"]
        if is_major(card):
            super()._play_card(state, seat, move)
            return
        state["hands"][seat].remove(card)
        if "column" in move:
            state["planes"][seat] = plane_2021.place(state["planes"][seat], card)
            self._log(state, seat, "plane", card=card, column=move["column"])
            self._settle(state, seat)
            return
        self.play_minor(state, seat, move)
        if not state["end"]:
            self._end_turn(state, seat)

    def play_minor(self, state: State, seat: int, move: Move) -> None:
        """A Minor from the hand onto a Major (the subclass may add Guards and attacks)."""
        card, to = move["card"], move["to"]
        entry = state["board"][to]
        entry["minors"].append(card)
        self._log(state, seat, "onto", card=card, to=to)
        if self.is_resolved_now(state, entry):
            self.resolve(state, seat, to)

    def put_major(self, state: State, seat: int, card: str, space: str) -> None:
        super().put_major(state, seat, card, space)
        # A Fool filling the last space of an otherwise resolved Starfield completes it.
        if not state["end"] and self.all_resolved(state):
            self.finish(state, "complete", "Every space of the Starfield holds a Major, all resolved.")

    # --- transfers ----------------------------------------------------------------------------

    def _settle(self, state: State, seat: int) -> None:
        while True:
            sets = plane_2021.transfer_sets(state["planes"][seat])
            if not sets:
                break
            if len(sets) > 1:
                state["phase"] = "choose_set"
                return
            self._take_set(state, seat, sets[0])
        self._continue_placing(state, seat)

    def _take_set(self, state: State, seat: int, cards: list[str]) -> None:
        columns = state["planes"][seat]
        left = plane_2021.in_reading_order(columns, cards)
        state["planes"][seat] = plane_2021.remove(columns, cards)
        state["raised"] += left
        self._log(state, seat, "raise", cards=left)

    def _continue_placing(self, state: State, seat: int) -> None:
        if state["raised"] and not state["end"] and not any("majors" in e for e in state["board"].values()):
            # "If there are no Major Arcana in The Starfield, discard these Minor Arcana."
            self._log(state, seat, "lost", cards=list(state["raised"]))
            state["discard"] += state["raised"]
            state["raised"] = []
        super()._continue_placing(state, seat)

    # --- words --------------------------------------------------------------------------------

    def _describe(self, state: State, move: Move) -> str:
        kind, card, to = move["type"], move.get("card"), move.get("to")
        if kind == "play" and "column" in move:
            return f"Play {label(card)} to the next place of your Material Plane (column {move['column'] + 1})"
        if kind == "play" and card and not is_major(card) and to in state["board"] and "majors" in state["board"][to]:
            return "Play " + super()._describe(state, {**move, "type": "place"})[len("Place "):]
        if kind == "match":
            return f"Raise the set {self._cards_words(move['cards'])} (total {sum(map(value, move['cards']))})"
        return super()._describe(state, move)

    def why_not(self, state: State, seat: int, move: Move) -> str | None:
        kind, card = move["type"], move.get("card")
        if kind == "play" and card in state["hands"][seat] and not is_major(card):
            if "column" in move:
                return ("Minors fill your Material Plane in reading order: the next place is on column "
                        f"{plane_2021.next_column(state['planes'][seat])}.")
            return self.why_not_onto(state, seat, card, move.get("to"))
        if kind == "match":
            return "That is not one of the sets on offer; each totals 10, 20 or 30 in one row or column."
        if kind == "place":
            return self.why_not_onto(state, seat, card, move.get("to"))
        return super().why_not(state, seat, move)

    def why_not_onto(self, state: State, seat: int, card: str, to: str) -> str:
        if kind_error := self._where_error(state, to):
            return kind_error
        entry = state["board"][to]
        name = " and ".join(label(m) for m in entry["majors"])
        if entry["majors"] == [FOOL]:
            return "The Fool is worth nothing here: it takes no Minor."
        if entry["resolved_by"] is not None:
            return f"{name} on {to} is already resolved."
        if not self.fits(state, entry, card):
            return (f"{label(card)} ({value(card)}) would overfill {name} on {to}: it holds "
                    f"{sum(map(value, entry['minors']))} of {self.capacity(state, entry)}.")
        return f"{to} is out of your reach: {self.minor_reach_words}."

    @staticmethod
    def _where_error(state: State, to: object) -> str | None:
        if not isinstance(to, str) or to not in starfield.SPACES:
            return f"{to!r} is not a space of the Starfield (L0-L3, C0-C4, R0-R3)."
        entry = state["board"].get(to)
        if entry is None or "majors" not in entry:
            return f"{to} holds no Major."
        return None

    def zones(self, state: State) -> dict[str, list[str]]:
        z = super().zones(state)
        for seat in (0, 1):
            for c, col in enumerate(state["planes"][seat]):
                z[f"plane:{seat}:column:{c}"] = [x for x in col if x is not None]
        return z

    def reading(self, state: State) -> dict:
        reading = super().reading(state)
        reading["game"] = self.slug
        reading["edition"] = self.edition
        return reading

    def view(self, state: State, seat: int | None) -> dict:
        v = super().view(state, seat)
        v["edition"] = self.edition
        return v

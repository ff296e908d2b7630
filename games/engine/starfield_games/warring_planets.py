"""Warring Planets: two rivals race for the Starfield, each scoring the resolved Majors that
face them (RULINGS.md section 5, the rulebook's competitive chapter).

Every Major and Guard faces a seat: the one who put it there; a Major resolved by the
other seat turns to face its resolver.  A seat's reach is its own edge and the spaces next
to anything facing it.

Moves, beyond the shared draw and Material Plane ones of ``rules`` (this folder's):

``{"type": "play", "card": M, "to": space}``         a Major onto an empty space in reach,
    under your own Guard (if the Guard is worth no more), or onto C2 to join its Sun or Moon
``{"type": "place", "card": m, "to": space}``        a raised Minor onto a Major in reach
``{"type": "guard", "card": m, "to": space}``        a raised Minor as your Guard
``{"type": "attack", "card": m, "to": space}``       a raised Minor against an opposing Guard
``{"type": "attack", "cards": [...], "to": space}``  Outnumber: several together
``{"type": "forfeit"}``                              either seat, at any time
"""

from __future__ import annotations

from itertools import combinations

from .. import starfield
from ..known_games import register
from ..base import IllegalMove, Move, State, check_move_shape, copy_state
from ..cards import is_court, keyword, label, value
from ..plane import card_order
from .rules import StarfieldGame

FORFEIT: Move = {"type": "forfeit"}

QUESTIONS = {
    "combatant": "Who is this side, and what drives it?",
    "spark": "What set the conflict alight?",
    "sacrifice": "What was lost or betrayed along the way?",
    "blunder": "What fateful mistake was made?",
    "decisive": "How was the struggle decided?",
}


def minimal_attacks(cards: list[str], strength: int) -> list[list[str]]:
    """Sets of two or more ``cards`` that together reach ``strength`` and need every member
    to do so (without its weakest card the set would fall short), in card order.

    An attack uses only the cards it needs: a card that adds nothing towards the Guard's
    value is not part of it.  That also keeps the list of moves short.
    """
    found: list[list[str]] = []
    vals = {c: value(c) for c in cards}
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            total = sum(vals[c] for c in combo)
            if total >= strength and total - min(vals[c] for c in combo) < strength:
                found.append(card_order(combo))
    return found


class WarringPlanets(StarfieldGame):
    slug = "warring_planets"
    title = "Warring Planets"
    summary = ("Two rivals claim the Starfield from opposite edges, guarding spaces with "
               "Minors and scoring every resolved Major that faces them.")
    variants = ("standard", "noble", "outnumber")
    combinable = True
    forfeits = True
    guards = True
    major_reach_words = ("a Major goes on your own edge, next to a Major or Guard facing you, "
                         "or under your own Guard worth no more than it")
    minor_reach_words = ("a raised card goes on your own edge, on a Major facing you, or next "
                         "to a Major or Guard facing you")

    # --- reach ------------------------------------------------------------------------------

    @staticmethod
    def facing(state: State, seat: int) -> list[str]:
        return [s for s, e in state["board"].items() if e["facing"] == seat]

    def reach(self, state: State, seat: int) -> set[str]:
        """The seat's edge and every space next to a Major or Guard facing it."""
        near = set(starfield.SEAT_EDGE[seat])
        for s in self.facing(state, seat):
            near |= starfield.ADJACENT[s]
        return near

    # --- Majors -------------------------------------------------------------------------------

    def major_places(self, state: State, seat: int, cards: list[str]) -> dict[str, list[str]]:
        board = state["board"]
        near = self.reach(state, seat)
        free = [s for s in starfield.SPACES if s in near and s not in board]
        own_guards = [(s, value(e["guard"])) for s, e in board.items()
                      if "guard" in e and e["facing"] == seat]
        central = board.get(starfield.CENTRAL)
        places = {}
        for card in cards:
            spots = list(free)
            # Slip the Major under your own Guard, which must be worth no more than it.
            spots += [s for s, v in own_guards if v <= value(card)]
            # Joining the Sun or Moon on C2 asks the reach a Minor would need there.
            if self.sun_and_moon_target(state, card) and (
                    starfield.CENTRAL in near or central["facing"] == seat):
                spots.append(starfield.CENTRAL)
            places[card] = sorted(spots, key=starfield.SPACES.index) if len(spots) > len(free) else free
        return places

    def put_major(self, state: State, seat: int, card: str, space: str) -> None:
        board = state["board"]
        entry = board.get(space)
        first = state["events"].setdefault("first_major", [None, None])
        if first[seat] is None:
            first[seat] = {"space": space, "card": card}
        if entry is None:
            board[space] = {"majors": [card], "by": [seat], "minors": [], "resolved_by": None,
                            "facing": seat}
        elif "guard" in entry:
            guard = entry["guard"]
            board[space] = {"majors": [card], "by": [seat], "minors": [guard], "resolved_by": None,
                            "facing": seat}
            self._log(state, seat, "under_guard", card=card, to=space)
            if self.is_resolved_now(state, board[space]):
                self.note_joining(state, seat, space, card, board)
                self.resolve(state, seat, space)
                return
        else:
            # The Sun and The Moon share C2: one Sefira worth 50, unresolved again (even if it
            # was resolved), facing whoever played the second card until it is resolved.
            entry["majors"].append(card)
            entry["by"].append(seat)
            entry["facing"] = seat
            if entry["resolved_by"] is not None:
                entry["resolved_by"] = None
                self._log(state, seat, "unresolve", to=space)
        self.note_joining(state, seat, space, card, board)

    def on_resolved(self, state: State, seat: int, space: str) -> None:
        state["board"][space]["facing"] = seat

    # --- raised Minors ------------------------------------------------------------------------

    def attack_allowed(self, state: State, cards: list[str], guard: str) -> bool:
        variants = state["options"]["variant"]
        if "noble" in variants and is_court(guard) and not all(map(is_court, cards)):
            return False  # Noble: a court Guard falls only to court cards
        return sum(map(value, cards)) >= value(guard)

    def place_moves(self, state: State, seat: int) -> list[Move]:
        board = state["board"]
        near = self.reach(state, seat)
        onto = [s for s in starfield.SPACES
                if s in board and "majors" in board[s] and board[s]["resolved_by"] is None
                and (s in near or board[s]["facing"] == seat)]
        free = [s for s in starfield.SPACES if s not in board and s in near]
        enemies = [s for s in starfield.SPACES
                   if s in near and s in board and "guard" in board[s] and board[s]["facing"] != seat]
        moves: list[Move] = []
        raised = state["raised"]
        for card in raised:
            moves += [{"type": "place", "card": card, "to": s} for s in onto
                      if self.fits(state, board[s], card)]
            moves += [{"type": "guard", "card": card, "to": s} for s in free]
            moves += [{"type": "attack", "card": card, "to": s} for s in enemies
                      if self.attack_allowed(state, [card], board[s]["guard"])]
        if "outnumber" in state["options"]["variant"] and len(raised) > 1:
            for s in enemies:
                guard = board[s]["guard"]
                pool = raised
                if "noble" in state["options"]["variant"] and is_court(guard):
                    pool = [c for c in raised if is_court(c)]
                moves += [{"type": "attack", "cards": combo, "to": s}
                          for combo in minimal_attacks(pool, value(guard))]
        return moves

    def play_raised(self, state: State, seat: int, move: Move) -> None:
        kind, to = move["type"], move["to"]
        board = state["board"]
        if kind == "place":
            self.add_minor(state, seat, to, move["card"])
        elif kind == "guard":
            state["raised"].remove(move["card"])
            board[to] = {"guard": move["card"], "facing": seat}
            self._log(state, seat, "guard", card=move["card"], to=to)
            self.note_joining(state, seat, to, move["card"], board)
        else:
            cards = move.get("cards") or [move["card"]]
            guard = board.pop(to)["guard"]
            for c in cards:
                state["raised"].remove(c)
            state["discard"] += cards + [guard]
            self._log(state, seat, "attack", cards=cards, card=guard, to=to)

    def why_not_major(self, state: State, seat: int, card: str, to: str) -> str:
        entry = state["board"].get(to)
        if entry is not None and "guard" in entry:
            if entry["facing"] != seat:
                return f"Your rival's Guard holds {to}: attack it to free the space."
            if value(entry["guard"]) > value(card):
                return (f"Your Guard on {to} ({label(entry['guard'])}, {value(entry['guard'])}) is "
                        f"worth more than {label(card)}, so it cannot slip under it.")
        return super().why_not_major(state, seat, card, to)

    def why_not_raised(self, state: State, seat: int, move: Move) -> str | None:
        kind, to = move["type"], move["to"]
        if to not in starfield.SPACES:
            return f"{to!r} is not a space of the Starfield (L0-L3, C0-C4, R0-R3)."
        entry = state["board"].get(to)
        near = to in self.reach(state, seat)
        if kind == "guard":
            if entry is not None:
                return f"A Guard goes only on an empty space, and {to} is taken."
            return f"{to} is out of your reach: {self.minor_reach_words}."
        if "card" in move and "cards" in move:
            return "An attack names its \"card\" or, with Outnumber, its \"cards\"; not both."
        if "cards" in move and len(move["cards"]) == 1:
            return "A single card attacks with \"card\"; \"cards\" is for several together."
        cards = move.get("cards") or [move["card"]]
        if entry is None or "guard" not in entry:
            return f"There is no Guard on {to} to attack."
        guard = entry["guard"]
        if entry["facing"] == seat:
            return f"The Guard on {to} is your own."
        if not near:
            return f"The Guard on {to} is out of your reach: {self.minor_reach_words}."
        variants = state["options"]["variant"]
        if len(cards) > 1 and "outnumber" not in variants:
            return "Only with the Outnumber variation may several cards attack together."
        if "noble" in variants and is_court(guard) and not all(map(is_court, cards)):
            return f"Noble: the court Guard on {to} ({label(guard)}) falls only to court cards."
        total = sum(map(value, cards))
        if total < value(guard):
            return (f"{self._cards_words(cards)} ({total}) cannot beat the Guard on {to} "
                    f"({label(guard)}, {value(guard)}).")
        return ("Every card of a joint attack must be needed: without its weakest card the "
                "attack should fall short of the Guard's value.")

    # --- forfeit: legal for either seat at any time -------------------------------------------

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["end"] or seat not in (0, 1):
            return []
        return super().legal_moves(state, seat) + [dict(FORFEIT)]

    def apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, dict) and move.get("type") == "forfeit":
            check_move_shape(move)
            if move != FORFEIT:
                raise IllegalMove("A forfeit takes nothing but its type: {\"type\": \"forfeit\"}.")
            if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1):
                raise IllegalMove("There are only seats 0 and 1 in this game.")
            if state["end"]:
                raise IllegalMove("The game is over.")
            new = copy_state(state)
            self._log(new, seat, "forfeit")
            self.finish(new, "forfeit", f"Seat {seat} forfeited the game.", seat)
            new["moves"] = new.get("moves", 0) + 1
            return new
        return super().apply(state, seat, move)

    # --- the end ------------------------------------------------------------------------------

    def cannot_play(self, state: State, seat: int) -> None:
        hand = state["hands"][seat]
        if hand:
            self.finish(state, "blocked", f"Seat {seat} held only Majors and had no space to play one.",
                        seat, obstacle=hand[-1])
        else:
            self.finish(state, "empty", f"Seat {seat} had no card left.", seat)

    def cannot_place(self, state: State, seat: int) -> None:
        card = state["raised"][0]
        self.finish(state, "stuck", f"Seat {seat} had to place the raised {label(card)} and could not.",
                    seat, obstacle=card)

    def scores(self, state: State) -> list[int]:
        scores = [0, 0]
        for e in state["board"].values():
            if "majors" in e and e["resolved_by"] is not None:
                scores[e["facing"]] += self.worth(state, e)
        return scores

    def outcome(self, state: State) -> dict | None:
        end = state["end"]
        if end is None:
            return None
        scores = self.scores(state)
        if end["how"] == "forfeit":
            winner = 1 - end["seat"]
            return {"result": "win", "winners": [winner], "scores": scores,
                    "reason": f"{end['reason']} Seat {winner} wins."}
        tally = f"{scores[0]} to {scores[1]}"
        if scores[0] == scores[1]:
            return {"result": "draw", "winners": [], "scores": scores,
                    "reason": f"{end['reason']} The scores are level, {tally}."}
        winner = 0 if scores[0] > scores[1] else 1
        return {"result": "win", "winners": [winner], "scores": scores,
                "reason": f"{end['reason']} Seat {winner} wins, {tally}."}

    # --- the conflict story -------------------------------------------------------------------

    def reading(self, state: State) -> dict:
        """The conflict story (the events of RULINGS 5), and the Lovers' relationship methods,
        which the rulebook offers rivals too; it grows while the game is played."""
        events, end = state["events"], state["end"]
        positions = []
        for seat, first in enumerate(events.get("first_major", [None, None])):
            positions.append(self.position(
                state, f"combatant:{seat}", f"The combatant at seat {seat}", QUESTIONS["combatant"],
                f"The first Major seat {seat} played: the nature and values of that side.",
                first and first["space"], [first["card"]] if first else [], seat=seat))
        spark = events.get("contact")
        positions.append(self.position(
            state, "spark", "The spark", QUESTIONS["spark"],
            "The first Major or Guard that joined the two territories.",
            spark and spark["space"], [spark["card"]] if spark else []))
        crossed = events.get("crossed")
        positions.append(self.position(
            state, "sacrifice", "Loss and disloyalty", QUESTIONS["sacrifice"],
            "The first Major resolved by the side that did not play it (left empty if none was).",
            crossed and crossed["space"], crossed["cards"] if crossed else []))
        blunder = end["obstacle"] if end and end["how"] in ("stuck", "blocked") else None
        positions.append(self.position(
            state, "blunder", "The fateful blunder", QUESTIONS["blunder"],
            "The card a side was forced to play and could not, if that ended the war.",
            None, [blunder] if blunder else []))
        last = events.get("last_resolved") if end else None
        positions.append(self.position(
            state, "decisive", "The decisive blow", QUESTIONS["decisive"],
            "The last Major resolved.", last and last["space"], last["cards"] if last else []))
        outcome = self.outcome(state)
        return {"game": self.slug, "title": self.title, "layout": "starfield",
                "complete": end is not None, "result": outcome["result"] if outcome else None,
                "positions": positions, "story": self.story(positions, outcome),
                "sections": [
                    {"id": "conflict", "title": "The story of the conflict",
                     "about": ("Each side's first Major, the card that first joined the two "
                               "edges, the first Major taken by the side that did not play it, "
                               "a fateful unplayable card, and the last Major resolved."),
                     "positions": positions},
                    self.sacred_columns(state), self.ouroboros(state)],
                "cards": self.seal_cards(positions)}

    @staticmethod
    def story(positions: list[dict], outcome: dict | None) -> list[str]:
        """The conflict told in a few lines, one per event that happened."""
        def named(p: dict) -> str:
            words = " and ".join(f"{label(c)} ({keyword(c)})" for c in p["cards"])
            if p["minors"]:
                words += ", coloured by " + ", ".join(f"{label(m)} ({keyword(m)})" for m in p["minors"])
            return words

        by_id = {p["id"]: p for p in positions}
        lines = []
        sides = [by_id[f"combatant:{s}"] for s in (0, 1)]
        for s, p in enumerate(sides):
            if p["cards"]:
                lines.append(f"Seat {s} took the field as {named(p)}.")
        templates = {
            "spark": "The spark: {} joined the two fronts.",
            "sacrifice": "Something was lost when {} fell to the side that had not played it.",
            "blunder": "The fateful blunder: {} could find no place.",
            "decisive": "The decisive blow: {} was the last Major resolved.",
        }
        for pid, text in templates.items():
            if by_id[pid]["cards"]:
                lines.append(text.format(named(by_id[pid])))
        if outcome:
            lines.append(outcome["reason"])
        return lines


register(WarringPlanets())

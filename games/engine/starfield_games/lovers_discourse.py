"""Lovers' Discourse: two partners build the Starfield together from opposite edges
(RULINGS.md section 5, the rulebook's cooperative chapter).

Moves, beyond the shared ones of ``rules`` (this folder's):

``{"type": "draw"}`` / ``{"type": "take", "card": c}``   the turn's draw, when the deck and
    your own Gift Field both offer one (otherwise the draw happens by itself)
``{"type": "play", "card": M, "to": space}``              a Major onto the Starfield
``{"type": "play", "card": m, "column": 0-2}``           a Minor onto your Material Plane
``{"type": "give", "card": c, "to": "gift:n"}``          a hand card, face up, onto your
    partner's empty Gift Field (only while the deck lasts, and never a card that was given
    before, so cards cannot be handed to and fro forever)
``{"type": "match", "cards": [...]}``                    Numerology: which set leaves next
``{"type": "negate", "cards": [a, b]}`` / ``{"type": "raise"}``     court negation, or none
``{"type": "discard", "card": c}`` / ``{"type": "refill"}``          after a negation
``{"type": "place", "card": m, "to": space}``            a raised Minor onto a Major
``{"type": "lock", "card": m, "to": "gift:n"}``          a raised Minor with no Major to go
    on locks an empty Gift Field, face down
"""

from __future__ import annotations

from .. import starfield
from ..known_games import register
from ..base import Move, State
from ..cards import label
from .rules import StarfieldGame

QUESTIONS = {
    "first_contact": "What first drew us together, and what does our bond rest on?",
    "cooperation": "How do we work together, and where does our relationship stand today?",
    "strength": "What is our greatest strength as a pair?",
    "obstacle": "What difficulty will our relationship have to face?",
}


class LoversDiscourse(StarfieldGame):
    slug = "lovers_discourse"
    title = "Lovers' Discourse"
    summary = ("Two partners grow the Starfield from opposite edges until their Majors meet, "
               "then resolve all thirteen together, passing cards through the Sun and Moon "
               "Gift Fields.")
    variants = ("standard", "meditative", "fated", "numerology")
    combinable = True
    cooperative = True  # RULINGS 5: victory and defeat are both seats', the score shared
    uses_gifts = True
    negates = True
    public_discard = False  # hand cards go to the discard unseen by the partner
    major_reach_words = ("a Major goes on your own edge, or next to a chain of Majors joined "
                         "to your edge")
    minor_reach_words = ("a raised card goes on a Major you played, one on your edge, or one "
                         "next to a Major you played (looking across resolved Sefira)")

    # --- where Majors go -------------------------------------------------------------------

    def major_places(self, state: State, seat: int, cards: list[str]) -> dict[str, list[str]]:
        board = state["board"]
        joined = starfield.joined_to_edge(seat, board)
        near = set(starfield.SEAT_EDGE[seat])
        for s in joined:
            near |= starfield.ADJACENT[s]
        free = [s for s in starfield.SPACES if s in near and s not in board]
        places = {}
        for card in cards:
            # The second of The Sun and The Moon may join the first on C2, which must then
            # be within the player's reach like any space a Major is played to.
            if self.sun_and_moon_target(state, card) and starfield.CENTRAL in joined:
                places[card] = sorted(free + [starfield.CENTRAL], key=starfield.SPACES.index)
            else:
                places[card] = free
        return places

    def put_major(self, state: State, seat: int, card: str, space: str) -> None:
        board = state["board"]
        entry = board.get(space)
        if entry is None:
            board[space] = {"majors": [card], "by": [seat], "minors": [], "resolved_by": None}
        else:  # The Sun and The Moon now share C2, worth 50 and unresolved again
            entry["majors"].append(card)
            entry["by"].append(seat)
            if entry["resolved_by"] is not None:
                entry["resolved_by"] = None
                self._log(state, seat, "unresolve", to=space)
        self.note_joining(state, seat, space, card, board)

    # --- where raised Minors go -------------------------------------------------------------

    def minor_access(self, state: State, seat: int) -> list[str]:
        """The unresolved Majors this seat may put raised Minors on: its own, those on its
        edge, and those next to one of its own, looking across resolved Sefira."""
        board = state["board"]
        mine = [s for s, e in board.items() if seat in e["by"]]
        resolved = [s for s, e in board.items() if e["resolved_by"] is not None]
        ok = set(mine) | set(starfield.SEAT_EDGE[seat]) | starfield.reach(mine, resolved)
        return [s for s in starfield.SPACES
                if s in ok and s in board and board[s]["resolved_by"] is None]

    def place_moves(self, state: State, seat: int) -> list[Move]:
        board = state["board"]
        access = self.minor_access(state, seat)
        open_gifts = [g for g, f in zip(starfield.GIFT_FIELDS, state["gifts"]) if f is None]
        moves: list[Move] = []
        for card in state["raised"]:
            spots = [s for s in access if self.fits(state, board[s], card)]
            if spots:
                moves += [{"type": "place", "card": card, "to": s} for s in spots]
            else:
                moves += [{"type": "lock", "card": card, "to": g} for g in open_gifts]
        return moves

    def play_raised(self, state: State, seat: int, move: Move) -> None:
        card, to = move["card"], move["to"]
        if move["type"] == "place":
            self.add_minor(state, seat, to, card)
            return
        state["raised"].remove(card)
        state["gifts"][starfield.seat_of_gift(to)] = {"card": card, "locked": True}
        self._log(state, seat, "lock", card=card, to=to, secret=True)

    def why_not_raised(self, state: State, seat: int, move: Move) -> str | None:
        card, to = move["card"], move["to"]
        if not starfield.is_gift(to):
            return f"{to!r} is not a Gift Field (gift:0 or gift:1)."
        fits = [m["to"] for m in self.place_moves(state, seat) if m["type"] == "place" and m["card"] == card]
        if fits:
            return (f"{label(card)} fits on the Major on {fits[0]}, so it may not lock a Gift "
                    "Field.")
        return f"{to} is not empty."

    # --- the end ------------------------------------------------------------------------------

    def cannot_play(self, state: State, seat: int) -> None:
        hand = state["hands"][seat]
        if hand:
            why = f"Seat {seat} held only Majors with nowhere to play or give them."
        else:
            why = f"Seat {seat} had no card left to play."
        self.finish(state, "stuck", why, seat, obstacle=hand[-1] if hand else None)

    def cannot_place(self, state: State, seat: int) -> None:
        card = state["raised"][0]
        self.finish(state, "stuck",
                    f"Seat {seat} raised {label(card)}, which had no Major to go on and no "
                    "open Gift Field to lock.", seat, obstacle=card)

    def scores(self, state: State) -> list[int]:
        total = sum(self.worth(state, e) for e in state["board"].values()
                    if e["resolved_by"] is not None)
        return [total, total]

    def outcome(self, state: State) -> dict | None:
        end = state["end"]
        if end is None:
            return None
        won = end["how"] == "complete"
        return {"result": "win" if won else "loss", "winners": [0, 1] if won else [],
                "scores": self.scores(state), "reason": end["reason"]}

    # --- the reading --------------------------------------------------------------------------

    def reading(self, state: State) -> dict:
        """The three-card spread (the events of RULINGS 5), the sacred columns and the
        Ouroboros rings; it grows while the game is played."""
        events, end = state["events"], state["end"]
        contact = events.get("contact")
        spread = [self.position(
            state, "first_contact", "First contact", QUESTIONS["first_contact"],
            "The first Major that joined the two partners' territories.",
            contact and contact["space"], [contact["card"]] if contact else [])]
        crossed = events.get("crossed")
        meaning = "The first Major resolved by the partner who did not play it."
        if crossed:
            spread.append(self.position(state, "cooperation", "Cooperation", QUESTIONS["cooperation"],
                                        meaning, crossed["space"], crossed["cards"]))
        elif end and starfield.CENTRAL in state["board"]:
            # Neither partner ever resolved the other's Major: the central Sefira stands in.
            spread.append(self.position(
                state, "cooperation", "Cooperation", QUESTIONS["cooperation"],
                "No partner resolved the other's Major, so the central Sefira stands in.",
                starfield.CENTRAL, stand_in=True))
        else:
            spread.append(self.position(state, "cooperation", "Cooperation", QUESTIONS["cooperation"],
                                        meaning, None, []))
        if end and end["how"] != "complete":
            obstacle = end["obstacle"]
            spread.append(self.position(state, "obstacle", "Conflict and obstacles", QUESTIONS["obstacle"],
                                        "The card that brought the game down.", None,
                                        [obstacle] if obstacle else []))
        else:
            last = events.get("last_resolved") if end else None
            spread.append(self.position(state, "strength", "Shared strength", QUESTIONS["strength"],
                                        "The last Major resolved, completing the Starfield.",
                                        last and last["space"], last["cards"] if last else []))
        outcome = self.outcome(state)
        return {"game": self.slug, "title": self.title, "layout": "starfield",
                "complete": end is not None, "result": outcome["result"] if outcome else None,
                "positions": spread,
                "sections": [
                    {"id": "three_cards", "title": "The three-card spread",
                     "about": ("First contact, cooperation, and the last resolved Major (or, "
                               "after a loss, the card that ended the game)."),
                     "positions": spread},
                    self.sacred_columns(state), self.ouroboros(state)],
                "cards": self.seal_cards(spread)}


register(LoversDiscourse())

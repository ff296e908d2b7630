"""What Lovers' Discourse and Warring Planets share: two seats on the Starfield, each with
a hand and a Material Plane of their own (RULINGS.md section 5).

The turn is the same in both: draw (by itself unless there is a choice), play one card,
then settle the player's Material Plane: matches leave and cascade, then (Lovers'
Discourse only) court negations with their discard and refill, then the raised cards are
placed one move at a time.  The two games differ in where cards may go and how the game
ends, which are the hooks a subclass fills in.

State (plain JSON data; ``dumps`` gives it byte for byte):

``deck``      the draw pile, next card first (hidden: views show its count)
``hands``     ``[[...], [...]]`` each seat's hand in the order the cards came in
``planes``    ``[columns, columns]``: each seat's Material Plane (``plane.py``)
``board``     ``{space: entry}`` for occupied spaces; an entry holds ``majors`` (one
              card, or The Sun and The Moon sharing C2), ``by`` (who played each),
              ``minors`` placed on it in order, ``resolved_by`` (``None`` until
              resolved); Warring Planets adds ``facing`` and may hold a ``guard`` instead
``raised``    Minors that left the plane this turn and still wait for a place, in the
              order they left (the zone and view call them ``waiting``, as Know Thyself does)
``groups``    matching groups that may still negate a pair of courts this turn
``phase``     ``draw`` | ``play`` | ``choose_set`` | ``negate`` | ``discard`` | ``place`` |
              ``over`` (the names Know Thyself uses for the same steps)
``turn``      the seat whose turn it is
``gifts``     Lovers' Discourse: ``[field of seat 0, field of seat 1]``, each ``None`` or
              ``{"card", "locked"}``
``given``     Lovers' Discourse: every card that has been given once (public: gifts lie
              face up), since a gift is never passed on again
``events``    what the reading remembers (first contact, first resolution by the other
              seat, ...)
``log``       what happened, for people; a seat's draws are only shown to that seat
``end``       ``None`` while running, else why and how the game ended
"""

from __future__ import annotations

import functools

from .. import plane, starfield
from ..base import IllegalMove, Move, Rules, State, check_move_shape, copy_state, shuffled
from ..cards import DECK, FOOL, MOON, SUN, is_card, is_major, keyword, label, value
from ..drawings import render_starfield

HAND_START = 3
REFILL_TO = 4  # after a court negation the player draws back up to this many
SUN_AND_MOON = frozenset({SUN, MOON})
SUN_AND_MOON_VALUE = 50  # 19 + 18 + the 13 the rulebook adds when they share C2

# Verbs for messages and menus, one per move type.
VERBS = {
    "draw": "draw from the deck", "take": "take the card on your Gift Field",
    "play": "play a card", "give": "give a card", "match": "take a matching set",
    "negate": "negate two court cards", "raise": "raise the matched cards without negating",
    "discard": "discard a card", "refill": "draw back up to four cards",
    "place": "place a raised card", "lock": "lock a Gift Field", "guard": "set a Guard",
    "attack": "attack a Guard", "forfeit": "forfeit",
}
# Which moves each phase takes, and the keys each move has ("play" has either "to" or
# "column", "attack" either "card" or "cards").
PHASE_MOVES = {
    "draw": ("draw", "take"), "play": ("play", "give"), "choose_set": ("match",),
    "negate": ("negate", "raise"), "discard": ("discard", "refill"),
    "place": ("place", "lock", "guard", "attack"),
}
MOVE_SHAPES = {
    "draw": (), "take": ("card",), "play": ("card", "to", "column"), "give": ("card", "to"),
    "match": ("cards",), "negate": ("cards",), "raise": (), "discard": ("card",), "refill": (),
    "place": ("card", "to"), "lock": ("card", "to"), "guard": ("card", "to"),
    "attack": ("card", "cards", "to"), "forfeit": (),
}
WAITING_HINTS = {
    "draw": "draw or take their gift", "play": "play a card",
    "choose_set": "choose which matching set leaves their plane",
    "negate": "decide whether to negate court cards",
    "discard": "discard and draw back up to four", "place": "place their raised cards",
}
PHASE_HINTS = {
    "draw": "draw from the deck or take the card on your Gift Field",
    "play": "play a card from your hand",
    "choose_set": "choose which matching set leaves your Material Plane next",
    "negate": "negate a pair of court cards, or raise the rest",
    "discard": "discard cards from your hand, then draw back up to four",
    "place": "place your raised cards one by one",
}


def sacred_number(cards: list[str]) -> tuple[int, str]:
    """Numerology's sacred number: the value of the first card worth 6 to 10 (a court
    card counts 10, a Major its number) and that card."""
    for code in cards:
        if 6 <= value(code) <= 10:
            return value(code), code
    raise ValueError("the deck holds no card worth 6 to 10")


class StarfieldGame(Rules):
    """The common engine of the two Starfield games; subclasses set the hooks."""

    text_drawing = staticmethod(render_starfield)

    min_players = 2
    max_players = 2
    uses_gifts = False  # Lovers' Discourse: Gift Fields
    negates = False  # Lovers' Discourse: court negation
    public_discard = True  # Warring Planets discards only cards already seen by both
    forfeits = False  # Warring Planets: either seat may forfeit at any time
    guards = False  # Warring Planets: raised Minors as Guards, and attacks on them
    major_reach_words = ""  # how a Major's reach works, for refusals
    minor_reach_words = ""  # how a raised Minor's reach works, for refusals

    # --- setting up -----------------------------------------------------------------------

    def setup(self, state: State, options: dict, deck: list[str] | None) -> None:
        unknown = sorted(set(options) - {"variant"})
        if unknown:
            raise ValueError(f"Unknown option(s) for {self.title}: {', '.join(map(str, unknown))}")
        variants = options["variant"]
        if deck is not None:
            if not isinstance(deck, list) or sorted(map(str, deck)) != sorted(DECK) or len(deck) != len(DECK):
                raise ValueError("deck must list each of the 78 card codes exactly once")
            pile = list(deck)
        sacred = None
        if "numerology" in variants:
            # Draw until a card worth 6-10 shows, then shuffle everything back; a given deck
            # is taken as it is (its first such card is the number, and no shuffle follows).
            if deck is None:
                number, card = sacred_number(shuffled(state, DECK))
                pile = shuffled(state, DECK)
            else:
                number, card = sacred_number(pile)
            sacred = {"number": number, "card": card}
        elif deck is None:
            pile = shuffled(state, DECK)
        state.update({
            "deck": pile, "hands": [[], []], "planes": [plane.new_plane(), plane.new_plane()],
            "board": {}, "raised": [], "groups": [], "discard": [], "out": [],
            "turn": 0, "phase": "play", "events": {}, "log": "", "end": None,
            "sacred": sacred,
        })
        if self.uses_gifts:
            state["gifts"] = [None, None]
            state["given"] = []
        for seat in (0, 1):
            self._draw(state, seat, HAND_START)
        self._begin_turn(state, 0)

    # --- the contract -----------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return [] if state["end"] else [state["turn"]]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["end"] or seat != state["turn"]:
            return []
        phase = state["phase"]
        if phase == "draw":
            return [{"type": "draw"}, {"type": "take", "card": state["gifts"][seat]["card"]}]
        if phase == "play":
            return self._play_moves(state, seat)
        if phase == "choose_set":
            sets = plane.numerology_sets(state["planes"][seat], state["sacred"]["number"])
            return [{"type": "match", "cards": s} for s in sets]
        if phase == "negate":
            moves = [{"type": "negate", "cards": pair}
                     for g in self._open_groups(state) for pair in self._pairs(state, g)]
            return moves + [{"type": "raise"}]
        if phase == "discard":
            return [{"type": "discard", "card": c} for c in state["hands"][seat]] + [{"type": "refill"}]
        if phase == "place":
            return self.place_moves(state, seat)
        return []

    def apply(self, state: State, seat: int, move: Move) -> State:
        check_move_shape(move)
        move = self.normalise_move(move)
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1):
            raise IllegalMove("There are only seats 0 and 1 in this game.")
        if state["end"]:
            raise IllegalMove("The game is over.")
        if seat not in self.to_act(state):
            raise IllegalMove("It is not your turn.")
        legal = self.legal_moves(state, seat)
        column = move.get("column")
        # Python counts True and 1.0 equal to 1; a column must really be a whole number.
        strict = column is None or (type(column) is int)
        if not strict or move not in legal:
            raise IllegalMove(self.explain_illegal(state, seat, move))
        new = copy_state(state)
        # Play the listed twin of the move, so nothing of the caller's dict enters the state.
        self.play(new, seat, legal[legal.index(move)])
        new["moves"] = new.get("moves", 0) + 1
        return new

    def play(self, state: State, seat: int, move: Move) -> None:
        kind = move["type"]
        if kind == "draw":
            self._draw(state, seat, 1)
            self._to_play(state, seat)
        elif kind == "take":
            self._take(state, seat)
            self._to_play(state, seat)
        elif kind == "play":
            self._play_card(state, seat, move)
        elif kind == "give":
            self._give(state, seat, move["card"], move["to"])
        elif kind == "match":
            self._take_set(state, seat, move["cards"])
            self._settle(state, seat)
        elif kind == "negate":
            self._negate(state, seat, move["cards"])
        elif kind == "raise":
            for g in state["groups"]:
                g["done"] = True
            self._log(state, seat, "no_negation")
            self._next_negation(state, seat)
        elif kind == "discard":
            state["hands"][seat].remove(move["card"])
            state["discard"].append(move["card"])
            self._log(state, seat, "discard", card=move["card"], secret=not self.public_discard)
        elif kind == "refill":
            self._draw(state, seat, max(0, REFILL_TO - len(state["hands"][seat])))
            self._next_negation(state, seat)
        else:
            self.play_raised(state, seat, move)
            if not state["end"]:
                self._continue_placing(state, seat)

    def view(self, state: State, seat: int | None) -> dict:
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1)):
            raise ValueError("seat must be 0, 1 or None")
        v = {
            "game": self.slug, "title": self.title, "seat": seat,
            "variant": list(state["options"]["variant"]),
            "turn": state["turn"], "phase": state["phase"], "to_act": self.to_act(state),
            "deck_count": len(state["deck"]),
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in state["hands"]],
            "planes": [[list(col) for col in p] for p in state["planes"]],
            "board": {s: self._public_entry(state, e) for s, e in state["board"].items()},
            "waiting": list(state["raised"]),
            "discard_count": len(state["discard"]),
            "out": list(state["out"]),
            # The number is public; the card that set it may be in someone's hand (a given
            # deck is not reshuffled), so it is named only once the game is over.
            "sacred": state["sacred"]["number"] if state["sacred"] else None,
            "sacred_card": state["sacred"]["card"] if state["sacred"] and state["end"] else None,
            "prompt": self.prompt(state, seat),
            "legal_moves": self.legal_moves(state, seat) if seat is not None else [],
            "scores": self.scores(state),
            "outcome": self.outcome(state),
            "layout": {k: list(xy) for k, xy in starfield.layout_for(seat).items()},
            "log": self.log_entries(state, seat),
        }
        if self.public_discard:
            v["discard"] = list(state["discard"])
        if self.uses_gifts:
            v["gifts"] = {
                g: (None if f is None else {"locked": True} if f["locked"] else {"card": f["card"]})
                for g, f in zip(starfield.GIFT_FIELDS, state["gifts"])
            }
        return v

    def zones(self, state: State) -> dict[str, list[str]]:
        z: dict[str, list[str]] = {"deck": list(state["deck"])}
        for seat in (0, 1):
            z[f"hand:{seat}"] = list(state["hands"][seat])
            for c, col in enumerate(state["planes"][seat]):
                z[f"plane:{seat}:column:{c}"] = list(col)
        for s in starfield.SPACES:
            e = state["board"].get(s)
            z[f"space:{s}"] = [] if e is None else self._entry_cards(e)
        if self.uses_gifts:
            for g, f in zip(starfield.GIFT_FIELDS, state["gifts"]):
                z[g] = [] if f is None else [f["card"]]
        z["waiting"] = list(state["raised"])
        z["discard"] = list(state["discard"])
        z["out"] = list(state["out"])
        return z

    def prompt(self, state: State, seat: int | None) -> str:
        """One line telling this seat what is going on."""
        if state["end"]:
            return state["end"]["reason"]
        if seat != state["turn"]:
            return f"Waiting for seat {state['turn']} to {WAITING_HINTS[state['phase']]}."
        return f"Your turn: {PHASE_HINTS[state['phase']]}."

    def normalise_move(self, move: Move) -> Move:
        # Sets of cards are listed in card order; accept them in any order.
        cards = move.get("cards")
        if isinstance(cards, list) and all(is_card(c) for c in cards) and len(set(cards)) == len(cards):
            return {**move, "cards": plane.card_order(cards)}
        return move

    # --- words --------------------------------------------------------------------------------

    def describe_move(self, state: State, seat: int, move: Move) -> str:
        try:
            return self._describe(state, move)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return super().describe_move(state, seat, move)  # a malformed move: plain words

    def _describe(self, state: State, move: Move) -> str:
        kind = move["type"]
        card = move.get("card")
        what = label(card) if card is not None else ""
        to = move.get("to")
        where = f"the Gift Field of {starfield.GIFT_NAMES[to]}" if starfield.is_gift(to) else to
        entry = state["board"].get(to) if isinstance(to, str) else None
        if kind == "draw":
            return "Draw from the deck"
        if kind == "take":
            return f"Take {what} from your Gift Field instead of drawing"
        if kind == "play" and "column" in move:
            return f"Play {what} to column {move['column'] + 1} of your Material Plane"
        if kind == "play":
            if entry and "guard" in entry:
                return f"Slip {what} under your Guard on {to} ({label(entry['guard'])})"
            if entry:
                return f"Play {what} to {to}, beside {label(entry['majors'][0])}: together worth 50"
            return f"Play {what} to {to}"
        if kind == "give":
            return f"Give {what}, face up on {where}"
        if kind in ("match", "negate"):
            cards = self._cards_words(move["cards"])
            if kind == "negate":
                return f"Negate {cards}: both leave the game, then discard and draw up to four"
            return f"Take the set {cards} (total {sum(map(value, move['cards']))})"
        if kind == "raise":
            return "Negate no more courts; raise the rest"
        if kind == "discard":
            return f"Discard {what}"
        if kind == "refill":
            return f"Stop discarding and draw back up to {REFILL_TO} cards"
        if kind == "place":
            name = " and ".join(label(m) for m in entry["majors"])
            if entry["majors"] == [FOOL]:
                return f"Place {what} on The Fool on {to} (resolves it)"
            filled = sum(map(value, entry["minors"])) + value(card)
            cap = self.capacity(state, entry)
            done = " (resolves it)" if filled == cap else ""
            return f"Place {what} on {name} on {to}: {filled} of {cap}{done}"
        if kind == "lock":
            return f"Lock {where} with {what}, face down"
        if kind == "guard":
            return f"Set {what} as your Guard on {to}"
        if kind == "attack":
            cards = self._cards_words(move.get("cards") or [card])
            return f"Attack the Guard on {to} ({label(entry['guard'])}) with {cards}"
        if kind == "forfeit":
            return "Forfeit the game"
        raise ValueError(kind)

    def explain_illegal(self, state: State, seat: int, move: Move) -> str:
        """Why a move was refused, in words a player can act on."""
        kind = move["type"]
        if not self.has_move(kind):
            extra = (" (there are no Gift Fields in this game)" if kind in ("give", "take", "lock")
                     else " (there are no Guards in this game)" if kind in ("guard", "attack")
                     else " (there is no court negation in this game)"
                     if kind in ("negate", "raise", "discard", "refill") else "")
            return f"There is no move called {kind!r} in {self.title}{extra}."
        phase = state["phase"]
        if kind not in PHASE_MOVES.get(phase, ()):
            return f"You cannot {VERBS[kind]} now: {PHASE_HINTS[phase]}."
        for key in ("card", "cards", "to", "column"):
            if key in move and key not in MOVE_SHAPES[kind]:
                return f"A {kind} move takes no {key!r}."
        # "play" takes "to" (a Major) or "column" (a Minor), "attack" "card" or "cards".
        needs = {"play": ("card",), "attack": ("to",)}.get(kind, MOVE_SHAPES[kind])
        for key in needs:
            if key not in move:
                return f"A {kind} move needs {key!r}."
        if kind == "attack" and "card" not in move and "cards" not in move:
            return "An attack needs its \"card\" (or, with Outnumber, its \"cards\")."
        if "card" in move and not is_card(move["card"]):
            return f"{move['card']!r} is not a card code (examples: M4, 9c, Qp, 10w)."
        if "cards" in move:
            cards = move["cards"]
            if not isinstance(cards, list) or not cards or not all(is_card(c) for c in cards):
                return "\"cards\" must be a list of card codes (examples: M4, 9c, Qp, 10w)."
            if len(set(cards)) != len(cards):
                return "A card may be named only once."
        if "to" in move and not isinstance(move["to"], str):
            return "\"to\" must name a space, such as \"C2\" or \"gift:1\"."
        why = self.why_not(state, seat, move)
        return why or "That move is not allowed now."

    def has_move(self, kind: object) -> bool:
        """Whether this game has moves of ``kind`` at all (whatever the phase)."""
        if kind not in VERBS:
            return False
        if kind in ("give", "take", "lock"):
            return self.uses_gifts
        if kind in ("guard", "attack"):
            return self.guards
        if kind in ("negate", "raise", "discard", "refill"):
            return self.negates
        if kind == "match":
            return "numerology" in self.variants
        return kind != "forfeit" or self.forfeits

    def why_not(self, state: State, seat: int, move: Move) -> str | None:
        """The specific reason, once the move is known to be well formed and of the right
        kind for the phase; subclasses add their own kinds and fall back to this."""
        kind = move["type"]
        hand = state["hands"][seat]
        card = move.get("card")
        if kind in ("play", "give", "discard") and card not in hand:
            return f"You do not hold {label(card)}."
        if kind == "play":
            if is_major(card):
                if "column" in move or "to" not in move:
                    return f"{label(card)} is a Major: play it to a space of the Starfield (\"to\")."
                return self.why_not_major(state, seat, card, move["to"])
            if "to" in move or "column" not in move:
                return f"{label(card)} is a Minor: play it to a column (0, 1 or 2) of your Material Plane."
            column = move["column"]
            if type(column) is not int or column not in (0, 1, 2):
                return f"{column!r} is not a column; the columns are 0, 1 and 2."
            opened = plane.open_columns(state["planes"][seat], True)
            return ("Fated: a new row waits until the current one is full; play on column "
                    f"{' or '.join(str(c) for c in opened)}.")
        if kind == "give":
            partner = starfield.gift_of(1 - seat)
            if move["to"] != partner:
                return f"A gift goes on your partner's Gift Field, {partner}."
            if not state["deck"]:
                return "Once the deck is empty no more cards may be given."
            if card in state.get("given", ()):
                return (f"{label(card)} came to you as a gift, and a gift is never passed on "
                        "again.")
            return f"Your partner's Gift Field ({starfield.GIFT_NAMES[partner]}) is not empty."
        if kind == "take":
            gift = state["gifts"][seat]
            return f"{label(card)} is not on your Gift Field." if gift else "Your Gift Field is empty."
        if kind == "match":
            return (f"{self._cards_words(move['cards'])} is not a set that matches now: a set "
                    f"totals a multiple of {state['sacred']['number']}, or is two courts of one suit.")
        if kind == "negate":
            return (f"{self._cards_words(move['cards'])} cannot negate: a negation takes two court "
                    "cards raised together in one matching group that has not negated yet.")
        if kind in ("place", "lock", "guard", "attack"):
            for c in move.get("cards") or [card]:
                if c not in state["raised"]:
                    return f"{label(c)} is not waiting to be placed."
            to = move["to"]
            if kind == "place":
                entry = state["board"].get(to)
                if to not in starfield.SPACES:
                    return f"{to!r} is not a space of the Starfield (L0-L3, C0-C4, R0-R3)."
                if entry is None or "majors" not in entry:
                    return f"{to} holds no Major for {label(card)} to go on."
                name = " and ".join(label(m) for m in entry["majors"])
                if entry["resolved_by"] is not None:
                    return f"{name} on {to} is already resolved; nothing more goes on it."
                if not self.fits(state, entry, card):
                    if entry["majors"] == [FOOL]:
                        return "The Fool takes a single Minor, and already has one."
                    have = sum(map(value, entry["minors"]))
                    return (f"{label(card)} ({value(card)}) would overfill {name} on {to}: it holds "
                            f"{have} of {self.capacity(state, entry)}.")
                return f"{to} is out of your reach: {self.minor_reach_words}."
            return self.why_not_raised(state, seat, move)
        return None

    def why_not_major(self, state: State, seat: int, card: str, to: str) -> str:
        if to not in starfield.SPACES:
            return f"{to!r} is not a space of the Starfield (L0-L3, C0-C4, R0-R3)."
        entry = state["board"].get(to)
        if entry is not None and "majors" in entry:
            held = " and ".join(label(m) for m in entry["majors"])
            if to == starfield.CENTRAL and self.sun_and_moon_target(state, card):
                return f"{label(card)} may join {held} on C2 only when C2 is within your reach."
            if to == starfield.CENTRAL and card in SUN_AND_MOON and len(entry["majors"]) == 1:
                return f"Only The Sun and The Moon may share C2, and it holds {held}."
            return f"{to} already holds {held}."
        return f"{to} is out of your reach: {self.major_reach_words}."

    def why_not_raised(self, state: State, seat: int, move: Move) -> str | None:
        return None

    @staticmethod
    def _cards_words(cards: list[str]) -> str:
        return " and ".join(label(c) for c in cards)

    # --- hooks --------------------------------------------------------------------------------

    def major_places(self, state: State, seat: int, cards: list[str]) -> dict[str, list[str]]:
        """For each Major in ``cards``, the spaces it may be played to now (one call per
        ``legal_moves``, so the reach is worked out once for the whole hand)."""
        raise NotImplementedError

    def put_major(self, state: State, seat: int, card: str, space: str) -> None:
        raise NotImplementedError

    def place_moves(self, state: State, seat: int) -> list[Move]:
        raise NotImplementedError

    def play_raised(self, state: State, seat: int, move: Move) -> None:
        raise NotImplementedError

    def cannot_play(self, state: State, seat: int) -> None:
        """The seat to act has no legal play at the start of its turn."""
        raise NotImplementedError

    def cannot_place(self, state: State, seat: int) -> None:
        """No waiting raised card has anywhere to go."""
        raise NotImplementedError

    def on_resolved(self, state: State, seat: int, space: str) -> None:
        """A Major on ``space`` was resolved by ``seat`` (after the common bookkeeping)."""

    def scores(self, state: State) -> list[int]:
        raise NotImplementedError

    # --- values ---------------------------------------------------------------------------------

    def meditative(self, state: State) -> bool:
        return "meditative" in state["options"]["variant"]

    def capacity(self, state: State, entry: dict) -> int:
        """What the Minors on a Major must total to resolve it."""
        majors = entry["majors"]
        base = SUN_AND_MOON_VALUE if len(majors) == 2 else value(majors[0])
        return base * 2 if self.meditative(state) else base

    def worth(self, state: State, entry: dict) -> int:
        """What a resolved Major scores: its capacity, except that The Fool scores 0."""
        return 0 if entry["majors"] == [FOOL] else self.capacity(state, entry)

    def fits(self, state: State, entry: dict, card: str) -> bool:
        if entry.get("resolved_by") is not None or "majors" not in entry:
            return False
        if entry["majors"] == [FOOL]:
            return not entry["minors"]  # The Fool takes any single Minor
        return sum(map(value, entry["minors"])) + value(card) <= self.capacity(state, entry)

    def is_resolved_now(self, state: State, entry: dict) -> bool:
        if entry["majors"] == [FOOL]:
            return len(entry["minors"]) == 1
        return sum(map(value, entry["minors"])) == self.capacity(state, entry)

    def sun_and_moon_target(self, state: State, card: str) -> bool:
        """Whether ``card`` could join the other of The Sun and The Moon on C2."""
        e = state["board"].get(starfield.CENTRAL)
        return (card in SUN_AND_MOON and e is not None and len(e.get("majors", ())) == 1
                and e["majors"][0] in SUN_AND_MOON and e["majors"][0] != card)

    def all_resolved(self, state: State) -> bool:
        board = state["board"]
        return len(board) == len(starfield.SPACES) and all(
            "majors" in e and e["resolved_by"] is not None for e in board.values())

    # --- the turn -------------------------------------------------------------------------------

    def _draw(self, state: State, seat: int, n: int) -> None:
        got = state["deck"][:n]
        if not got:
            return
        del state["deck"][:n]
        state["hands"][seat].extend(got)
        self._log(state, seat, "draw", cards=got, count=len(got), secret=True)

    def _take(self, state: State, seat: int) -> None:
        card = state["gifts"][seat]["card"]
        state["gifts"][seat] = None
        state["hands"][seat].append(card)
        self._log(state, seat, "take", card=card, to=starfield.gift_of(seat))

    def _begin_turn(self, state: State, seat: int) -> None:
        state["turn"] = seat
        if self.uses_gifts:
            gift = state["gifts"][seat]
            if gift is not None and not gift["locked"]:
                if state["deck"]:
                    state["phase"] = "draw"  # a real choice: a move of its own
                    return
                self._take(state, seat)
                self._to_play(state, seat)
                return
        self._draw(state, seat, 1)
        self._to_play(state, seat)

    def _to_play(self, state: State, seat: int) -> None:
        state["phase"] = "play"
        if not self._play_moves(state, seat):
            self.cannot_play(state, seat)

    def _end_turn(self, state: State, seat: int) -> None:
        state["raised"] = []
        state["groups"] = []
        self._begin_turn(state, 1 - seat)

    def _play_moves(self, state: State, seat: int) -> list[Move]:
        moves: list[Move] = []
        hand = state["hands"][seat]
        columns = plane.open_columns(state["planes"][seat], "fated" in state["options"]["variant"])
        places = self.major_places(state, seat, [c for c in hand if is_major(c)])
        for card in hand:
            if is_major(card):
                moves += [{"type": "play", "card": card, "to": s} for s in places[card]]
            else:
                moves += [{"type": "play", "card": card, "column": c} for c in columns]
        if self.uses_gifts and state["deck"]:
            # No giving once the deck is empty (RULINGS), and no card given twice: partners who
            # kept taking instead of drawing could otherwise hand cards to and fro while the
            # deck waits. With each card given at most once, a game has at most 78 gifts and
            # 78 plays, so it always ends.
            partner_gift = starfield.gift_of(1 - seat)
            if state["gifts"][1 - seat] is None:
                given = state.get("given", ())
                moves += [{"type": "give", "card": c, "to": partner_gift} for c in hand if c not in given]
        return moves

    def _play_card(self, state: State, seat: int, move: Move) -> None:
        card = move["card"]
        state["hands"][seat].remove(card)
        if "to" in move:
            self.put_major(state, seat, card, move["to"])
            self._log(state, seat, "play", card=card, to=move["to"])
            if not state["end"]:
                self._end_turn(state, seat)
            return
        state["planes"][seat] = plane.place(state["planes"][seat], card, move["column"])
        self._log(state, seat, "plane", card=card, column=move["column"])
        self._settle(state, seat)

    def _give(self, state: State, seat: int, card: str, gift: str) -> None:
        state["hands"][seat].remove(card)
        state["gifts"][starfield.seat_of_gift(gift)] = {"card": card, "locked": False}
        state.setdefault("given", []).append(card)  # states saved before this key lacked it
        self._log(state, seat, "give", card=card, to=gift)
        self._end_turn(state, seat)

    # --- matching on the Material Plane ---------------------------------------------------------

    def _settle(self, state: State, seat: int) -> None:
        """Let matches leave the seat's plane until nothing matches, then move on."""
        columns = state["planes"][seat]
        if state["sacred"]:
            while True:
                sets = plane.numerology_sets(state["planes"][seat], state["sacred"]["number"])
                if not sets:
                    break
                if len(sets) > 1:
                    state["phase"] = "choose_set"  # the player picks which set leaves first
                    return
                self._take_set(state, seat, sets[0])
        else:
            columns, steps = plane.cascade(columns)
            state["planes"][seat] = columns
            for step in steps:
                state["raised"] += step["left"]
                self._log(state, seat, "raise", cards=step["left"])
                state["groups"] += [{"cards": g, "must": False, "done": False}
                                    for g in step["groups"] if len(plane.court_pairs(g))]
        self._next_negation(state, seat)

    def _take_set(self, state: State, seat: int, cards: list[str]) -> None:
        columns = state["planes"][seat]
        left = plane.in_leaving_order(columns, cards)
        state["planes"][seat] = plane.remove(columns, cards)
        state["raised"] += left
        self._log(state, seat, "raise", cards=left)
        if plane.must_negate(cards):
            state["groups"].append({"cards": list(cards), "must": True, "done": False})

    def _open_groups(self, state: State) -> list[dict]:
        return [g for g in state["groups"] if not g["done"] and not g["must"] and self._pairs(state, g)]

    def _pairs(self, state: State, group: dict) -> list[list[str]]:
        waiting = set(state["raised"])
        return plane.court_pairs(c for c in group["cards"] if c in waiting)

    def _next_negation(self, state: State, seat: int) -> None:
        if self.negates:
            for g in state["groups"]:
                if g["must"] and not g["done"] and self._pairs(state, g):
                    # Numerology: a same-suit court pair always negates; no choice to ask.
                    self._negate(state, seat, g["cards"])
                    return
            if self._open_groups(state):
                state["phase"] = "negate"
                return
        self._continue_placing(state, seat)

    def _negate(self, state: State, seat: int, pair: list[str]) -> None:
        for g in state["groups"]:
            if set(pair) <= set(g["cards"]):
                g["done"] = True
                break
        for c in pair:
            state["raised"].remove(c)
        state["out"] += pair
        self._log(state, seat, "negate", cards=list(pair))
        state["phase"] = "discard"

    # --- placing raised cards -------------------------------------------------------------------

    def _continue_placing(self, state: State, seat: int) -> None:
        if state["end"]:
            return
        if not state["raised"]:
            self._end_turn(state, seat)
            return
        state["phase"] = "place"
        if not self.place_moves(state, seat):
            self.cannot_place(state, seat)

    def add_minor(self, state: State, seat: int, space: str, card: str) -> None:
        """Put a raised Minor on the Major of ``space`` and resolve it if it is full."""
        state["raised"].remove(card)
        entry = state["board"][space]
        entry["minors"].append(card)
        self._log(state, seat, "place", card=card, to=space)
        if self.is_resolved_now(state, entry):
            self.resolve(state, seat, space)

    def resolve(self, state: State, seat: int, space: str) -> None:
        entry = state["board"][space]
        entry["resolved_by"] = seat
        events = state["events"]
        if "crossed" not in events and seat not in entry["by"]:
            events["crossed"] = {"space": space, "seat": seat, "cards": list(entry["majors"])}
        events["last_resolved"] = {"space": space, "seat": seat, "cards": list(entry["majors"])}
        self._log(state, seat, "resolve", to=space, cards=list(entry["majors"]))
        self.on_resolved(state, seat, space)
        if self.all_resolved(state):
            self.finish(state, "complete", "Every space of the Starfield holds a resolved Major.")

    def note_joining(self, state: State, seat: int, space: str, card: str, occupied) -> None:
        """Remember the first card whose arrival joins the two edges through occupied spaces."""
        if "contact" not in state["events"] and starfield.edges_joined(occupied):
            state["events"]["contact"] = {"space": space, "card": card, "seat": seat}

    def finish(self, state: State, how: str, reason: str, seat: int | None = None,
               obstacle: str | None = None) -> None:
        state["end"] = {"how": how, "reason": reason, "seat": seat, "obstacle": obstacle}
        state["phase"] = "over"
        self._log(state, seat, "end", how=how)

    # --- the log and the public pictures --------------------------------------------------------

    # The log is one string, a line per event ("0 place 9c C1"), because the state is
    # copied on every move and one string copies many times faster than a list of dicts.
    # A line starting with "!" is known only to the seat it names (a draw, a hidden
    # discard, a lock); others see that it happened, not which cards.

    def _log(self, state: State, seat: int | None, event: str, secret: bool = False, **data) -> None:
        words = [("!" if secret else "") + ("-" if seat is None else str(seat)), event]
        for key, val in data.items():
            words.append(f"{key}={','.join(val) if isinstance(val, list) else val}")
        state["log"] += " ".join(words) + "\n"

    @staticmethod
    def log_entries(state: State, seat: int | None) -> list[dict]:
        """The log as this seat may read it: ``{"n", "seat", "event", ...}`` per event."""
        out = []
        for n, line in enumerate(state["log"].splitlines()):
            owner, secret, event, fields = _log_record(line)
            hidden = secret and owner != seat
            entry: dict = {"n": n, "seat": owner, "event": event}
            for key, val in fields:
                if hidden and key in ("card", "cards"):
                    continue
                entry[key] = list(val) if key == "cards" else val
            out.append(entry)
        return out

    def _entry_cards(self, entry: dict) -> list[str]:
        if "guard" in entry:
            return [entry["guard"]]
        return list(entry["majors"]) + list(entry["minors"])

    def _public_entry(self, state: State, entry: dict) -> dict:
        if "guard" in entry:
            return {"guard": entry["guard"], "facing": entry["facing"], "value": value(entry["guard"])}
        out = {
            "majors": list(entry["majors"]), "by": list(entry["by"]), "minors": list(entry["minors"]),
            "resolved": entry["resolved_by"] is not None, "resolved_by": entry["resolved_by"],
            "capacity": self.capacity(state, entry) if entry["majors"] != [FOOL] else None,
            "total": sum(map(value, entry["minors"])),
        }
        if "facing" in entry:
            out["facing"] = entry["facing"]
        return out

    # --- readings -------------------------------------------------------------------------------
    # A position has the shape the journal keeps (id, label, question, meaning, card, minors)
    # plus what a Starfield reading adds: the space, every Major on it (The Sun and The Moon
    # may share C2) and each card's keyword.

    def position(self, state: State, pid: str, label_: str, question: str, meaning: str,
                 space: str | None = None, majors: list[str] | None = None, **extra) -> dict:
        entry = state["board"].get(space) if space else None
        if majors is None:
            majors = (list(entry["majors"]) if entry and "majors" in entry
                      else [entry["guard"]] if entry else [])
        minors = list(entry["minors"]) if entry and "majors" in entry else []
        return {"id": pid, "label": label_, "question": question, "meaning": meaning,
                "space": space, "card": majors[0] if majors else None,
                "keyword": keyword(majors[0]) if majors else None,
                "cards": majors, "keywords": [keyword(c) for c in majors],
                "minors": minors, "minor_keywords": [keyword(c) for c in minors], **extra}

    @staticmethod
    def seal_cards(positions: list[dict]) -> list[str]:
        """The cards standing on the given positions (Majors, not their Minors), each once."""
        seen: list[str] = []
        for p in positions:
            for c in p["cards"]:
                if c not in seen:
                    seen.append(c)
        return seen

    def sacred_columns(self, state: State) -> dict:
        positions = []
        for col, spaces in starfield.COLUMNS.items():
            meaning = starfield.COLUMN_MEANINGS[col]
            for s in spaces:
                near = starfield.side(s)
                if near is None:
                    positions.append(self.position(
                        state, s, "The central Sefira", "What shape does our relationship take now?",
                        "The heart of the board: the bond as it stands today.", s,
                        column=col, column_meaning=meaning, near_seat=None))
                    continue
                positions.append(self.position(
                    state, s, f"{meaning.capitalize()} ({s}), near seat {near}",
                    f"What does the partner at seat {near} bring to the {meaning} side of the bond?",
                    (f"In {starfield.COLUMN_NAMES[col]}, the {meaning} connection; a space near "
                     "a partner speaks of that partner's own inner dynamics."),
                    s, column=col, column_meaning=meaning, near_seat=near))
        return {"id": "sacred_columns", "title": "The sacred columns",
                "about": ("The Moon's column speaks of feeling, the centre of spirit, the Sun's "
                          "column of thought; spaces near a partner show what that partner "
                          "brings, the central space the bond as it stands."),
                "positions": positions}

    def ouroboros(self, state: State) -> dict:
        positions = []
        for seat in (0, 1):
            for ring, spaces in starfield.RINGS.items():
                order = spaces if seat == 0 else tuple(reversed(spaces))
                for step, s in enumerate(order, 1):
                    positions.append(self.position(
                        state, f"{ring}:{seat}:{step}", f"The {ring} ring for seat {seat}, step {step}",
                        "What turns at this step of the cycle: is it behind you, around you, or ahead?",
                        (f"Seat {seat} reads the {ring} ring from the tip nearest them ({order[0]}) "
                         f"to the far one ({order[-1]})."),
                        s, seat=seat, ring=ring, step=step))
        for s in starfield.RING_MEETINGS:
            positions.append(self.position(
                state, f"meeting:{s}", f"Where the rings meet ({s})",
                "Could the power resting here carry one of you from your cycle into the other's?",
                "The two rings touch here; a card on such a point may let a cycle be changed.", s))
        return {"id": "ouroboros", "title": "The Ouroboros rings",
                "about": ("Each partner reads each ring from the tip nearest them, one Major "
                          "after another, as a cycle; the two meeting points are where a cycle "
                          "might be changed."),
                "positions": positions}


@functools.lru_cache(maxsize=16384)
def _log_record(line: str) -> tuple:
    """A log line read: (its seat, whether it is secret, its event, its (key, value) pairs,
    a card list as a tuple).  A view tells the whole log and the lines never change, so
    each is read once: a Lovers' Discourse view at move 200 spent 0.29 ms reading its log."""
    who, event, *pairs = line.split(" ")
    secret = who.startswith("!")
    owner = None if who.lstrip("!") == "-" else int(who.lstrip("!"))
    fields = []
    for pair in pairs:
        key, val = pair.split("=", 1)
        fields.append((key, (tuple(val.split(",")) if val else ()) if key == "cards" else (
            int(val) if key in ("column", "count") else val)))
    return owner, secret, event, tuple(fields)

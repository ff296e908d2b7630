"""Dream Odyssey, setting out and travelling: the set-up, the piles and the hand, moving
along the branches, help bought with the Party.

A part of ``DreamOdyssey`` (``game.py``), which combines the parts; each method works
on the state dict as described in the package's docstring."""

from __future__ import annotations

from ..base import Move, State, shuffled
from ..cards import CARDS, COURTS, MAJORS, MINORS
from .tables import (
    DEATH_LOOK,
    LANDSCAPES,
    NEEDS_DECK,
    NEEDS_DISCARD,
    OPENING_HAND,
    PRIESTESS_LOOK,
    STACK_SIZES,
    TIMING,
    WOUND_FIELDS,
)
from ..tree import ADJACENT, ROOT, SPACES
from .common import PILES, _a, _cap, _list, _space, _the


class Journey:
    """Setting out and travelling: the set-up, the piles and the hand, moving along the
    branches, help bought with the Party."""

    def setup(self, state: State, options: dict, deck: list[str] | None) -> None:
        unknown = set(options) - {"variant", "majors_deck", "minors_deck"}
        if unknown:
            raise ValueError(f"Unknown option(s) for {self.title}: {', '.join(sorted(unknown))}")
        if deck is not None:
            raise ValueError("Dream Odyssey has two piles: stack them with options "
                             "'majors_deck' and 'minors_deck', not with deck")
        majors = self._given_pile(options, "majors_deck", MAJORS, "the 22 Majors")
        minors = self._given_pile(options, "minors_deck", MINORS, "the 56 Minors")
        if majors is None:
            majors = shuffled(state, MAJORS)
        if minors is None:
            minors = shuffled(state, MINORS)
        crown_major = majors[0]
        landscape, world_type = LANDSCAPES[crown_major]
        spaces = {}
        for space in SPACES:  # the tree's own order, the Crown first
            spaces[space] = {"major": majors.pop(0), "stack": [], "open": False, "won": False}
        party = [majors.pop(0)]
        for space in SPACES:
            n = STACK_SIZES[space]
            spaces[space]["stack"], minors = minors[:n], minors[n:]
        state.update({
            "phase": "travel",
            "choice": None,
            "queue": [],
            "turn": 0,
            "position": ROOT,
            "travel": None,  # {"from", "to"} while on a branch
            "spaces": spaces,
            "majors": majors,
            "majors_discard": [],
            "minors": minors,
            "minors_discard": [],
            "hand": [],
            "party": party,
            "wounds": [None] * WOUND_FIELDS,
            "encounter": None,
            "peek": [],  # cards out of a pile while a power or the lost-encounter peek decides
            # Cards leaving together, in the usual order (the last placed ends on top), until
            # the player has put them on the discard pile; ``public`` says whether a spectator
            # saw them where they came from (an encounter) or not (a hand, a face-down stack).
            "discarding": {"cards": [], "public": True},
            "world": {"crown": crown_major, "landscape": landscape, "type": world_type},
            "gained": [{"card": party[0], "from": "start"}],
            "crown_party": [],
            "tale": [],
            "result": None,
        })
        self._tale(state, f"You fall asleep and wake inside a dream: the "
                          f"{landscape[0].lower()}{landscape[1:]}. Far above, at the Crown, "
                          f"waits {CARDS[crown_major].name}, whose wisdom you seek.")
        self._tale(state, f"{CARDS[party[0]].name} walks beside you from the first step.")
        # RULINGS 6: a court card drawn at any time but the travel draw joins the Party, so
        # the opening hand is drawn until it holds three pips, the courts met on the way
        # joining the Party (the rulebook's reshuffle is overruled).
        while sum(c not in COURTS for c in state["hand"]) < OPENING_HAND and state["minors"]:
            self._draw(state, "top", quiet=True)
        for space in ADJACENT[ROOT]:
            state["spaces"][space]["open"] = True
        self._tale(state, f"Three ways lead up from the root: "
                          f"{_list([_space(s) for s in SPACES if s in ADJACENT[ROOT]])}.")

    @staticmethod
    def _given_pile(options: dict, key: str, cards: tuple[str, ...], what: str) -> list[str] | None:
        if key not in options:
            return None
        pile = options[key]
        if (not isinstance(pile, list) or len(pile) != len(cards)
                or not all(isinstance(c, str) for c in pile) or sorted(pile) != sorted(cards)):
            raise ValueError(f"options[{key!r}] must list each of {what} exactly once, "
                             "first drawn first")
        return list(pile)

    def loads(self, text: str) -> State:
        state = super().loads(text)
        # A game saved before discards were laid down by choice has nothing waiting.
        state.setdefault("discarding", {"cards": [], "public": True})
        return state

    @staticmethod
    def _own_space(state: State, space: str) -> dict:
        """The space's dict, made this state's own before it is changed: ``copy`` shares
        the spaces between states (a space's stack is only ever replaced, not changed)."""
        own = state["spaces"][space] = dict(state["spaces"][space])
        return own

    @staticmethod
    def _courts(state: State) -> list[str]:
        return [c for c in state["party"] if c in COURTS]

    @staticmethod
    def _party_majors(state: State) -> list[str]:
        return [c for c in state["party"] if c[0] == "M"]

    @staticmethod
    def _wounds(state: State) -> list[str]:
        return [w for w in state["wounds"] if w is not None]

    def _can_draw(self, state: State) -> bool:
        return bool(state["minors"] or state["minors_discard"])

    def _discard(self, state: State, card: str) -> None:
        (state["majors_discard"] if card[0] == "M" else state["minors_discard"]).insert(0, card)

    @staticmethod
    def _lay_aside(state: State, card: str) -> None:
        """An encounter's card bound for the discard pile: it waits, still on the table, so
        the player can lay the encounter's cards down together in the order they choose."""
        state["discarding"]["cards"].append(card)

    def _discard_together(self, state: State, cards: list[str], public: bool) -> None:
        """Several cards discarded at once (listed in the usual order, the last ends on top)."""
        state["discarding"] = {"cards": state["discarding"]["cards"] + cards, "public": public}
        self._settle_discards(state)

    def _settle_discards(self, state: State) -> None:
        # "You may discard cards in any order": asked only when there is an order to choose.
        waiting = state["discarding"]["cards"]
        if len(waiting) > 1:
            self._ask(state, "discarding")
            return
        for card in waiting:
            self._discard(state, card)
        state["discarding"] = {"cards": [], "public": True}

    def _ensure_deck(self, state: State) -> None:
        # "If the Minors deck runs out of cards, shuffle the discard pile to create a new deck."
        if not state["minors"] and state["minors_discard"]:
            state["minors"] = shuffled(state, state["minors_discard"])
            state["minors_discard"] = []

    def _take(self, state: State, end: str) -> str | None:
        self._ensure_deck(state)
        if not state["minors"]:
            return None
        return state["minors"].pop(0 if end == "top" else -1)

    def _gain(self, state: State, card: str, why: str = "") -> None:
        """A Minor comes to the player: a pip to the hand, a court to the Party (RULINGS 6)."""
        if card in COURTS:
            state["party"].append(card)
            self._tale(state, f"{_cap(_a(self._person(state, card)))}, the {CARDS[card].name}, "
                              f"joins your party{why}.")
        else:
            state["hand"].append(card)

    def _draw(self, state: State, end: str, quiet: bool = False) -> str | None:
        card = self._take(state, end)
        if card is None:
            return None
        if card not in COURTS and not quiet:
            where = "" if end == "top" else " from the bottom of the deck"
            self._tale(state, f"You draw a card{where}.", f"You draw {_the(card)}{where}.")
        self._gain(state, card)
        return card

    def _travel_moves(self, state: State) -> list[Move]:
        spaces = state["spaces"]
        return [{"type": "travel", "to": s} for s in SPACES
                if s in ADJACENT[state["position"]] and spaces[s]["open"]]

    def _outside_moves(self, state: State) -> list[Move]:
        """Powers usable outside encounters, and Party cards spent on help."""
        moves: list[Move] = []
        deck, discard = len(state["minors"]), len(state["minors_discard"])
        party_majors = self._party_majors(state)
        for major in party_majors:
            if TIMING[major] != "outside":
                continue
            power = {"type": "power", "card": major}
            if major == "M1":
                moves += [{**power, "to": s} for s in SPACES
                          if state["spaces"][s]["stack"] and discard >= len(state["spaces"][s]["stack"])]
            elif major == "M2":
                moves += [{**power, "to": pile} for pile, n in zip(PILES, (deck, discard))
                          if n >= PRIESTESS_LOOK]
            elif major == "M8":
                moves += [{**power, "cards": [w]} for w in self._wounds(state)]
            elif major == "M10":
                if deck >= len(state["hand"]):
                    moves.append(power)
            elif major == "M12":
                if deck >= NEEDS_DECK[major]:
                    moves += [{**power, "cards": [c]} for c in state["hand"]]
            elif major == "M13":
                if discard + 1 >= DEATH_LOOK:
                    moves += [{**power, "cards": [w]} for w in self._wounds(state)]
            elif deck >= NEEDS_DECK.get(major, 0) and discard >= NEEDS_DISCARD.get(major, 0):
                moves.append(power)
        if self._can_draw(state):
            payers = party_majors + (self._courts(state) if len(self._courts(state)) >= 2 else [])
            for kind in ("assistance", "inspiration"):
                moves += [{"type": kind, "card": c} for c in payers]
        return moves

    def _travel(self, state: State, to: str) -> None:
        origin = state["position"]
        state["turn"] += 1
        space = state["spaces"][to]
        if space["won"]:
            state["position"] = to
            self._tale(state, f"You pass through {_space(to)} again; nothing bars the way now.")
            state["queue"].append(["resume", "travel"])
            return
        state["travel"] = {"from": origin, "to": to}
        self._tale(state, f"You set out from {_space(origin)} toward {_space(to)}.")
        card = self._take(state, "top")
        if card is None:
            self._tale(state, "The road is quiet.")
        elif card in COURTS:
            # RULINGS 6: the travel draw's court is a stranger to win over, not a Party member.
            foe = self._take(state, "top")
            person = self._person(state, card)
            if foe is None:
                self._tale(state, f"On the road you meet {_a(person)}, the {CARDS[card].name}, "
                                  "who asks nothing of you.")
            else:
                self._tale(state, f"On the road you meet {_a(person)}, the {CARDS[card].name}, "
                                  f"wary of strangers: they test you with {self._who(state, foe)}.")
            self._begin_encounter(state, "travel", to, [foe] if foe else [], trigger=card)
            return
        else:
            state["hand"].append(card)
            self._tale(state, "Something on the road lifts your spirits.",
                       f"On the road you find inspiration: {_the(card)}.")
        state["queue"].append(["arrive"])

    def _seek_help(self, state: State, kind: str, card: str) -> None:
        end = "top" if kind == "assistance" else "bottom"
        state["party"].remove(card)
        self._discard(state, card)
        if card in COURTS:
            self._ask(state, "pay", end=end, first=card)
            return
        self._help_arrives(state, end, [card])

    def _help_arrives(self, state: State, end: str, paid: list[str]) -> None:
        names = _list([_the(c) for c in paid])
        if end == "top":
            self._tale(state, f"You send {names} off to find help.")
        else:
            self._tale(state, f"{_cap(names)} confide{'s' if len(paid) == 1 else ''} in you what "
                              "they believe you most need to learn.")
        self._draw(state, end)

    def _step_resume(self, state: State, phase: str) -> None:
        if phase == "arrive":
            self._step_arrive(state)
        else:
            state["phase"] = phase

    def _step_arrive(self, state: State) -> None:
        state["position"] = state["travel"]["to"]
        while not state["hand"] and self._can_draw(state):
            self._draw(state, "top")
        # A pause before the encounter only when there is something to do in it.
        if self._outside_moves(state):
            state["phase"] = "arrive"
        else:
            self._begin_sefira_encounter(state)

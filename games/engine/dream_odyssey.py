"""Dream Odyssey: the solo adventure of Sefirot (rulebook "Dream Odyssey", RULINGS.md section 6).

The player travels the Tree of Life from its root to the Crown, facing the Minor stacks each
Sefira hosts with the pip cards in hand, helped by a Party of court cards and Majors whose
22 powers bend the rules.  Four wounds end the journey; overcoming the Crown wins it.  Every
event adds a line to the Unfolding Tale, told from the landscape, place and person tables.

State: one JSON-able dict.  Piles are lists with index 0 the top.  ``phase`` names what the
player must decide now:

``travel``      start of a turn: travel along a branch, or (outside an encounter) use a
                Major's power or spend Party cards on assistance / inspiration
``arrive``      on reaching a guarded Sefira, before its encounter: the same outside actions,
                or ``enter`` (offered only when some outside action is possible)
``encounter``   fighting: ``play`` a pip against an encountered card, ``augment`` it with a
                Party court, ``defeat`` an encountered court with a Party court of its suit or
                rank, use an encounter power, then ``resolve``
``guard``       Justice may stop the wound or the court discard about to happen (``power``
                or ``pass``)
``draw``        a draw from the top or the bottom of the Minors deck (``draw_top`` /
                ``draw_bottom``): after a wound, for The Hermit and The Hanged Man
``hope``        right after an encounter, The Star may take a card just defeated
``introspect``  after a lost encounter: discard one of the bottom three of the deck
``priestess``   The High Priestess: which of the three goes back (``replace``)
``keep``        which looked-at card to keep (The Empress, Death, Moon, Sun, World)
``order``       the order the rest go back in, one ``place`` at a time
``bargain``     The Devil: which of the three drawn becomes a wound (``wound``)
``tower``       The Tower: which encountered cards fall (``target``, then ``done``)
``gate``        The Gate: which card to take from the discard pile (``take``)
``pay``         the second court paid for assistance or inspiration (``pay``)
``discarding``  two or more cards leave together (an encounter's end, The Wheel of Fortune's
                hand, The Magician's stack): the player puts them on the discard pile one
                at a time (``discard``), or the rest at once in the usual order
                (``discard_rest``)
``over``        the game has ended; ``result`` says how

Steps still to run after a choice (the rest of an encounter's resolution, say) wait in the
``queue`` as small JSON lists, so a half-resolved encounter survives ``dumps``/``loads``.
"""

from __future__ import annotations

from itertools import combinations

from . import register
from .base import IllegalMove, Move, Rules, State, shuffled
from .drawings import render_dream_odyssey
from .cards import CARDS, COURTS, DECK, MAJORS, MINORS, ROMAN, is_card, rank_of, suit_of, value
from .dream_tables import (AUGMENT, COURT_PEOPLE, DEATH_LOOK, LANDSCAPES, LOST_PEEK, NEEDS_DECK,
                           NEEDS_DISCARD, OPENING_HAND, PLACES, POWERS, PRIESTESS_LOOK,
                           STACK_SIZES, TIMING, WHEEL_MINIMUM, WOUND_FIELDS)
from .tree import ADJACENT, ROOT, SPACE_NAMES, SPACES

SLUG = "dream_odyssey"
REST_PHASES = ("travel", "arrive")
CHOICE_PHASES = ("guard", "draw", "hope", "introspect", "priestess", "keep", "order", "bargain",
                 "tower", "gate", "pay", "discarding")
PILES = ("deck:minors", "discard:minors")
SUN_MOON = ("sun", "moon")
_ORDER = {c: i for i, c in enumerate(DECK)}
_SLOT_PREFIX = "encounter:"


# --- words ----------------------------------------------------------------------------------

def _the(code: str) -> str:
    """A card name that reads well mid-sentence: "the 9 of Pentacles", "The Hermit"."""
    card = CARDS[code]
    return card.name if card.arcana == "major" else f"the {card.name}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _list(names: list[str]) -> str:
    if len(names) < 3:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _a(text: str) -> str:
    text = text.lower()
    return ("an " if text[:1] in "aeiou" else "a ") + text


def _space(space: str) -> str:
    return SPACE_NAMES.get(space, space)


def _slot_id(i: int) -> str:
    return f"{_SLOT_PREFIX}{i}"


def _slot_index(to: object) -> int | None:
    if isinstance(to, str) and to.startswith(_SLOT_PREFIX) and to[len(_SLOT_PREFIX):].isdigit():
        return int(to[len(_SLOT_PREFIX):])
    return None


def _canon(cards: list[str]) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


def _shares(a: str, b: str) -> bool:
    return suit_of(a) == suit_of(b) or rank_of(a) == rank_of(b)


class DreamOdyssey(Rules):
    slug = SLUG
    text_drawing = staticmethod(render_dream_odyssey)
    title = "Dream Odyssey"
    summary = ("A solo journey up the Tree of Life: travel its branches, overcome the cards "
               "each Sefira hosts with your hand and your Party, and reach the Crown before "
               "four wounds break your spirit.")
    min_players = 1
    max_players = 1
    variants = ("standard",)
    combinable = False

    # --- set-up ---------------------------------------------------------------------------

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

    # --- small queries ------------------------------------------------------------------------

    def _world(self, state: State) -> str:
        return state["world"]["type"]

    def _person(self, state: State, court: str) -> str:
        return COURT_PEOPLE[court][self._world(state)]

    def _place(self, state: State, major: str) -> str:
        return PLACES[major][self._world(state)]

    def _who(self, state: State, card: str) -> str:
        """A Minor as met in the tale: courts are people."""
        if card in COURTS:
            return f"{_a(self._person(state, card))} ({CARDS[card].name})"
        return _the(card)

    @staticmethod
    def _strength(state: State, slot: dict) -> int:
        """What a played pip is worth with the Fool's Aces and its augmenting courts."""
        pip = slot["pip"]
        worth = 11 if state["encounter"]["fool"] and rank_of(pip) == "A" else value(pip)
        for court in slot["boosts"]:
            how, n = AUGMENT[rank_of(court)]
            worth = worth + n if how == "add" else worth * n
        return worth

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

    # --- moving cards -------------------------------------------------------------------------

    def _tale(self, state: State, public: str, private: str | None = None) -> None:
        """One line of the Unfolding Tale; ``private`` names what only the player may know."""
        state["tale"].append([public] if private is None else [public, private])

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

    def _use_power(self, state: State, major: str) -> None:
        state["party"].remove(major)
        self._discard(state, major)
        if state["encounter"] is not None:
            state["encounter"]["used"].append(major)
        title = POWERS[major][0]
        self._tale(state, f"{CARDS[major].name} lends you its power: {title.lower()}.")

    def _ask(self, state: State, kind: str, **details) -> None:
        state["choice"] = {"kind": kind, **details}
        state["phase"] = kind

    # --- what may be done now -------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == "over" else [0]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        phase = state["phase"]
        if seat != 0 or phase == "over":
            return []
        if phase == "travel":
            return self._travel_moves(state) + self._outside_moves(state)
        if phase == "arrive":
            return [{"type": "enter"}] + self._outside_moves(state)
        if phase == "encounter":
            return self._encounter_moves(state)
        return self._choice_moves(state)

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

    def _encounter_moves(self, state: State) -> list[Move]:
        enc = state["encounter"]
        slots = enc["slots"]
        hand = state["hand"]
        free = [i for i, s in enumerate(slots) if s["state"] == "open"]
        engaged = [i for i, s in enumerate(slots) if s["state"] == "engaged"]
        courts = self._courts(state)
        moves: list[Move] = [{"type": "play", "card": c, "to": _slot_id(i)} for c in hand for i in free]
        moves += [{"type": "augment", "card": k, "to": _slot_id(i)} for k in courts for i in engaged]
        moves += [{"type": "defeat", "card": k, "to": _slot_id(i)} for k in courts for i in free
                  if slots[i]["card"] in COURTS and _shares(k, slots[i]["card"])]
        for major in self._party_majors(state):
            if TIMING[major] != "encounter":
                continue
            power = {"type": "power", "card": major}
            if major == "M0":
                if not enc["fool"]:
                    moves.append(power)
            elif major == "M4":
                moves += [{**power, "to": _slot_id(i)} for i in free if slots[i]["card"] in COURTS]
            elif major == "M5":
                pips = _canon([slots[i]["pip"] for i in engaged])
                moves += [{**power, "cards": [p]} for p in pips]
                moves += [{**power, "cards": list(pair)} for pair in combinations(pips, 2)]
            elif major == "M6":
                moves += [{**power, "cards": [c], "to": _slot_id(i)} for c in hand for i in free
                          if suit_of(c) == suit_of(slots[i]["card"])]
            elif major == "M7":
                if all(s["pip"] is None and not s["boosts"] for s in slots):
                    moves.append(power)
            elif major == "M14":
                moves += [{**power, "to": _slot_id(i)} for i in free]
            elif major == "M16":
                if free:
                    moves += [{**power, "cards": [p]} for p in state["party"] if p != major]
        if not free or not hand:
            moves.append({"type": "resolve"})
        return moves

    def _choice_moves(self, state: State) -> list[Move]:
        choice = state["choice"]
        kind = choice["kind"]
        if kind == "guard":
            return [{"type": "power", "card": "M11"}, {"type": "pass"}]
        if kind == "draw":
            return [{"type": "draw_top"}, {"type": "draw_bottom"}]
        if kind == "hope":
            return [{"type": "power", "card": "M17", "cards": [s["card"]]}
                    for s in state["encounter"]["slots"] if s["state"] == "defeated"] + [{"type": "pass"}]
        if kind == "introspect":
            return [{"type": "discard", "card": c} for c in state["peek"]]
        if kind == "priestess":
            return [{"type": "replace", "card": c} for c in state["peek"]]
        if kind == "keep":
            return [{"type": "keep", "card": c} for c in state["peek"]]
        if kind == "order":
            return [{"type": "place", "card": c} for c in state["peek"]]
        if kind == "bargain":
            return [{"type": "wound", "card": c} for c in state["peek"]]
        if kind == "tower":
            slots = state["encounter"]["slots"]
            moves = [{"type": "target", "to": _slot_id(i)} for i, s in enumerate(slots)
                     if s["state"] == "open"]
            if choice["felled"]:
                moves.append({"type": "done"})
            return moves
        if kind == "gate":
            return [{"type": "take", "card": c} for c in state["minors_discard"]]
        if kind == "pay":
            return [{"type": "pay", "card": c} for c in self._courts(state)]
        if kind == "discarding":
            return ([{"type": "discard", "card": c} for c in state["discarding"]["cards"]]
                    + [{"type": "discard_rest"}])
        raise AssertionError(f"unknown choice {kind}")

    def normalise_move(self, move: Move) -> Move:
        cards = move.get("cards")
        if isinstance(cards, list) and len(cards) > 1 and all(is_card(c) for c in cards):
            return {**move, "cards": _canon(cards)}
        return move

    # --- moves --------------------------------------------------------------------------------

    def play(self, state: State, seat: int, move: Move) -> None:
        phase = state["phase"]
        kind = move["type"]
        if phase in REST_PHASES:
            if kind == "travel":
                self._travel(state, move["to"])
            elif kind == "enter":
                self._begin_sefira_encounter(state)
            elif kind == "power":
                self._outside_power(state, move)
                state["queue"].append(["resume", phase])
            else:  # assistance / inspiration
                self._seek_help(state, kind, move["card"])
                state["queue"].append(["resume", phase])
        elif phase == "encounter":
            self._encounter_move(state, move)
        else:
            self._answer(state, move)
        self._run(state)

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

    def _begin_encounter(self, state: State, kind: str, space: str, cards: list[str],
                         trigger: str | None = None) -> None:
        state["encounter"] = {
            "kind": kind, "space": space, "trigger": trigger,
            "slots": [{"card": c, "pip": None, "boosts": [], "state": "open"} for c in cards],
            "fool": False, "kept": [], "used": [],
        }
        state["phase"] = "encounter"

    def _begin_sefira_encounter(self, state: State) -> None:
        to = state["position"]
        space = state["spaces"][to]
        cards, space["stack"] = space["stack"], []
        major = space["major"]
        guards = _list([self._who(state, c) for c in cards]) or "no one at all"
        self._tale(state, f"You reach {_space(to)}: {self._place(state, major)}, the domain of "
                          f"{CARDS[major].name}. Standing against you: {guards}.")
        self._begin_encounter(state, "sefira", to, cards)

    # --- the encounter --------------------------------------------------------------------------

    def _encounter_move(self, state: State, move: Move) -> None:
        kind = move["type"]
        enc = state["encounter"]
        if kind == "resolve":
            state["queue"] = ([["score", i] for i in range(len(enc["slots"]))]
                              + [["crown"], ["courts"], ["hope"], ["outcome"], ["after_draw"],
                                 ["close"]])
            return
        if kind == "power":
            self._encounter_power(state, move)
            return
        slot = enc["slots"][_slot_index(move["to"])]
        card = move["card"]
        if kind == "play":
            state["hand"].remove(card)
            slot["pip"] = card
            slot["state"] = "engaged"
            self._tale(state, f"You answer {self._who(state, slot['card'])} with {_the(card)}.")
        elif kind == "augment":
            state["party"].remove(card)
            slot["boosts"].append(card)
            enc["used"].append(card)
            self._tale(state, f"{_cap(_a(self._person(state, card)))}, the {CARDS[card].name}, "
                              f"stands behind {_the(slot['pip'])}.")
        elif kind == "defeat":
            state["party"].remove(card)
            slot["boosts"].append(card)
            slot["state"] = "defeated"
            enc["used"].append(card)
            self._tale(state, f"The {CARDS[card].name} steps up to {self._who(state, slot['card'])} "
                              "and wins them over.")

    def _encounter_power(self, state: State, move: Move) -> None:
        major = move["card"]
        enc = state["encounter"]
        slot = enc["slots"][_slot_index(move["to"])] if "to" in move else None
        self._use_power(state, major)
        if major == "M0":
            enc["fool"] = True
        elif major == "M4":
            slot["state"] = "taken"
            self._gain(state, slot["card"], " under the law of the Emperor")
        elif major == "M5":
            enc["kept"] = list(move["cards"])
        elif major == "M6":
            given = move["cards"][0]
            state["hand"].remove(given)
            self._discard(state, given)
            slot["state"] = "taken"
            self._tale(state, f"You recognise yourself in {self._who(state, slot['card'])}: "
                              f"you give {_the(given)} and take them with you.")
            self._gain(state, slot["card"])
        elif major == "M7":
            state["queue"] = [["hope"], ["flee"], ["after_draw"], ["close"]]
        elif major == "M14":
            slot["state"] = "discarded"
            self._discard(state, slot["card"])
            self._tale(state, f"With patient words you send {self._who(state, slot['card'])} away.")
        elif major == "M16":
            paid = move["cards"][0]
            state["party"].remove(paid)
            self._discard(state, paid)
            enc["used"].append(paid)
            self._tale(state, f"{_cap(_the(paid))} is given up to the Tower's fury.")
            self._ask(state, "tower", felled=0)
            state["queue"].append(["resume", "encounter"])

    # --- outside powers -----------------------------------------------------------------------

    def _outside_power(self, state: State, move: Move) -> None:
        major = move["card"]
        self._use_power(state, major)
        if major == "M1":
            space = state["spaces"][move["to"]]
            n = len(space["stack"])
            fresh = state["minors_discard"][:n]
            del state["minors_discard"][:n]
            # Take the replacements first, so the old stack is not simply drawn back.
            old, space["stack"] = space["stack"], fresh
            self._tale(state, f"The cards guarding {_space(move['to'])} melt away and others "
                              "take their place.")
            # The usual order leaves the old stack's top card on top of the pile.
            self._discard_together(state, old[::-1], public=False)
        elif major == "M2":
            pile = state["minors"] if move["to"] == "deck:minors" else state["minors_discard"]
            state["peek"] = pile[-PRIESTESS_LOOK:]
            del pile[-PRIESTESS_LOOK:]
            self._ask(state, "priestess", source=move["to"])
        elif major == "M3":
            self._peek_deck(state, "bottom", 3)
            self._ask(state, "keep", power=major, rest="top")
        elif major == "M8":
            card = move["cards"][0]
            state["wounds"][state["wounds"].index(card)] = None
            self._tale(state, f"You find the strength to take {_the(card)} back from your wounds.")
            self._gain(state, card)
        elif major == "M9":
            state["queue"] += [["draw_choice"], ["draw_choice"]]
        elif major == "M10":
            hand, state["hand"] = state["hand"], []
            n = len(hand)
            self._tale(state, f"You let go of all {n} card{'s' if n != 1 else ''} in your hand.")
            # The draws wait until the hand is on the discard pile, in the order chosen.
            state["queue"].insert(0, ["wheel_draws", n])
            self._discard_together(state, hand, public=False)
        elif major == "M12":
            card = move["cards"][0]
            state["hand"].remove(card)
            self._discard(state, card)
            self._tale(state, f"You sacrifice {_the(card)}.")
            state["queue"] += [["draw_choice"], ["draw_choice"], ["draw_choice"]]
        elif major == "M13":
            card = move["cards"][0]
            state["wounds"][state["wounds"].index(card)] = None
            self._discard(state, card)
            self._tale(state, f"{_cap(_the(card))} is laid to rest, and old memories stir.")
            state["peek"] = state["minors_discard"][:DEATH_LOOK]
            del state["minors_discard"][:DEATH_LOOK]
            self._ask(state, "keep", power=major, rest="discard")
        elif major == "M15":
            self._peek_deck(state, "top", 3)
            self._ask(state, "bargain")
        elif major == "M18":
            self._peek_deck(state, "bottom", 4)
            self._ask(state, "keep", power=major, rest="bottom")
        elif major == "M19":
            state["peek"] = state["minors_discard"][:4]
            del state["minors_discard"][:4]
            self._ask(state, "keep", power=major, rest="bottom")
        elif major == "M20":
            card = state["minors"].pop()
            self._discard(state, card)
            self._tale(state, f"You let {_the(card)} slip from under the deck.")
            self._ask(state, "gate")
        elif major == "M21":
            self._peek_deck(state, "top", 4)
            self._ask(state, "keep", power=major, rest="top")

    def _peek_deck(self, state: State, end: str, n: int) -> None:
        deck = state["minors"]
        if end == "top":
            state["peek"], state["minors"] = deck[:n], deck[n:]
        else:
            state["peek"], state["minors"] = deck[-n:], deck[:-n]

    # --- answers to choices -----------------------------------------------------------------

    def _answer(self, state: State, move: Move) -> None:
        choice = state["choice"]
        kind = choice["kind"]
        state["choice"] = None
        card = move.get("card")
        if kind == "guard":
            self._guard(state, choice, move["type"] == "power")
        elif kind == "draw":
            self._draw(state, "top" if move["type"] == "draw_top" else "bottom")
        elif kind == "hope":
            if move["type"] == "power":
                taken = move["cards"][0]
                self._use_power(state, "M17")
                slot = next(s for s in state["encounter"]["slots"] if s["card"] == taken)
                slot["state"] = "taken"
                self._tale(state, f"Hope keeps {self._who(state, taken)} with you.")
                self._gain(state, taken)
        elif kind == "introspect":
            state["peek"].remove(card)
            self._discard(state, card)
            self._tale(state, f"You look within and let {_the(card)} go.")
            self._put_back(state, "bottom")
        elif kind == "priestess":
            state["peek"].remove(card)
            (state["minors"] if choice["source"] == "deck:minors" else state["minors_discard"]).append(card)
            kept = state["peek"]
            state["peek"] = []
            for c in kept:
                self._gain(state, c)
            self._tale(state, "From the depths you bring up two cards.",
                       f"From the depths you bring up {_list([_the(c) for c in kept])}.")
        elif kind == "keep":
            state["peek"].remove(card)
            self._tale(state, "You keep one card of those you saw.", f"You keep {_the(card)}.")
            self._gain(state, card)
            if choice["rest"] == "discard":
                state["minors_discard"][:0] = state["peek"]
                state["peek"] = []
            else:
                self._put_back(state, choice["rest"])
        elif kind == "order":
            self._place_one(state, choice["end"], card)
            self._put_back(state, choice["end"])
        elif kind == "bargain":
            for c in list(state["peek"]):
                if c != card:
                    state["peek"].remove(c)
                    self._gain(state, c)
            self._tale(state, "You strike the Devil's bargain: two cards are yours, and one "
                              "will cost you.")
            state["queue"].insert(0, ["wound_peek"])
        elif kind == "tower":
            if move["type"] == "target":
                slot = state["encounter"]["slots"][_slot_index(move["to"])]
                slot["state"] = "defeated"
                self._tale(state, f"The Tower strikes down {self._who(state, slot['card'])}.")
                felled = choice["felled"] + 1
                if felled < 2 and any(s["state"] == "open" for s in state["encounter"]["slots"]):
                    self._ask(state, "tower", felled=felled)
        elif kind == "gate":
            state["minors_discard"].remove(card)
            self._tale(state, "Through the Gate you take back one thing you had lost.",
                       f"Through the Gate you take back {_the(card)}.")
            self._gain(state, card)
        elif kind == "pay":
            state["party"].remove(card)
            self._discard(state, card)
            self._help_arrives(state, choice["end"], [choice["first"], card])
        elif kind == "discarding":
            waiting = state["discarding"]["cards"]
            if move["type"] == "discard_rest":
                for c in waiting:
                    self._discard(state, c)
                waiting.clear()
            else:
                waiting.remove(card)
                self._discard(state, card)
            self._settle_discards(state)

    def _place_one(self, state: State, end: str, card: str) -> None:
        state["peek"].remove(card)
        if end == "top":
            state["minors"].insert(0, card)
        else:
            state["minors"].append(card)

    def _put_back(self, state: State, end: str) -> None:
        """Return the looked-at cards to one end of the deck, asking the order while it matters."""
        if len(state["peek"]) > 1:
            self._ask(state, "order", end=end)
        elif state["peek"]:
            self._place_one(state, end, state["peek"][0])

    # --- resolving an encounter, step by step -------------------------------------------------

    def _run(self, state: State) -> None:
        while state["choice"] is None and state["phase"] != "over" and state["queue"]:
            step = state["queue"].pop(0)
            getattr(self, f"_step_{step[0]}")(state, *step[1:])
        if state["phase"] == "over":
            state["queue"] = []
            return
        if state["choice"] is None and not state["queue"] and state["phase"] in REST_PHASES:
            # "If your hand ever holds zero cards outside of an encounter, immediately draw 1."
            while not state["hand"] and self._can_draw(state):
                self._draw(state, "top")
        if state["phase"] != "gate":  # the Gate's choice reads the discard pile as it lies
            self._ensure_deck(state)
        if state["choice"] is None and state["phase"] in CHOICE_PHASES:
            raise AssertionError(f"resolution stopped in phase {state['phase']} with nothing to ask")

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

    def _step_score(self, state: State, i: int) -> None:
        enc = state["encounter"]
        slot = enc["slots"][i]
        if slot["state"] != "engaged":
            return
        if self._strength(state, slot) >= value(slot["card"]):
            slot["state"] = "defeated"
            self._tale(state, f"{_cap(_the(slot['pip']))} overcomes {self._who(state, slot['card'])}.")
            self._spend(state, slot)
        else:
            slot["state"] = "open"
            state["queue"].insert(0, ["wound_slot", i])

    def _spend(self, state: State, slot: dict) -> None:
        """A played pip after the encounter: to the discard, or back to hand for the Fool's
        Aces and the Hierophant's chosen pips."""
        pip, slot["pip"] = slot["pip"], None
        enc = state["encounter"]
        if (enc["fool"] and rank_of(pip) == "A") or pip in enc["kept"]:
            state["hand"].append(pip)
        else:
            self._lay_aside(state, pip)

    def _step_wound_slot(self, state: State, i: int) -> None:
        card = state["encounter"]["slots"][i]["pip"]
        if "M11" in state["party"]:
            self._ask(state, "guard", threat="wound", source="slot", slot=i, card=card)
        else:
            self._guard(state, {"threat": "wound", "source": "slot", "slot": i, "card": card}, False)

    def _step_wound_peek(self, state: State) -> None:
        card = state["peek"][0]
        if "M11" in state["party"]:
            self._ask(state, "guard", threat="wound", source="peek", card=card)
        else:
            self._guard(state, {"threat": "wound", "source": "peek", "card": card}, False)

    def _step_court_discard(self, state: State, i: int, court: str) -> None:
        if "M11" in state["party"]:
            self._ask(state, "guard", threat="court", source="slot", slot=i, card=court)
        else:
            self._guard(state, {"threat": "court", "source": "slot", "slot": i, "card": court}, False)

    def _guard(self, state: State, threat: dict, justice: bool) -> None:
        """A wound or a Party court's discard, unless Justice stops it."""
        card = threat["card"]
        if justice:
            self._use_power(state, "M11")
        if threat["threat"] == "court":
            state["encounter"]["slots"][threat["slot"]]["boosts"].remove(card)
            if justice:
                state["party"].append(card)
                self._tale(state, f"Justice keeps the {CARDS[card].name} at your side.")
            else:
                self._lay_aside(state, card)
            return
        if threat["source"] == "slot":
            slot = state["encounter"]["slots"][threat["slot"]]
            if justice:
                self._tale(state, f"Justice turns aside the blow that {_the(card)} could not stop.")
                self._spend(state, slot)
                return
            slot["pip"] = None
        else:
            state["peek"].remove(card)
            if justice:
                self._tale(state, "Justice spares you the Devil's price.")
                self._discard(state, card)
                return
        wounds = state["wounds"]
        wounds[wounds.index(None)] = card
        n = len(self._wounds(state))
        how = "fails you" if threat["source"] == "slot" else "is the Devil's price"
        self._tale(state, f"{_cap(_the(card))} {how}: you are wounded ({n} of {WOUND_FIELDS}).")
        if n == WOUND_FIELDS:
            self._finish(state, "loss", f"All {WOUND_FIELDS} Wound Fields are full: your spirit "
                                        "breaks, and you wake from the dream without its wisdom.")
            self._tale(state, "The fourth wound breaks your spirit. The dream fades, and you "
                              "return to the waking world with the search unfinished.")
            return
        if threat["source"] == "slot":
            # "This setback also inspires you": a draw from the top or bottom of the deck.
            state["queue"].insert(0, ["draw_choice"])

    def _step_draw_choice(self, state: State) -> None:
        if self._can_draw(state):
            self._ask(state, "draw")

    def _step_wheel_draws(self, state: State, n: int) -> None:
        for _ in range(n):
            self._draw(state, "top")
        while len(state["hand"]) < WHEEL_MINIMUM and self._can_draw(state):
            self._draw(state, "top")

    def _step_crown(self, state: State) -> None:
        enc = state["encounter"]
        if enc["kind"] != "sefira" or enc["space"] != "crown":
            return
        self._note_crown(state)
        if any(s["state"] == "open" for s in enc["slots"]):
            return
        # Victory: the encounter's cards go to the discard (in the usual order: the game is
        # over, so no order is asked), the Crown Major stays where it is.
        for slot in enc["slots"]:
            for court in slot["boosts"]:
                self._lay_aside(state, court)
            slot["boosts"] = []
            if slot["state"] == "defeated":
                self._lay_aside(state, slot["card"])
                slot["state"] = "gone"
        state["spaces"]["crown"]["won"] = True
        crown = state["spaces"]["crown"]["major"]
        self._finish(state, "win", f"You overcame the Crown and met {CARDS[crown].name}: the "
                                   "journey is complete.")
        self._tale(state, f"The Crown yields. You stand before {CARDS[crown].name} at last, and "
                          f"the {state['world']['landscape'].lower()} falls silent as you receive "
                          "its blessing.")

    @staticmethod
    def _note_crown(state: State) -> None:
        """Party cards that took part in an encounter at the Crown, for the seal."""
        enc = state["encounter"]
        if enc["kind"] == "sefira" and enc["space"] == "crown":
            for card in enc["used"]:
                if card not in state["crown_party"]:
                    state["crown_party"].append(card)

    def _step_courts(self, state: State) -> None:
        steps = [["court_discard", i, court] for i, slot in enumerate(state["encounter"]["slots"])
                 for court in slot["boosts"]]
        state["queue"][:0] = steps

    def _step_hope(self, state: State) -> None:
        if "M17" in state["party"] and any(s["state"] == "defeated"
                                           for s in state["encounter"]["slots"]):
            self._ask(state, "hope")

    def _clear_defeated(self, state: State) -> None:
        for slot in state["encounter"]["slots"]:
            if slot["state"] == "defeated":
                self._lay_aside(state, slot["card"])
                slot["state"] = "gone"

    def _step_outcome(self, state: State) -> None:
        self._judge_outcome(state)
        # The encounter's cards are laid on the discard pile before the lost encounter's
        # peek (queued by the judgement) and the draw after the encounter.
        self._settle_discards(state)

    def _judge_outcome(self, state: State) -> None:
        enc = state["encounter"]
        won = not any(s["state"] == "open" for s in enc["slots"])
        self._clear_defeated(state)
        standing = [s for s in enc["slots"] if s["state"] == "open"]
        if enc["kind"] == "travel":
            trigger, enc["trigger"] = enc["trigger"], None
            person = self._person(state, trigger)
            if won:
                self._gain(state, trigger, ", won over on the road")
            else:
                self._lay_aside(state, trigger)
                for slot in standing:
                    self._lay_aside(state, slot["card"])
                    slot["state"] = "gone"
                self._tale(state, f"The {person.lower()} turns away from you, unconvinced.")
                state["queue"].insert(0, ["peek_lost"])
            return
        space_id = enc["space"]
        space = state["spaces"][space_id]
        place = self._place(state, space["major"])
        if won:
            major, space["major"] = space["major"], None
            space["won"] = True
            state["party"].append(major)
            state["gained"].append({"card": major, "from": space_id})
            self._tale(state, f"{_space(space_id)} is overcome: {CARDS[major].name} joins your party.")
            opened = [s for s in SPACES if s in ADJACENT[space_id] and not state["spaces"][s]["open"]]
            for s in opened:
                state["spaces"][s]["open"] = True
            if opened:
                self._tale(state, f"New ways open toward {_list([_space(s) for s in opened])}.")
            if space_id in SUN_MOON and state["majors"]:
                gift = state["majors"].pop(0)
                state["party"].append(gift)
                state["gained"].append({"card": gift, "from": f"{space_id} reward"})
                light = "sunlight" if space_id == "sun" else "moonlight"
                self._tale(state, f"Bathed in {light}, you are joined by {CARDS[gift].name} as well.")
        else:
            space["stack"] = [s["card"] for s in standing]
            for slot in standing:
                slot["state"] = "gone"
            left = "one guardian still stands" if len(standing) == 1 else \
                f"{len(standing)} guardians still stand"
            self._tale(state, f"You fall back from the {place.lower()}; {left}.")
            state["queue"].insert(0, ["peek_lost"])

    def _step_peek_lost(self, state: State) -> None:
        # "You seek introspection: peek at the bottom 3 cards of the Minors deck. Discard 1."
        self._ensure_deck(state)
        n = min(LOST_PEEK, len(state["minors"]))
        if n == 0:
            return
        self._peek_deck(state, "bottom", n)
        if n == 1:
            card = state["peek"].pop()
            self._discard(state, card)
            self._tale(state, f"You look within and let {_the(card)} go.")
            return
        self._ask(state, "introspect")

    def _step_flee(self, state: State) -> None:
        enc = state["encounter"]
        self._clear_defeated(state)
        standing = [s for s in enc["slots"] if s["state"] == "open"]
        if enc["kind"] == "travel":
            trigger, enc["trigger"] = enc["trigger"], None
            self._lay_aside(state, trigger)
            for slot in standing:
                self._lay_aside(state, slot["card"])
            self._tale(state, f"The Chariot carries you away from the "
                              f"{self._person(state, trigger).lower()}.")
        else:
            space = state["spaces"][enc["space"]]
            space["stack"] = [s["card"] for s in standing]
            self._tale(state, f"The Chariot carries you away from the "
                              f"{self._place(state, space['major']).lower()}.")
        for slot in standing:
            slot["state"] = "gone"
        self._settle_discards(state)

    def _step_after_draw(self, state: State) -> None:
        # "Finally, whether you won or lost, draw 1 Minor after every encounter."
        self._draw(state, "top")

    def _step_close(self, state: State) -> None:
        self._note_crown(state)
        enc, state["encounter"] = state["encounter"], None
        if enc["kind"] == "travel":
            state["queue"].insert(0, ["arrive"])
        else:
            state["travel"] = None
            state["phase"] = "travel"

    def _finish(self, state: State, result: str, reason: str) -> None:
        # Cards still waiting (a fourth wound or the Crown's victory mid-resolution) go down
        # in the usual order: with the game over, their order no longer matters.
        for card in state["discarding"]["cards"]:
            self._discard(state, card)
        state["discarding"] = {"cards": [], "public": True}
        state["result"] = {"result": result, "reason": reason}
        state["phase"] = "over"
        state["choice"] = None
        state["queue"] = []

    # --- the contract: outcome, zones, view, reading ------------------------------------------

    def outcome(self, state: State) -> dict | None:
        result = state["result"]
        if result is None:
            return None
        return {"result": result["result"], "winners": [0] if result["result"] == "win" else [],
                "scores": [self.score(state)], "reason": result["reason"]}

    def score(self, state: State) -> int:
        """How many of the twelve spaces the journey overcame."""
        return sum(space["won"] for space in state["spaces"].values())

    def zones(self, state: State) -> dict[str, list[str]]:
        zones = {
            "deck:majors": list(state["majors"]),
            "discard:majors": list(state["majors_discard"]),
            "deck:minors": list(state["minors"]),
            "discard:minors": list(state["minors_discard"]),
            "hand:0": list(state["hand"]),
            "party:0": list(state["party"]),
            "wounds": self._wounds(state),
            "peek": list(state["peek"]),
            "discarding": list(state["discarding"]["cards"]),
            "encounter": self._encounter_cards(state),
        }
        for s in SPACES:
            space = state["spaces"][s]
            zones[f"space:{s}"] = [space["major"]] if space["major"] else []
            zones[f"stack:{s}"] = list(space["stack"])
        return zones

    @staticmethod
    def _encounter_cards(state: State) -> list[str]:
        enc = state["encounter"]
        if enc is None:
            return []
        cards = [enc["trigger"]] if enc["trigger"] else []
        for slot in enc["slots"]:
            if slot["state"] in ("open", "engaged", "defeated"):
                cards.append(slot["card"])
            if slot["pip"]:
                cards.append(slot["pip"])
            cards += slot["boosts"]
        return cards

    def view(self, state: State, seat: int | None) -> dict:
        if seat is not None and seat != 0:
            raise ValueError(f"{self.title} has one seat (0); seat {seat!r} is not in this game")
        player = seat == 0
        spaces = {}
        for s in SPACES:
            space = state["spaces"][s]
            shown = space["open"] or s == "crown"
            spaces[s] = {
                "status": "won" if space["won"] else "attainable" if space["open"] else "unattainable",
                "major": space["major"] if shown else None,
                "major_face_up": bool(space["major"]) and shown,
                "stack_count": len(space["stack"]),
                "stack_top": space["stack"][0] if space["open"] and space["stack"] else None,
            }
        return {
            "game": SLUG,
            "seat": seat,
            "variant": list(state["options"]["variant"]),
            "phase": state["phase"],
            "prompt": self.prompt(state) if player else None,
            "turn": state["turn"],
            "position": state["position"],
            "travel": dict(state["travel"]) if state["travel"] else None,
            "world": dict(state["world"]),
            "spaces": spaces,
            "hand": list(state["hand"]) if player else None,
            "hand_count": len(state["hand"]),
            "party": list(state["party"]),
            "wounds": list(state["wounds"]),
            "minors_deck_count": len(state["minors"]),
            "majors_deck_count": len(state["majors"]),
            "minors_discard": list(state["minors_discard"]),
            "majors_discard": list(state["majors_discard"]),
            # Cards on their way to the discard pile, in the usual order (the last would end
            # on top): the player's own face-up cards; a spectator sees them only if they
            # were on show where they came from (an encounter), else just how many.
            "discarding": self._discarding_view(state, player),
            "discarding_count": len(state["discarding"]["cards"]),
            "encounter": self._encounter_view(state),
            "choice": self._choice_view(state, player),
            "tale": [line[-1] if player else line[0] for line in state["tale"]],
            "score": self.score(state),
            "outcome": self.outcome(state),
            "reading": self._reading_view(state, player),
        }

    def _reading_view(self, state: State, player: bool) -> dict | None:
        if state["phase"] != "over":
            return None
        reading = self.reading(state)
        if not player:
            # The journal's tale names every card the player drew; a spectator reads the
            # public lines, as during play, so the end does not reveal the hand.
            reading["tale"] = [line[0] for line in state["tale"]]
        return reading

    @staticmethod
    def _discarding_view(state: State, player: bool) -> list[str] | None:
        pending = state["discarding"]
        return list(pending["cards"]) if player or pending["public"] else None

    def _encounter_view(self, state: State) -> dict | None:
        enc = state["encounter"]
        if enc is None:
            return None
        slots = []
        for i, slot in enumerate(enc["slots"]):
            if slot["state"] == "gone":
                continue
            present = slot["state"] in ("open", "engaged", "defeated")
            slots.append({
                "id": _slot_id(i),
                "card": slot["card"] if present else None,
                "value": value(slot["card"]) if present else None,
                "state": slot["state"],
                "pip": slot["pip"],
                "boosts": list(slot["boosts"]),
                "strength": self._strength(state, slot) if slot["pip"] else None,
            })
        # The Hierophant's pips, while they are still in play (once back in hand, the hand's).
        pips = {slot["pip"] for slot in enc["slots"]}
        return {"kind": enc["kind"], "space": enc["space"], "trigger": enc["trigger"],
                "slots": slots, "fool": enc["fool"],
                "kept": [c for c in enc["kept"] if c in pips],
                # Majors whose powers this encounter used (the courts show where they stand;
                # a discarded one may since have been shuffled back into the deck).
                "powers_used": [c for c in enc["used"] if c[0] == "M"]}

    def _choice_view(self, state: State, player: bool) -> dict | None:
        choice = state["choice"]
        if choice is None:
            return None
        shown = {"kind": choice["kind"], "prompt": self.prompt(state)}
        for key in ("power", "end", "rest", "source", "threat", "felled", "first"):
            if key in choice:
                shown[key] = choice[key]
        secret = choice["kind"] == "guard" and choice.get("source") == "peek"
        if "card" in choice and (player or not secret):
            shown["card"] = choice["card"]
        # Looked-at cards are shown to the player alone, and only while the power decides.
        if state["peek"]:
            shown["cards"] = list(state["peek"]) if player else None
            shown["count"] = len(state["peek"])
        return shown

    def prompt(self, state: State) -> str:
        phase = state["phase"]
        choice = state["choice"] or {}
        if phase == "travel":
            return ("Choose a branch to travel, or use a Major's power or your Party's help "
                    "before you go.")
        if phase == "arrive":
            return (f"You have reached {_space(state['position'])}. Prepare, or enter its "
                    "encounter.")
        if phase == "encounter":
            return ("Play a pip against each encountered card while your hand lasts; augment "
                    "with Party courts or use powers, then resolve.")
        if phase == "guard":
            if choice["threat"] == "court":
                return f"The {CARDS[choice['card']].name} is about to be discarded: use Justice to keep it?"
            return "A wound is about to be taken: use Justice to prevent it?"
        if phase == "draw":
            return "Draw a Minor from the top or from the bottom of the deck."
        if phase == "hope":
            return "Use The Star to take one of the cards you just defeated?"
        if phase == "introspect":
            return "You peek at the bottom of the deck: discard one; the rest go back beneath it."
        if phase == "priestess":
            return "Choose the card to put back; you keep the other two."
        if phase == "keep":
            return "Choose the card to keep."
        if phase == "order":
            where = "on top of" if choice["end"] == "top" else "beneath"
            return f"Put the cards back {where} the deck one at a time: the last placed is outermost."
        if phase == "bargain":
            return "Choose the card that becomes a wound; you keep the other two."
        if phase == "tower":
            return "Choose an encountered card for the Tower to strike down."
        if phase == "gate":
            return "Take any card from the discard pile."
        if phase == "pay":
            return "Choose the second court card to send."
        if phase == "discarding":
            return ("Put these cards on the discard pile one at a time, in any order (the last "
                    "placed ends on top), or discard the rest in the usual order.")
        return state["result"]["reason"] if state["result"] else ""

    def reading(self, state: State) -> dict:
        """The seal's candidates: the Crown Major, the Party cards that took part in the
        Crown's encounters, and the Majors gained; the player picks two to five later."""
        crown = state["world"]["crown"]
        gained = [dict(g) for g in state["gained"]]
        cards = [crown]
        for card in state["crown_party"] + [g["card"] for g in gained]:
            if card not in cards:
                cards.append(card)
        result = state["result"]
        return {
            "game": SLUG,
            "complete": result is not None,
            "result": result["result"] if result else None,
            "landscape": dict(state["world"]),
            "crown": {"card": crown, "name": CARDS[crown].name, "keyword": CARDS[crown].keyword},
            "crown_party": list(state["crown_party"]),
            "majors_gained": gained,
            "cards": cards,
            "keywords": {c: CARDS[c].keyword for c in cards},
            "seal": {"min": 2, "max": 5},
            "tale": [line[-1] for line in state["tale"]],
        }

    # --- words for menus, mail and errors -----------------------------------------------------

    def describe_move(self, state: State, seat: int, move: Move) -> str:
        kind = move.get("type")
        try:
            card = move.get("card")
            to = move.get("to")
            if kind == "travel":
                space = state["spaces"][to]
                if space["won"]:
                    return f"Travel to {_space(to)} (already overcome: no encounter)"
                return f"Travel to {_space(to)}"
            if kind == "enter":
                return f"Enter the encounter at {_space(state['position'])}"
            if kind in ("assistance", "inspiration"):
                what = "seek assistance (draw from the top)" if kind == "assistance" else \
                    "seek inspiration (draw from the bottom)"
                extra = " and one more court" if card in COURTS else ""
                return f"Discard {_the(card)}{extra} to {what}"
            if kind == "pay":
                return f"Discard {_the(card)} as the second court"
            slot = self._slot_card(state, to)
            if kind == "play":
                return f"Play {_the(card)} against {_the(slot)}"
            if kind == "augment":
                how, n = AUGMENT[rank_of(card)]
                effect = f"+{n}" if how == "add" else "doubled"
                return f"Augment the card played against {_the(slot)} with {_the(card)} ({effect})"
            if kind == "defeat":
                return f"Send {_the(card)} to win over {_the(slot)}"
            if kind == "resolve":
                return "Resolve the encounter"
            if kind == "power":
                return self._describe_power(state, move, slot)
            if kind == "pass":
                return "Let it happen" if state["phase"] == "guard" else "Do not use The Star"
            if kind in ("draw_top", "draw_bottom"):
                return f"Draw from the {'top' if kind == 'draw_top' else 'bottom'} of the deck"
            if kind == "discard":
                if state["phase"] == "discarding":
                    waiting = state["discarding"]["cards"]
                    if len(waiting) == 2:
                        other = next(c for c in waiting if c != card)
                        return f"Discard {_the(card)}, then {_the(other)} on top of it"
                    return f"Discard {_the(card)} next"
                return f"Discard {_the(card)}"
            if kind == "discard_rest":
                waiting = state["discarding"]["cards"]
                return (f"Discard the {len(waiting)} cards in the usual order "
                        f"({_the(waiting[-1])} ends on top)")
            if kind == "replace":
                return f"Put {_the(card)} back and keep the other two"
            if kind == "keep":
                return f"Keep {_the(card)}"
            if kind == "place":
                return (f"Put {_the(card)} {'on top of' if state['choice']['end'] == 'top' else 'beneath'}"
                        " the deck")
            if kind == "wound":
                return f"Let {_the(card)} become a wound"
            if kind == "target":
                return f"Strike down {_the(slot)}"
            if kind == "done":
                return "The Tower strikes no more"
            if kind == "take":
                return f"Take {_the(card)} from the discard pile"
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass
        return super().describe_move(state, seat, move)

    def _slot_card(self, state: State, to: object) -> str | None:
        i = _slot_index(to)
        enc = state["encounter"]
        if i is None or enc is None or i >= len(enc["slots"]):
            return None
        return enc["slots"][i]["card"]

    def _describe_power(self, state: State, move: Move, slot: str | None) -> str:
        major = move["card"]
        title = f"{CARDS[major].name} ({POWERS[major][0]})"
        cards = move.get("cards") or []
        if major == "M1":
            return f"{title}: swap the stack on {_space(move['to'])} for cards from the discard pile"
        if major == "M2":
            pile = "the Minors deck" if move["to"] == "deck:minors" else "the discard pile"
            return f"{title}: look at the bottom 3 of {pile}"
        if major in ("M4", "M14"):
            verb = "take" if major == "M4" else "discard"
            return f"{title}: {verb} {_the(slot)}"
        if major == "M5":
            return f"{title}: keep {_list([_the(c) for c in cards])} after the encounter"
        if major == "M6":
            return f"{title}: give {_the(cards[0])} and take {_the(slot)}"
        if major in ("M8", "M13"):
            return f"{title}: {'take back' if major == 'M8' else 'lay to rest'} the wound {_the(cards[0])}"
        if major == "M12":
            return f"{title}: sacrifice {_the(cards[0])}"
        if major == "M16":
            return f"{title}: give up {_the(cards[0])}"
        if major == "M17":
            return f"{title}: take {_the(cards[0])}"
        if major == "M11":
            return f"{title}: prevent it"
        return f"{title}: {POWERS[major][1]}"

    def explain_illegal(self, state: State, seat: int, move: Move) -> str:
        phase = state["phase"]
        kind = move["type"]
        offered = self.legal_moves(state, seat)
        kinds = {m["type"] for m in offered}
        if kind == "resolve" and phase == "encounter":
            return "While you hold cards, play one against every encountered card first."
        for key in ("card", "to"):
            if key in move and not isinstance(move[key], str):
                return f"\"{key}\" must be a string."
        card = move.get("card")
        if card is not None and not is_card(card):
            return f"{card!r} is not a card code (e.g. \"9p\", \"Qc\", \"M9\")."
        cards = move.get("cards")
        if "cards" in move and (not isinstance(cards, list) or not all(is_card(c) for c in cards)):
            return "\"cards\" must be a list of card codes."
        if kind == "power" and phase in REST_PHASES + ("encounter",):
            return self._explain_power(state, move, offered)
        if kind == "discard_rest":
            if phase != "discarding":
                return f"No cards are waiting to be discarded now. {self.prompt(state)}"
            return "\"discard_rest\" names no card: it discards every card still waiting."
        if phase == "discarding" and kind == "discard" and isinstance(card, str):
            return f"{_cap(_the(card))} is not among the cards waiting to be discarded."
        needs = {m_key for m in offered if m["type"] == kind for m_key in m} - set(move)
        if needs:
            return f"This move needs {', '.join(repr(k) for k in sorted(needs))}."
        family = {"encounter": ("play", "augment", "defeat", "resolve"),
                  "travel": ("travel", "assistance", "inspiration"),
                  "arrive": ("enter", "assistance", "inspiration")}.get(phase, ())
        if kind not in kinds and kind not in family:
            return f"Not now: {self.prompt(state)}"
        if kind in ("assistance", "inspiration") and not self._can_draw(state):
            return "There is no card left to draw, in the deck or the discard pile."
        if kind == "travel":
            return self._explain_travel(state, move.get("to"))
        to = move.get("to")
        if phase == "encounter" and kind in ("play", "augment", "defeat") or kind == "target":
            i = _slot_index(to)
            enc = state["encounter"]
            if i is None or i >= len(enc["slots"]):
                n = len(enc["slots"])
                return (f"{to!r} is not an encountered card; use \"encounter:0\" to "
                        f"\"encounter:{n - 1}\".")
            slot = enc["slots"][i]
            if kind == "play":
                if card not in state["hand"]:
                    return f"{_cap(_the(card))} is not in your hand."
                return f"{_cap(_the(slot['card']))} has already been answered."
            if kind == "target":
                return f"{_cap(_the(slot['card']))} is no longer standing."
            if card not in state["party"]:
                return f"{_cap(_the(card))} is not in your Party."
            if card not in COURTS:
                return "Only court cards augment or win over encountered cards."
            if kind == "augment":
                return "Augment only a card you have already played, still to be resolved."
            if slot["card"] not in COURTS:
                return "A Party court can only win over an encountered court card."
            return (f"{_cap(_the(card))} shares neither suit nor rank with {_the(slot['card'])}, "
                    "or it already faces another card.")
        if kind in ("assistance", "inspiration", "pay"):
            if card not in state["party"]:
                return f"{_cap(_the(card))} is not in your Party."
            return "Pay with one Major or two court cards."
        if kind == "resolve":
            return "While you hold cards, play one against every encountered card first."
        if card is not None:
            return f"{_cap(_the(card))} is not among the cards you may choose."
        return "That move is not allowed now."

    def _explain_power(self, state: State, move: Move, offered: list[Move]) -> str:
        card = move.get("card")
        if card is None:
            return "Name the Major whose power you use: \"card\"."
        if card not in state["party"]:
            return f"{_cap(_the(card))} is not in your Party."
        if card[0] != "M":
            return "Only Majors have powers; court cards augment or win over encountered cards."
        timing = TIMING[card]
        name = CARDS[card].name
        if timing == "encounter" and state["phase"] != "encounter":
            return f"{name} can be used only during an encounter."
        if timing == "outside" and state["phase"] == "encounter":
            return f"{name} cannot be used during an encounter."
        if timing == "guard":
            return "Justice is offered the moment a wound or a Party court's discard threatens."
        if timing == "after":
            return "The Star is offered right after an encounter in which you defeated a card."
        if not [m for m in offered if m["type"] == "power" and m["card"] == card]:
            return (f"{name} cannot be used now: its power needs more cards in the deck or the "
                    "discard pile, or something to act on.")
        return f"That is not a choice {name} offers now; check its target."

    def _explain_travel(self, state: State, to: object) -> str:
        if not isinstance(to, str) or to not in SPACES:
            return f"{to!r} is not a space of the Tree; the spaces are {', '.join(SPACES)}."
        here = state["position"]
        if to == here:
            return f"You are already at {_space(to)}; travel to a neighbouring space."
        if to not in ADJACENT[here]:
            return f"No branch joins {_space(here)} to {_space(to)}."
        return f"{_cap(_space(to))} is not attainable yet: overcome a Sefira next to it first."


RULES = register(DreamOdyssey())

"""Know Thyself: the solitaire mode of Sefirot (rulebook "Know Thyself", RULINGS.md section 4).

The player grows the Tree of Life with Majors and feeds it Minors raised from the Material
Plane, until all ten Sefira hold resolved Majors.  Variations: ``meditative`` (every Major
absorbs twice its value), ``fated`` (a new row only once the current one is full) and
``numerology`` (matches by values totalling a multiple of the sacred number), combinable.

The state is one JSON-able dict.  Its ``phase`` says which kind of choice is open:

``play``        play one hand card: a Major to a space, a Minor to a Seeress column
``choose_set``  Numerology, several sets match: take one (``match``); the plane then settles
``negate``      matched court pairs may negate (``negate``) or everything left is raised
                (``raise``)
``discard``     after a negation: discard hand cards one by one (``discard``), then draw
                up to four (``refill``)
``place``       put the raised cards (``waiting``) on the tree one at a time (``place``)
``over``        the game has ended; ``result`` says how

Each turn starts by itself: the turn's draw needs no decision, so it happens as soon as the
previous turn ends, and a player who then cannot play has lost.
"""

from __future__ import annotations

import functools

from .. import plane as mplane
from ..known_games import register
from ..base import Move, Rules, State, shuffled
from ..cards import CARDS, COURTS, DECK, FOOL, VALUES, is_card, label, short_name, value
from ..drawings import render_know_thyself
from ..tree import (ADJACENT, CENTRAL, GRACE_FIELDS, ROOT, SEFIRA, SPACE_NAMES, SPACES,
                   SPECIAL_CARD)

SLUG = "know_thyself"
HAND_REFILL = 4
OPENING_HAND = 3
COLUMN_NAMES = ("the left Seeress", "the middle Seeress", "the right Seeress")

# The questions the four central Sefira answer in a reading, and the obstacle's (our words).
POSITION_QUESTIONS = {
    "foundation": ("What holds me up?",
                   "The ground you stand on: the supports and the habits you are rooted in."),
    "spirit": ("What lives within me?",
               "Your inner nature, perhaps hidden: a part of you asking to be heard."),
    "knowledge": ("Where should my attention go?",
                  "How you come to understand yourself and the world, and use what you learn."),
    "crown": ("What lifts me up?",
              "What links you to something higher and ennobles you."),
}
OBSTACLE_QUESTION = ("What is in my way?", "A blind spot or an obstacle: the card the game broke on.")

_POSITION_NAMES = {"foundation": "The Foundation", "spirit": "Spirit", "knowledge": "Knowledge",
                   "crown": "The Crown"}
_SEFIRA_SET = frozenset(SEFIRA)
# The special space each special card belongs to (the inverse of SPECIAL_CARD).
SPECIAL_SPACE = {card: space for space, card in SPECIAL_CARD.items()}
_SPACE_ORDER = {space: i for i, space in enumerate(SPACES)}
_LIST_EVENTS = frozenset({"match", "negate", "raise"})
# The empty spaces a branch joins to the tree, for each set of occupied spaces met so far
# (at most 2**12): worked out once, as a game asks on nearly every move.
_OPEN_SPACES: dict[frozenset, tuple[str, ...]] = {}
# The keys each kind of move may carry besides "type" (a play takes "to" or "column").
_MOVE_KEYS = {"play": {"card", "to", "column"}, "place": {"card", "to"}, "match": {"cards"},
              "negate": {"cards"}, "raise": set(), "discard": {"card"}, "refill": set()}


def _the(code: str) -> str:
    """A card name that reads well mid-sentence: "the 9 of Pentacles", "The Hermit"."""
    return CARDS[code].name if code[0] == "M" else f"the {short_name(code)}"


def _The(code: str) -> str:  # noqa: N802 - "The" as it starts a sentence
    text = _the(code)
    return text[0].upper() + text[1:]


def _cards_text(codes: list[str]) -> str:
    names = [_the(c) for c in codes]
    if len(names) < 3:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _log(state: State, event: str) -> None:
    """Record an event as one line of the log text: a kind and its words, lists of cards
    joined by commas ("place 9p wisdom", "match 9p,Qp").

    The log is one string rather than a list because the state is copied on every move and
    one string copies several times faster than a list of them.
    """
    state["log"] += event + "\n"


def _groups_of_new_card(plane: list[list[str]], card: str, column: int) -> list[list[str]]:
    """The groups ``card``, just put on top of ``column`` of a still plane, makes with the
    cards of its suit in its row and in its column: ``plane.suit_groups`` of that plane
    (no other line can hold two cards of a suit), without scanning it all."""
    suit = card[-1]
    col = plane[column]
    row = len(col) - 1
    groups = []
    in_row = [card]
    for other in plane:
        if other is not col and len(other) > row and other[row][-1] == suit:
            in_row.append(other[row])
    if len(in_row) > 1:
        groups.append(mplane.card_order(in_row))
    in_column = [card]
    for x in col:
        if x[-1] == suit and x != card:
            in_column.append(x)
    if len(in_column) > 1:
        groups.append(mplane.card_order(in_column))
    return groups


def _space_name(space: str) -> str:
    return SPACE_NAMES.get(space, space)


class KnowThyself(Rules):
    slug = SLUG
    text_drawing = staticmethod(render_know_thyself)
    title = "Know Thyself"
    summary = ("Solitaire on the Tree of Life: grow the tree with Majors from its root, match "
               "Minors on the Material Plane to raise them, and resolve every Sefira.")
    min_players = 1
    max_players = 1
    variants = ("standard", "meditative", "fated", "numerology")
    combinable = True

    # --- set-up ---------------------------------------------------------------------------

    def setup(self, state: State, options: dict, deck: list[str] | None) -> None:
        unknown = set(options) - {"variant"}
        if unknown:
            raise ValueError(f"Unknown option(s) for {self.title}: {', '.join(sorted(unknown))}")
        variant = options["variant"]
        numerology = "numerology" in variant
        if deck is not None:
            if (not isinstance(deck, list) or len(deck) != len(DECK)
                    or sorted(map(str, deck)) != sorted(DECK)):
                raise ValueError("deck must list each of the 78 card codes exactly once")
            pile = list(deck)
        else:
            pile = shuffled(state, DECK)
        sacred_card = None
        if numerology:
            # Turn cards until one is worth 6-10; its value is the sacred number.  A given
            # deck is used as is (RULINGS 4); a shuffled one is shuffled again afterwards.
            sacred_card = next(c for c in pile if 6 <= value(c) <= 10)
            if deck is None:
                pile = shuffled(state, pile)
        state.update({
            "meditative": "meditative" in variant,
            "fated": "fated" in variant,
            "sacred": value(sacred_card) if sacred_card else None,
            "sacred_card": sacred_card,
            "deck": pile,
            "hand": [],
            "plane": mplane.new_plane(),
            # space -> {"major", "minors", "room" (left to fill), "resolved"}
            "tree": {},
            "grace": [None] * len(GRACE_FIELDS),
            "waiting": [],  # raised cards still to place, in the order they left the plane
            "negatable": [],  # matched groups of this turn that may still negate a pair
            "choices": [],  # Numerology: the sets on offer in "choose_set"
            "refills": 0,  # discard-and-refill rounds owed after negations
            "discard": [],
            "out": [],  # negated: out of the game
            "phase": "play",
            "turn": 0,
            "result": None,
            "log": "",  # one event per line, see _log
        })
        if sacred_card:
            _log(state, f"sacred {state['sacred']}")
        for _ in range(OPENING_HAND):
            self._draw(state)
        self._start_turn(state)

    # --- values ---------------------------------------------------------------------------

    def capacity(self, state: State, space: str) -> int | None:
        """What the Major on ``space`` absorbs, or None for the Fool away from Knowledge
        (resolved by any single Minor, worth 0)."""
        major = state["tree"][space]["major"]
        if major == FOOL:
            if space != "knowledge":
                return None
            v = 40
        else:
            v = CARDS[major].number * (2 if space == "knowledge" else 1)
        return v * 2 if state["meditative"] else v

    def worth(self, state: State, space: str) -> int:
        cap = self.capacity(state, space)
        return 0 if cap is None else cap

    # Each tree slot keeps what is left to fill ("room", None for a Fool that takes any one
    # Minor) and whether it is resolved, so legal_moves never re-adds the Minors.
    def is_resolved(self, state: State, space: str) -> bool:
        return state["tree"][space]["resolved"]

    def fits(self, state: State, space: str, card: str) -> bool:
        slot = state["tree"].get(space)
        if slot is None or slot["resolved"]:
            return False
        return slot["room"] is None or value(card) <= slot["room"]

    def score(self, state: State) -> int:
        return sum(self.worth(state, s) for s, slot in state["tree"].items() if slot["resolved"])

    def _won(self, state: State) -> bool:
        tree = state["tree"]
        return len(tree.keys() & _SEFIRA_SET) == len(SEFIRA) and all(
            slot["resolved"] for slot in tree.values())

    # A new tree and a new slot rather than changed ones: ``copy`` shares them between states.
    def _put_major(self, state: State, card: str, space: str) -> None:
        slot = {"major": card, "minors": [], "room": None, "resolved": False}
        state["tree"] = {**state["tree"], space: slot}
        slot["room"] = self.capacity(state, space)

    def _put_minor(self, state: State, card: str, space: str) -> None:
        old = state["tree"][space]
        room = 0 if old["room"] is None else old["room"] - VALUES[card]  # the Fool off Knowledge: any one Minor
        state["tree"] = {**state["tree"], space: {**old, "minors": old["minors"] + [card], "room": room,
                                                  "resolved": room == 0}}

    def _rest_on_grace(self, state: State, card: str, field: str) -> None:
        grace = state["grace"][:]
        grace[GRACE_FIELDS.index(field)] = card
        state["grace"] = grace

    # --- where cards may go ---------------------------------------------------------------

    def open_spaces(self, state: State) -> list[str]:
        """Every space a Major could go to now, before the Sun and Moon spaces' own rule."""
        taken = frozenset(state["tree"])
        spaces = _OPEN_SPACES.get(taken)
        if spaces is None:
            reach = taken | {ROOT}
            spaces = _OPEN_SPACES[taken] = tuple(
                s for s in SPACES if s not in taken and not ADJACENT[s].isdisjoint(reach))
        if _SEFIRA_SET <= taken:
            return [*spaces, *(g for g, held in zip(GRACE_FIELDS, state["grace"]) if held is None)]
        return list(spaces)

    def major_spaces(self, state: State, card: str, open_spaces: list[str] | None = None) -> list[str]:
        """Where the Major ``card`` may go: open spaces, the Sun and Moon spaces only for
        their own card."""
        if open_spaces is None:
            open_spaces = self.open_spaces(state)
        return [s for s in open_spaces if SPECIAL_CARD.get(s, card) == card]

    def minor_places(self, state: State, card: str) -> list[str]:
        """Where a raised Minor may go now: Sefira it fits on, else empty Grace Fields."""
        v = value(card)
        tree = state["tree"]
        spaces = [s for s in SPACES if s in tree and not tree[s]["resolved"]
                  and (tree[s]["room"] is None or v <= tree[s]["room"])]
        if spaces:
            return spaces
        return [g for g, held in zip(GRACE_FIELDS, state["grace"]) if held is None]

    def _negations(self, state: State) -> list[list[str]]:
        waiting = set(state["waiting"])
        pairs: list[list[str]] = []
        for group in state["negatable"]:
            for pair in mplane.court_pairs(c for c in group if c in waiting):
                if pair not in pairs:
                    pairs.append(pair)
        return pairs

    # --- the contract ---------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == "over" else [0]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        phase = state["phase"]
        if seat != 0 or phase == "over":
            return []
        if phase == "play":
            # major_spaces and open_columns for each hand card, with the open spaces looked
            # up once; half of a game's time is spent listing moves, so no helper calls here.
            moves: list[Move] = []
            fated = state["fated"]
            columns = mplane.open_columns(state["plane"], True) if fated else None
            spaces = None
            for card in state["hand"]:
                if card[0] == "M":
                    if spaces is None:
                        spaces = self.open_spaces(state)
                    special = SPECIAL_SPACE.get(card)
                    for s in spaces:
                        if s in SPECIAL_CARD and s != special:
                            continue  # the Sun and Moon spaces take their own card alone
                        moves.append({"type": "play", "card": card, "to": s})
                elif fated:
                    moves += [{"type": "play", "card": card, "column": c} for c in columns]
                else:  # every Seeress is open
                    moves += ({"type": "play", "card": card, "column": 0},
                              {"type": "play", "card": card, "column": 1},
                              {"type": "play", "card": card, "column": 2})
            return moves
        if phase == "place":
            # minor_places for each waiting card, with the open slots looked up once.
            tree = state["tree"]
            slots = []
            for s in sorted(tree, key=_SPACE_ORDER.__getitem__):  # in SPACES order
                slot = tree[s]
                if not slot["resolved"]:
                    slots.append((s, slot["room"]))
            moves = []
            for card in state["waiting"]:
                v = VALUES[card]
                fits = False
                for s, room in slots:
                    if room is None or v <= room:
                        moves.append({"type": "place", "card": card, "to": s})
                        fits = True
                if not fits:  # no Sefira takes it: it may rest on any empty Grace Field
                    for g, held in zip(GRACE_FIELDS, state["grace"]):
                        if held is None:
                            moves.append({"type": "place", "card": card, "to": g})
            return moves
        if phase == "choose_set":
            return [{"type": "match", "cards": list(s)} for s in state["choices"]]
        if phase == "negate":
            return [{"type": "negate", "cards": p} for p in self._negations(state)] + [
                {"type": "raise"}]
        if phase == "discard":
            return [{"type": "discard", "card": c} for c in state["hand"]] + [{"type": "refill"}]
        raise AssertionError(f"unknown phase {phase}")

    def copy(self, state: State) -> State:
        # play() never changes a list or a dict of the state in place: it puts a new one in
        # its place (a hand without the card played, a tree with one new slot), so the new
        # state may share everything it does not replace with the old one, which keeps its
        # own.  Copying the eight lists and the tree on every move was a fifth of a move.
        # test_apply_never_changes_the_state... and the contract tests guard it.
        return dict(state)

    def normalise_move(self, move: Move) -> Move:
        cards = move.get("cards")
        if isinstance(cards, list) and all(is_card(c) for c in cards):
            return {**move, "cards": mplane.card_order(cards)}
        return move

    def play(self, state: State, seat: int, move: Move) -> None:
        kind = move["type"]
        if kind == "play":
            card = move["card"]
            hand = state["hand"][:]
            hand.remove(card)  # a new list: the old state keeps its hand
            state["hand"] = hand
            if "to" in move:
                to = move["to"]
                state["log"] += f"play {card} {to}\n"  # _log, without its call on a hot path
                if to in GRACE_FIELDS:
                    self._rest_on_grace(state, card, to)
                else:
                    self._put_major(state, card, to)
                self._start_turn(state)  # the turn ends: the next one starts by itself
            else:
                column = move["column"]
                state["log"] += f"play {card} {column}\n"
                # mplane.place, sharing the untouched columns: no code of this game
                # changes a column in place (the plane functions return new ones).
                plane = state["plane"][:]
                plane[column] = plane[column] + [card]
                state["plane"] = plane
                if state["sacred"] is None:
                    # A standard plane is still after every move (``_settle`` matches it
                    # until nothing matches), so only the new card can start a match, in
                    # its row and its column.  Scanning the whole plane for it was a
                    # quarter of a game.
                    groups = _groups_of_new_card(plane, card, column)
                    if groups:
                        self._settle(state, groups)
                    else:
                        self._continue(state)  # nothing matches: the plane stays as it is
                else:
                    self._settle(state)
        elif kind == "place":
            card, to = move["card"], move["to"]
            waiting = state["waiting"][:]
            waiting.remove(card)  # the first of it: the list has each card once
            state["waiting"] = waiting
            state["log"] += f"place {card} {to}\n"
            if to in GRACE_FIELDS:
                self._rest_on_grace(state, card, to)
            else:
                self._put_minor(state, card, to)
                if state["tree"][to]["resolved"]:
                    _log(state, f"resolve {to}")
                    if self._won(state):
                        self._finish_won(state)
                        return
            self._continue(state)
        elif kind == "match":
            self._take_set(state, move["cards"])
            self._settle(state)
        elif kind == "negate":
            self._negate(state, move["cards"])
            state["negatable"] = [g for g in state["negatable"] if not set(move["cards"]) <= set(g)]
            self._continue(state)
        elif kind == "raise":
            _log(state, f"raise {','.join(state['waiting'])}")
            state["negatable"] = []
            self._continue(state)
        elif kind == "discard":
            card = move["card"]
            state["hand"] = [c for c in state["hand"] if c != card]
            state["discard"] = state["discard"] + [card]
            _log(state, f"discard {card}")
        elif kind == "refill":
            drawn = 0
            while len(state["hand"]) < HAND_REFILL and state["deck"]:
                self._draw(state)
                drawn += 1
            state["refills"] -= 1
            _log(state, f"refill {drawn}")
            # A Numerology negation is refilled before the plane matches on (RULINGS 4: the
            # discard and refill come right after the negation); a standard plane is still.
            self._settle(state)
        else:
            raise AssertionError(kind)

    # --- how a turn unfolds -----------------------------------------------------------------

    def _draw(self, state: State) -> None:
        deck = state["deck"]
        card = deck[0]
        state["deck"] = deck[1:]
        state["hand"] = state["hand"] + [card]
        _log(state, f"draw {card}")

    def _start_turn(self, state: State) -> None:
        turn = state["turn"] = state["turn"] + 1
        state["phase"] = "play"
        deck = state["deck"]
        if deck:  # _draw and its log line, with the turn's line: half the string copies
            card = deck[0]
            state["deck"] = deck[1:]
            state["hand"] = state["hand"] + [card]
            state["log"] += f"turn {turn}\ndraw {card}\n"
        else:
            state["log"] += f"turn {turn}\n"
        for card in state["hand"]:
            if card[0] != "M":
                return  # a Minor can always go on some Seeress (_can_play's first answer)
        if not self._can_play(state):
            hand = state["hand"]
            if hand:
                self._finish_lost(state, "Only Majors are left in your hand and none has anywhere to go.",
                                  hand[0])
            else:
                self._finish_lost(state, "Your hand and the deck are both empty: there is nothing left to play.",
                                  None)

    # Quicker than building legal_moves just to see whether it is empty; the property tests
    # check the two always agree.
    def _can_play(self, state: State) -> bool:
        hand = state["hand"]
        for c in hand:
            if c[0] != "M":
                return True  # a Minor can always go on some Seeress
        spaces = self.open_spaces(state) if hand else []
        return any(self.major_spaces(state, c, spaces) for c in hand)

    def _can_place(self, state: State) -> bool:
        if None in state["grace"]:
            return True  # every card either fits a Sefira or may rest on a Grace Field
        low = min(value(c) for c in state["waiting"])
        return any(not slot["resolved"] and (slot["room"] is None or low <= slot["room"])
                   for slot in state["tree"].values())

    def _settle(self, state: State, groups: list[list[str]] | None = None) -> None:
        """Match the plane until it is still (picking Numerology sets as needed), then go on;
        ``groups``, when given, are the standard plane's groups now (see ``plane.cascade``)."""
        if state["sacred"] is None:
            if groups == []:
                self._continue(state)  # nothing matches: the plane stays as it is
                return
            columns, steps = mplane.cascade(state["plane"], groups)
            state["plane"] = columns
            # New lists and one new log for all the steps (the old state keeps its own).
            waiting, negatable, log = state["waiting"][:], state["negatable"][:], state["log"]
            for step in steps:
                waiting += step["left"]
                log += f"match {','.join(step['left'])}\n"  # _log's line
                for group in step["groups"]:
                    if len(COURTS.intersection(group)) >= 2:  # two courts or more may negate
                        negatable.append(group)
            state["waiting"], state["negatable"], state["log"] = waiting, negatable, log
        else:
            while not state["refills"]:  # a court pair just negated: discard and refill first
                sets = mplane.numerology_sets(state["plane"], state["sacred"])
                if not sets:
                    break
                if len(sets) > 1:
                    state["choices"] = sets
                    state["phase"] = "choose_set"
                    return
                self._take_set(state, sets[0])
        self._continue(state)

    def _take_set(self, state: State, cards: list[str]) -> None:
        state["choices"] = []
        if mplane.must_negate(cards):
            state["plane"] = mplane.remove(state["plane"], cards)
            self._negate(state, cards)
        else:
            state["waiting"] = state["waiting"] + mplane.in_leaving_order(state["plane"], cards)
            _log(state, f"match {','.join(cards)}")
            state["plane"] = mplane.remove(state["plane"], cards)

    def _negate(self, state: State, pair: list[str]) -> None:
        state["waiting"] = [c for c in state["waiting"] if c not in pair]
        state["out"] = state["out"] + list(pair)
        state["refills"] += 1
        _log(state, f"negate {','.join(pair)}")

    def _continue(self, state: State) -> None:
        """After the plane has settled: owed refills, then negations, then placing."""
        if state["refills"]:
            state["phase"] = "discard"
            return
        if state["negatable"] and self._negations(state):
            state["phase"] = "negate"
            return
        if state["negatable"]:
            state["negatable"] = []
        if not state["waiting"]:
            self._start_turn(state)
            return
        state["phase"] = "place"
        if not self._can_place(state):
            card = state["waiting"][0]
            self._finish_lost(state, f"{_The(card)} was raised but fits on "
                                     "no Sefira and every Grace Field is taken.", card)

    def _finish_won(self, state: State) -> None:
        state["phase"] = "over"
        score = self.score(state)
        dropped = len(state["waiting"])
        reason = f"All ten Sefira hold resolved Majors: the Tree of Life is complete, scoring {score}."
        if dropped:
            reason += f" ({dropped} raised card{'s' if dropped > 1 else ''} no longer needed a place.)"
        state["result"] = {"result": "win", "reason": reason, "obstacle": None, "score": score}
        _log(state, f"win {score}")

    def _finish_lost(self, state: State, reason: str, obstacle: str | None) -> None:
        state["phase"] = "over"
        state["result"] = {"result": "loss", "reason": reason, "obstacle": obstacle,
                           "score": self.score(state)}
        _log(state, f"loss {obstacle}")

    # --- what may be seen -------------------------------------------------------------------

    def outcome(self, state: State) -> dict | None:
        result = state["result"]
        if result is None:
            return None
        return {"result": result["result"], "winners": [0] if result["result"] == "win" else [],
                "scores": [result["score"]], "reason": result["reason"]}

    def _reading_draws(self, state: State) -> dict[str, tuple[str, str]]:
        """Once the game is over, the Majors the reading lays on the empty central Sefira
        (space -> (card, "hand" or "deck")): from the hand first, then from the deck."""
        if state["phase"] != "over":
            return {}
        obstacle = (state["result"] or {}).get("obstacle")
        spare = [(c, "hand") for c in state["hand"] if c[0] == "M" and c != obstacle]
        spare += [(c, "deck") for c in state["deck"] if c[0] == "M" and c != obstacle]
        drawn = {}
        for space in CENTRAL:
            if not state["tree"].get(space) and spare:
                drawn[space] = spare.pop(0)
        return drawn

    def zones(self, state: State) -> dict[str, list[str]]:
        # The reading's Majors drawn at the end are in the reading, no longer in the deck or
        # the hand: the contract's zones say where every card is.
        read = {card for card, _ in self._reading_draws(state).values()}
        zones = {"deck": [c for c in state["deck"] if c not in read],
                 "hand:0": [c for c in state["hand"] if c not in read]}
        zones["reading"] = [card for card, _ in self._reading_draws(state).values()]
        for c, col in enumerate(state["plane"]):
            zones[f"plane:0:column:{c}"] = list(col)
        for s in SPACES:
            slot = state["tree"].get(s)
            zones[f"space:{s}"] = [slot["major"], *slot["minors"]] if slot else []
        for g, held in zip(GRACE_FIELDS, state["grace"]):
            zones[g] = [held] if held else []
        zones["waiting"] = list(state["waiting"])
        zones["discard"] = list(state["discard"])
        zones["out"] = list(state["out"])
        return zones

    def view(self, state: State, seat: int | None) -> dict:
        player = seat == 0
        over = state["phase"] == "over"
        tree = {}
        for s in SPACES:
            slot = state["tree"].get(s)
            if slot is None:
                continue
            cap = self.capacity(state, s)
            tree[s] = {"major": slot["major"], "minors": list(slot["minors"]),
                       "value": cap if cap is not None else 0,
                       # what is still missing: points, or for the Fool one card of any value
                       "needs": 1 if slot["room"] is None else slot["room"],
                       "takes_any": slot["room"] is None,
                       "resolved": slot["resolved"]}
        return {
            "game": SLUG,
            "seat": seat,
            "variant": list(state["options"]["variant"]),
            "sacred": state["sacred"],
            "sacred_card": state["sacred_card"] if over else None,
            "phase": state["phase"],
            "prompt": self.prompt(state) if player else None,
            "turn": state["turn"],
            "deck_count": len(state["deck"]),
            "hand": list(state["hand"]) if player else None,
            "hand_count": len(state["hand"]),
            "plane": [list(col) for col in state["plane"]],
            "tree": tree,
            "open_spaces": self.open_spaces(state) if not over else [],
            "grace": list(state["grace"]),
            "waiting": list(state["waiting"]),
            "choices": [list(s) for s in state["choices"]],
            "discard": list(state["discard"]),
            "out": list(state["out"]),
            "score": self.score(state),
            "outcome": self.outcome(state),
            "log": self.log_lines(state, seat),
            # The reading reveals hand and deck Majors once the game is over: the player's own.
            "reading": self.reading(state) if over and player else None,
        }

    def prompt(self, state: State) -> str:
        phase = state["phase"]
        if phase == "play":
            return "Play a card: a Major to a Sefira, or a Minor onto a Seeress."
        if phase == "choose_set":
            return (f"Several sets match the sacred number {state['sacred']}: choose which leaves "
                    "the plane first.")
        if phase == "negate":
            return "Matched court cards may negate each other and leave the game, or raise everything."
        if phase == "discard":
            return "Discard any cards you like, then draw back up to four."
        if phase == "place":
            return "Place the raised cards on the Tree, one at a time, in any order."
        return state["result"]["reason"]

    def log_lines(self, state: State, seat: int | None) -> list[str]:
        """The event log in words; draws are named only to the player."""
        player = seat == 0
        return [line for line in (_log_line(entry, player) for entry in state["log"].splitlines()) if line]

    # --- the divination -------------------------------------------------------------------

    def reading(self, state: State) -> dict:
        """The four central Sefira with their Minors; once the game is over the empty ones
        are filled bottom to top from Majors in hand, then Majors from the deck, and a loss
        adds its obstacle."""
        over = state["phase"] == "over"
        result = state["result"] or {}
        obstacle = result.get("obstacle")
        drawn = self._reading_draws(state)
        positions = []
        for space in CENTRAL:
            slot = state["tree"].get(space)
            question, meaning = POSITION_QUESTIONS[space]
            entry = {"space": space, "name": _POSITION_NAMES[space], "question": question,
                     "meaning": meaning, "major": None, "source": None, "minors": [],
                     "resolved": False}
            if slot:
                entry.update(major=slot["major"], source="tree", minors=list(slot["minors"]),
                             resolved=self.is_resolved(state, space))
            elif space in drawn:
                card, source = drawn[space]
                entry.update(major=card, source=source)
            if entry["major"]:
                entry["keyword"] = CARDS[entry["major"]].keyword
                entry["minor_keywords"] = [CARDS[m].keyword for m in entry["minors"]]
                suits: dict[str, int] = {}
                for m in entry["minors"]:
                    suits[m[-1]] = suits.get(m[-1], 0) + 1
                entry["suits"] = suits
                entry["courts"] = sum(m in COURTS for m in entry["minors"])
            positions.append(entry)
        reading = {"game": SLUG, "complete": over, "positions": positions, "obstacle": None,
                   "sacred": state["sacred"]}
        if obstacle:
            question, meaning = OBSTACLE_QUESTION
            reading["obstacle"] = {"card": obstacle, "name": "The Obstacle", "question": question,
                                   "meaning": meaning, "keyword": CARDS[obstacle].keyword}
        reading["cards"] = [c for p in positions if p["major"] for c in [p["major"], *p["minors"]]]
        if obstacle:
            reading["cards"].append(obstacle)
        return reading

    # --- words --------------------------------------------------------------------------------

    def describe_move(self, state: State, seat: int, move: Move) -> str:
        kind = move.get("type")
        try:
            if kind == "play" and "to" in move:
                to = move["to"]
                if to in GRACE_FIELDS:
                    return f"Play {label(move['card'])} to rest on {_space_name(to)}"
                return f"Play {label(move['card'])} to {_space_name(to)}"
            if kind == "play":
                return f"Play {_the(move['card'])} onto {COLUMN_NAMES[move['column']]}"
            if kind == "place":
                card, to = move["card"], move["to"]
                if to in GRACE_FIELDS:
                    return f"Place {_the(card)} on {_space_name(to)}"
                major = state["tree"][to]["major"]
                cap = self.capacity(state, to)
                filled = sum(value(m) for m in state["tree"][to]["minors"]) + value(card)
                if cap is None:
                    return f"Place {_the(card)} on The Fool in {_space_name(to)} (resolves it)"
                done = " (resolves it)" if filled == cap else ""
                return (f"Place {_the(card)} on {CARDS[major].name} in {_space_name(to)}: "
                        f"{filled} of {cap}{done}")
            if kind == "match":
                total = sum(value(c) for c in move["cards"])
                if mplane.must_negate(move["cards"]):
                    return f"Take the court pair {_cards_text(move['cards'])}: they negate"
                return f"Take the set: {_cards_text(move['cards'])} (total {total})"
            if kind == "negate":
                return (f"Negate {_cards_text(move['cards'])}: both leave the game, then discard "
                        "and draw up to four")
            if kind == "raise":
                return "Raise the matched cards without negating any more"
            if kind == "discard":
                return f"Discard {_the(move['card'])}"
            if kind == "refill":
                n = max(0, min(HAND_REFILL - len(state["hand"]), len(state["deck"])))
                return f"Stop discarding and draw {n} card{'s' if n != 1 else ''} (up to four)"
        except (KeyError, IndexError, TypeError, ValueError):
            pass
        return super().describe_move(state, seat, move)

    def explain_illegal(self, state: State, seat: int, move: Move) -> str:
        message = self._explain(state, move)
        return message[0].upper() + message[1:]

    def _explain(self, state: State, move: Move) -> str:
        phase = state["phase"]
        kind = move["type"]
        expected = {"play": ("play",), "place": ("place",), "choose_set": ("match",),
                    "negate": ("negate", "raise"), "discard": ("discard", "refill")}[phase]
        if kind not in expected:
            return f"Not now: {self.prompt(state)}"
        extra = set(move) - {"type"} - _MOVE_KEYS[kind]
        if extra:  # first, or a legal move with a stray key would be refused for the wrong reason
            return f"A {kind} move takes no {', '.join(sorted(extra))}."
        card = move.get("card")
        if kind in ("play", "place", "discard"):
            if not is_card(card):
                return f"{card!r} is not a card code (e.g. \"9p\", \"Qc\", \"M9\")."
            held = state["waiting"] if kind == "place" else state["hand"]
            if card not in held:
                where = "waiting to be placed" if kind == "place" else "in your hand"
                return f"{_The(card)} is not {where}."
        if kind == "play":
            return self._explain_play(state, move, card)
        if kind == "place":
            return self._explain_place(state, move, card)
        if kind in ("match", "negate"):
            cards = move.get("cards")
            if not isinstance(cards, list) or not all(is_card(c) for c in cards):
                return "Give the set as \"cards\": a list of card codes."
            if len(cards) < 2:
                return "A set needs at least two cards."
            if kind == "negate":
                if len(cards) != 2 or not all(c in COURTS for c in cards):
                    return "A negation takes exactly two court cards."
                if not all(c in state["waiting"] for c in cards):
                    return "Only court cards matched this turn may negate."
                return (f"{_cards_text(cards)} were not matched in one group that may still negate.")
            return (f"{_cards_text(cards)} is not a matching set; the sets on offer total a "
                    f"multiple of {state['sacred']} or are a court pair of one suit.")
        return "That move is not allowed now."

    def _explain_play(self, state: State, move: Move, card: str) -> str:
        if card[0] == "M":
            if "column" in move or "to" not in move:
                return f"{label(card)} is a Major: play it to a space of the Tree (\"to\")."
            to = move["to"]
            if not isinstance(to, str) or (to not in SPACES and to not in GRACE_FIELDS):
                return (f"{to!r} is not a space; the spaces are {', '.join(SPACES)} "
                        "and grace:0 to grace:3.")
            if to in GRACE_FIELDS:
                if len(state["tree"].keys() & _SEFIRA_SET) < len(SEFIRA):
                    return "A Major may rest on a Grace Field only once all ten Sefira hold Majors."
                return f"{_space_name(to)} is already taken."
            if to in state["tree"]:
                return f"{_space_name(to)} already holds {label(state['tree'][to]['major'])}."
            if SPECIAL_CARD.get(to, card) != card:
                return f"Only {label(SPECIAL_CARD[to])} may go on {_space_name(to)}."
            return (f"{_space_name(to)} is not joined by a branch to the root or to an occupied "
                    "space.")
        if "to" in move or "column" not in move:
            return f"{_The(card)} is a Minor: play it onto a Seeress (\"column\" 0-2)."
        column = move["column"]
        if type(column) is not int or column not in (0, 1, 2):  # not True, not 1.0
            return f"{column!r} is not a Seeress column; they are 0, 1 and 2."
        opened = mplane.open_columns(state["plane"], state["fated"])
        return ("Fated: a new row waits until the current one is full; play on "
                f"{' or '.join(str(c) for c in opened)}.")

    def _explain_place(self, state: State, move: Move, card: str) -> str:
        to = move.get("to")
        if "column" in move or not isinstance(to, str) or (to not in SPACES and to not in GRACE_FIELDS):
            return f"{to!r} is not a space of the Tree or a Grace Field."
        if to in GRACE_FIELDS:
            fits = [s for s in SPACES if s in state["tree"] and self.fits(state, s, card)]
            if fits:
                return (f"{_The(card)} fits on {_space_name(fits[0])}, "
                        "so it may not go to a Grace Field.")
            return f"{_space_name(to)} is already taken."
        slot = state["tree"].get(to)
        if slot is None:
            return f"{_space_name(to)} holds no Major yet."
        major = CARDS[slot["major"]].name
        if self.is_resolved(state, to):
            return f"{major} on {_space_name(to)} is already resolved."
        cap = self.capacity(state, to)
        cards = slot["minors"] + [card]
        total = sum(value(c) for c in cards)
        return f"{major} needs {cap}; {_cards_text(cards)} would make {total}."


RULES = register(KnowThyself())


@functools.lru_cache(maxsize=8192)
def _log_line(entry: str, player: bool) -> str | None:
    """One line of the event log in words, for the player or anyone else; None for a record
    that is not told.  Each line's words hang on that line alone, and a view tells the whole
    log: remembered, a move late in a game words only its new lines, not all again."""
    kind, *event = entry.split(" ")
    event = [kind] + [e.split(",") if kind in _LIST_EVENTS else e for e in event]
    if kind == "turn":
        return f"Turn {event[1]}."
    if kind == "draw":
        return f"You drew {_the(event[1])}." if player else "A card was drawn."
    if kind == "sacred":
        return f"The sacred number is {event[1]}."
    if kind == "play" and event[2].isdigit():
        return f"{_The(event[1])} was played onto {COLUMN_NAMES[int(event[2])]}."
    if kind == "play":
        return f"{label(event[1])} was played to {_space_name(event[2])}."
    if kind == "match":
        text = _cards_text(event[1])
        return f"{text[0].upper()}{text[1:]} matched and rose to the Heavens."
    if kind == "negate":
        text = _cards_text(event[1])
        return f"{text[0].upper()}{text[1:]} negated each other and left the game."
    if kind == "raise":
        return "The matched cards were raised without negation."
    if kind == "discard":
        return f"{_The(event[1])} was discarded."
    if kind == "refill":
        return f"Drew {event[1]} card{'s' if event[1] != '1' else ''} back up to four."
    if kind == "place":
        return f"{_The(event[1])} was placed on {_space_name(event[2])}."
    if kind == "resolve":
        text = _space_name(event[1])
        return f"{text[0].upper()}{text[1:]} is resolved."
    if kind == "win":
        return f"Victory, scoring {event[1]}."
    if kind == "loss":
        # A Major obstacle is a hand card (the raised ones are Minors that were on the
        # plane for all to see): only the player may read its name.
        obstacle = event[1] if event[1] != "None" else None
        if obstacle and (player or obstacle[0] != "M"):
            return f"Defeat: {label(obstacle)} is the obstacle."
        return "Defeat."
    return None

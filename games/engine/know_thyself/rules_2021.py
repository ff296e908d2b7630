"""Know Thyself as first printed: the 2021 prototype rules (``sefirot-2021-prototype-rules.txt``,
RULINGS.md section 7; the gaps the text leaves are in ``docs/rules-notes/prototype-2021.md``).

The Tree of Life, the four central Sefira of the reading and the words of the log are the
final edition's (``rules.py``, which this subclasses); what the prototype text does
differently lives here:

- Minors are laid on the Material Plane in reading order, and lifted ones leave holes
  (``plane_2021``).  Two or more Minors of one row or column totalling exactly 10, 20 or 30
  must be lifted (the player picks when several sets qualify).
- A Minor may go from the hand straight onto an available Major (or a bridge).
- Lifted Minors are discarded when no Major stands in the Heavens; a lifted Minor that
  fits nowhere rests on a Grace Field, one Minor each; with none left the game is lost.
- Bridges: a Minor laid between two adjacent, uncovered Majors joins them; from then on
  only the bridge takes Minors, and it resolves both once it holds their sum.
- Values are the Majors' numbers; The Fool absorbs 40 on Knowledge (Da'at), and anywhere
  else it never resolves but does not stand in the way of victory.  No Sun and Moon
  spaces, no negation, no Majors on Grace Fields.
- Variations: ``easy`` (twice the values), ``expert`` (no Grace Fields), ``freethought``
  (a Major resolves as soon as it holds any Minor; the reading is marked tainted).

Phases: ``play`` (a hand card), ``choose_set`` (which qualifying set is lifted next),
``place`` (the lifted cards, one at a time), ``over``.

Moves: ``{"type": "play", "card": M, "to": sefira}``; ``{"type": "play", "card": m,
"column": c}`` (only the column of the next slot in reading order);
``{"type": "play", "card": m, "to": sefira | "bridge:a:b"}`` (straight onto a Major, a
bridge, or a new bridge between two adjacent uncovered Majors); ``{"type": "match",
"cards": [...]}``; ``{"type": "place", "card": m, "to": sefira | "bridge:a:b" | "grace:n"}``.
"""

from __future__ import annotations

from .. import plane_2021 as mplane
from ..base import Move, State, shuffled
from ..cards import CARDS, DECK, FOOL, is_card, label, value
from ..drawings import cards_text, render_know_thyself
from .rules import KnowThyself, _cards_text, _the, _The, _log
from ..known_games import register
from ..tree import ADJACENT, GRACE_FIELDS, ROOT, SEFIRA, SPACE_NAMES

SLUG = "know_thyself_2021"
OPENING_HAND = 3
COLUMN_NAMES = ("the left Seeress", "the middle Seeress", "the right Seeress")
_SEFIRA_SET = frozenset(SEFIRA)
_ORDER = {s: i for i, s in enumerate(SEFIRA)}
TAINT = ("Played in Freethought: every Major took any Minors at all, so for divination these "
         "cards are tainted.")


def bridge_id(a: str, b: str) -> str:
    """``bridge:a:b`` with the two Sefira in board order, so a bridge has one name."""
    a, b = sorted((a, b), key=_ORDER.__getitem__)
    return f"bridge:{a}:{b}"


def bridge_spaces(bid: str) -> tuple[str, str] | None:
    parts = bid.split(":") if isinstance(bid, str) else []
    if len(parts) == 3 and parts[0] == "bridge" and parts[1] in _SEFIRA_SET and parts[2] in _SEFIRA_SET:
        return parts[1], parts[2]
    return None


def space_name(space: str) -> str:
    pair = bridge_spaces(space)
    if pair:
        return f"the bridge between {SPACE_NAMES[pair[0]]} and {SPACE_NAMES[pair[1]]}"
    return SPACE_NAMES.get(space, space)


def render(view: dict) -> list[str]:
    """The final edition's drawing of the tree and plane, then the bridges."""
    bridges = view.get("bridges", {})
    # A bridged Major shows its bridge's count; the prototype has no Sun and Moon spaces.
    tree = {s: ({**t, "value": bridges[t["bridge"]]["value"], "needs": bridges[t["bridge"]]["needs"]}
                if t.get("bridge") else t) for s, t in view["tree"].items()}
    lines = [line for line in render_know_thyself({**view, "tree": tree})
             if not line.startswith(("  the Sun space", "  the Moon space"))]
    lines[0] = lines[0].replace("Know Thyself", "Know Thyself (2021 prototype)", 1)
    for bid, b in bridges.items():
        state = "resolved" if b["resolved"] else f"{b['value'] - b['needs']}/{b['value']}"
        text = space_name(bid)
        lines.insert(-3 if view.get("prompt") else len(lines),
                     f"{text[0].upper()}{text[1:]}: {state}, {cards_text(b['minors'])}")
    if view.get("tainted"):
        lines.append("Freethought: this reading is tainted.")
    return lines


class KnowThyself2021(KnowThyself):
    slug = SLUG
    title = "Know Thyself (2021 prototype)"
    summary = ("Solitaire on the Tree of Life as first printed: Minors totalling 10, 20 or 30 in a "
               "row or column rise to the Heavens, and Majors side by side may share a bridge.")
    variants = ("standard", "easy", "expert", "freethought")
    combinable = True
    text_drawing = staticmethod(render)

    # --- set-up ---------------------------------------------------------------------------

    def setup(self, state: State, options: dict, deck: list[str] | None) -> None:
        unknown = set(options) - {"variant"}
        if unknown:
            raise ValueError(f"Unknown option(s) for {self.title}: {', '.join(sorted(unknown))}")
        variant = options["variant"]
        if deck is not None:
            if (not isinstance(deck, list) or len(deck) != len(DECK)
                    or sorted(map(str, deck)) != sorted(DECK)):
                raise ValueError("deck must list each of the 78 card codes exactly once")
            pile = list(deck)
        else:
            pile = shuffled(state, DECK)
        state.update({
            "easy": "easy" in variant, "expert": "expert" in variant,
            "freethought": "freethought" in variant,
            # The final edition's keys its shared code reads; always off here.
            "meditative": False, "fated": False, "sacred": None, "sacred_card": None,
            "negatable": [], "refills": 0,
            "deck": pile, "hand": [], "plane": mplane.new_plane(),
            # space -> {"major", "minors", "room", "resolved", "bridge", "never"}
            "tree": {},
            # bridge id -> {"minors", "room", "resolved"}
            "bridges": {},
            "grace": [] if "expert" in variant else [None] * len(GRACE_FIELDS),
            "waiting": [], "choices": [], "discard": [], "out": [],
            "phase": "play", "turn": 0, "result": None, "log": "",
        })
        for _ in range(OPENING_HAND):
            self._draw(state)
        self._start_turn(state)

    # --- values ---------------------------------------------------------------------------

    def capacity(self, state: State, space: str, major: str | None = None) -> int | None:
        """What the Major on ``space`` (or ``major`` put there) absorbs; None for The Fool
        off Knowledge, which never resolves."""
        major = major or state["tree"][space]["major"]
        if major == FOOL:
            if space != "knowledge":
                return None
            v = 40
        else:
            v = CARDS[major].number
        return v * 2 if state["easy"] else v

    def _put_major(self, state: State, card: str, space: str) -> None:
        cap = self.capacity(state, space, card)
        state["tree"][space] = {"major": card, "minors": [], "room": cap or 0, "resolved": False,
                                "bridge": None, "never": cap is None}

    def _target(self, state: State, to: str) -> dict:
        return state["bridges"][to] if to in state["bridges"] else state["tree"][to]

    def _fits(self, state: State, slot: dict, card: str) -> bool:
        if slot["resolved"] or slot.get("never") or slot.get("bridge"):
            return False
        return state["freethought"] or value(card) <= slot["room"]

    def _new_bridges(self, state: State, card: str) -> list[str]:
        """Bridges ``card`` could make: two adjacent Sefira holding uncovered Majors that
        are unresolved, not bridged, and not The Fool off Knowledge."""
        tree = state["tree"]
        free = [s for s in SEFIRA if s in tree and not tree[s]["minors"] and not tree[s]["resolved"]
                and not tree[s]["bridge"] and not tree[s]["never"]]
        out = []
        for i, a in enumerate(free):
            for b in free[i + 1:]:
                if b in ADJACENT[a] and (state["freethought"]
                                         or value(card) <= tree[a]["room"] + tree[b]["room"]):
                    out.append(bridge_id(a, b))
        return out

    def minor_targets(self, state: State, card: str) -> list[str]:
        """Majors and bridges ``card`` may go on now (before any Grace Field)."""
        tree = state["tree"]
        spots = [s for s in SEFIRA if s in tree and self._fits(state, tree[s], card)]
        spots += [b for b, slot in state["bridges"].items() if self._fits(state, slot, card)]
        return spots + self._new_bridges(state, card)

    def minor_places(self, state: State, card: str) -> list[str]:
        spots = self.minor_targets(state, card)
        if spots:
            return spots
        return [g for g, held in zip(GRACE_FIELDS, state["grace"]) if held is None]

    def _make_bridge(self, state: State, to: str) -> None:
        """A Minor about to go onto a new bridge makes it (logged before the Minor)."""
        pair = bridge_spaces(to)
        if pair and to not in state["bridges"]:
            a, b = pair
            state["bridges"][to] = {"minors": [], "resolved": False,
                                    "room": state["tree"][a]["room"] + state["tree"][b]["room"]}
            state["tree"][a]["bridge"] = state["tree"][b]["bridge"] = to
            _log(state, f"bridge {to}")

    def _add_minor(self, state: State, card: str, to: str) -> None:
        """Lay a Minor on a Major or a bridge."""
        pair = bridge_spaces(to)
        slot = self._target(state, to)
        slot["minors"].append(card)
        slot["room"] -= value(card)
        slot["resolved"] = state["freethought"] or slot["room"] == 0
        if slot["resolved"]:
            _log(state, f"resolve {to}")
            if pair:
                for s in pair:
                    state["tree"][s]["resolved"] = True

    def worth(self, state: State, space: str) -> int:
        return self.capacity(state, space) or 0

    def _won(self, state: State) -> bool:
        tree = state["tree"]
        return len(tree) == len(SEFIRA) and all(slot["resolved"] or slot["never"] for slot in tree.values())

    def open_spaces(self, state: State) -> list[str]:
        """Empty Sefira joined by a branch to the root or an occupied Sefira: the tree grows
        from the bottom.  There are no Sun and Moon spaces, and no Majors on Grace Fields."""
        reach = set(state["tree"]) | {ROOT}
        return [s for s in SEFIRA if s not in state["tree"] and not ADJACENT[s].isdisjoint(reach)]

    def major_spaces(self, state: State, card: str, open_spaces: list[str] | None = None) -> list[str]:
        return self.open_spaces(state) if open_spaces is None else open_spaces

    # --- the contract ---------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        phase = state["phase"]
        if seat != 0 or phase == "over":
            return []
        if phase == "play":
            moves: list[Move] = []
            column = mplane.next_column(state["plane"])
            spaces = None
            for card in state["hand"]:
                if card[0] == "M":
                    if spaces is None:
                        spaces = self.open_spaces(state)
                    moves += [{"type": "play", "card": card, "to": s} for s in spaces]
                else:
                    moves.append({"type": "play", "card": card, "column": column})
                    moves += [{"type": "play", "card": card, "to": s}
                              for s in self.minor_targets(state, card)]
            return moves
        if phase == "choose_set":
            return [{"type": "match", "cards": list(s)} for s in state["choices"]]
        if phase == "place":
            moves = []
            for card in state["waiting"]:
                moves += [{"type": "place", "card": card, "to": s} for s in self.minor_places(state, card)]
            return moves
        raise AssertionError(f"unknown phase {phase}")

    def copy(self, state: State) -> State:
        # Unlike the final edition's, this play() changes the state's lists in place.
        new = dict(state)
        for key in ("deck", "hand", "grace", "waiting", "negatable", "discard", "out"):
            new[key] = state[key][:]
        new["plane"] = [col[:] for col in state["plane"]]
        new["choices"] = state["choices"][:]
        # Its slots and bridges change in place (``_add_minor``, ``_make_bridge``).
        new["tree"] = {s: {**slot, "minors": slot["minors"][:]} for s, slot in state["tree"].items()}
        new["bridges"] = {b: {**slot, "minors": slot["minors"][:]} for b, slot in state["bridges"].items()}
        return new

    def normalise_move(self, move: Move) -> Move:
        move = super().normalise_move(move)
        pair = bridge_spaces(move.get("to"))
        if pair:
            return {**move, "to": bridge_id(*pair)}
        return move

    def play(self, state: State, seat: int, move: Move) -> None:
        kind = move["type"]
        if kind == "play":
            card = move["card"]
            state["hand"].remove(card)
            if "column" in move:
                _log(state, f"play {card} {move['column']}")
                state["plane"] = mplane.place(state["plane"], card)
                self._settle(state)
                return
            to = move["to"]
            if card[0] == "M":
                _log(state, f"play {card} {to}")
                self._put_major(state, card, to)
            else:
                self._make_bridge(state, to)
                _log(state, f"onto {card} {to}")
                self._add_minor(state, card, to)
            if self._won(state):
                self._finish_won(state)
            else:
                self._start_turn(state)
        elif kind == "match":
            self._lift(state, move["cards"])
            self._settle(state)
        elif kind == "place":
            card, to = move["card"], move["to"]
            state["waiting"].remove(card)
            self._make_bridge(state, to)
            _log(state, f"place {card} {to}")
            if to in GRACE_FIELDS:
                state["grace"][GRACE_FIELDS.index(to)] = card
            else:
                self._add_minor(state, card, to)
                if self._won(state):
                    self._finish_won(state)
                    return
            self._continue(state)
        else:
            raise AssertionError(kind)

    # --- how a turn unfolds ---------------------------------------------------------------

    def _can_play(self, state: State) -> bool:
        hand = state["hand"]
        return any(c[0] != "M" for c in hand) or bool(hand and self.open_spaces(state))

    def _settle(self, state: State) -> None:
        """Lift qualifying sets until none is left (asking when several qualify), then place."""
        while True:
            sets = mplane.transfer_sets(state["plane"])
            if not sets:
                break
            if len(sets) > 1:
                state["choices"] = sets
                state["phase"] = "choose_set"
                return
            self._lift(state, sets[0])
        self._continue(state)

    def _lift(self, state: State, cards: list[str]) -> None:
        state["choices"] = []
        state["waiting"] += mplane.in_reading_order(state["plane"], cards)
        _log(state, f"match {','.join(cards)}")
        state["plane"] = mplane.remove(state["plane"], cards)

    def _continue(self, state: State) -> None:
        if not state["waiting"]:
            self._start_turn(state)
            return
        if not state["tree"]:
            # "If there are no Major Arcana in The Heavens, discard these Minor Arcana."
            _log(state, f"lost {','.join(state['waiting'])}")
            state["discard"] += state["waiting"]
            state["waiting"] = []
            self._start_turn(state)
            return
        state["phase"] = "place"
        if not any(self.minor_places(state, c) for c in state["waiting"]):
            card = state["waiting"][0]
            where = "every Grace Field is taken" if not state["expert"] else "Expert has no Grace Fields"
            self._finish_lost(state, f"{_The(card)} was raised but fits on no Major, and {where}.", card)

    # --- what may be seen -------------------------------------------------------------------

    def zones(self, state: State) -> dict[str, list[str]]:
        read = {card for card, _ in self._reading_draws(state).values()}
        zones = {"deck": [c for c in state["deck"] if c not in read],
                 "hand:0": [c for c in state["hand"] if c not in read],
                 "reading": [card for card, _ in self._reading_draws(state).values()]}
        for c, col in enumerate(state["plane"]):
            zones[f"plane:0:column:{c}"] = [x for x in col if x is not None]
        for s in SEFIRA:
            slot = state["tree"].get(s)
            zones[f"space:{s}"] = [slot["major"], *slot["minors"]] if slot else []
        for b, slot in state["bridges"].items():
            zones[b] = list(slot["minors"])
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
        for s in SEFIRA:
            slot = state["tree"].get(s)
            if slot is None:
                continue
            tree[s] = {"major": slot["major"], "minors": list(slot["minors"]),
                       "value": self.worth(state, s), "needs": slot["room"], "takes_any": False,
                       "resolved": slot["resolved"], "bridge": slot["bridge"], "never": slot["never"],
                       # the view of the final edition's determinizer and drawing read "room"
                       "room": slot["room"]}
        bridges = {}
        for b, slot in state["bridges"].items():
            a, c = bridge_spaces(b)
            bridges[b] = {"spaces": [a, c], "minors": list(slot["minors"]),
                          "value": self.worth(state, a) + self.worth(state, c),
                          "needs": slot["room"], "resolved": slot["resolved"]}
        return {
            "game": SLUG, "seat": seat, "edition": "2021",
            "variant": list(state["options"]["variant"]),
            "tainted": state["freethought"],
            "sacred": None, "sacred_card": None,
            "phase": state["phase"],
            "prompt": self.prompt(state) if player else None,
            "turn": state["turn"],
            "deck_count": len(state["deck"]),
            "hand": list(state["hand"]) if player else None,
            "hand_count": len(state["hand"]),
            "plane": [list(col) for col in state["plane"]],
            "next_column": mplane.next_column(state["plane"]),
            "tree": tree, "bridges": bridges,
            "open_spaces": self.open_spaces(state) if not over else [],
            "grace": list(state["grace"]),
            "waiting": list(state["waiting"]),
            "choices": [list(s) for s in state["choices"]],
            "discard": list(state["discard"]),
            "out": list(state["out"]),
            "score": self.score(state),
            "outcome": self.outcome(state),
            "log": self.log_lines(state, seat),
            "reading": self.reading(state) if over and player else None,
        }

    def prompt(self, state: State) -> str:
        phase = state["phase"]
        if phase == "play":
            return ("Play a card: a Major to a Sefira, a Minor onto the next place of the Material "
                    "Plane, onto a Major, or as a bridge between two.")
        if phase == "choose_set":
            return "Several sets total 10, 20 or 30: choose which rises to the Heavens first."
        if phase == "place":
            return "Place the raised cards on the Tree, one at a time, in any order."
        return state["result"]["reason"]

    def log_lines(self, state: State, seat: int | None) -> list[str]:
        lines: list[str] = []
        for entry in state["log"].splitlines():
            kind, *event = entry.split(" ")
            if kind == "turn":
                lines.append(f"Turn {event[0]}.")
            elif kind == "draw":
                lines.append(f"You drew {_the(event[0])}." if seat == 0 else "A card was drawn.")
            elif kind == "play" and event[1].isdigit():
                lines.append(f"{_The(event[0])} was played onto {COLUMN_NAMES[int(event[1])]}.")
            elif kind == "play":
                lines.append(f"{label(event[0])} was played to {space_name(event[1])}.")
            elif kind == "onto":
                lines.append(f"{_The(event[0])} was played from the hand onto {space_name(event[1])}.")
            elif kind == "bridge":
                text = space_name(event[0])
                lines.append(f"{text[0].upper()}{text[1:]} was made.")
            elif kind == "match":
                text = _cards_text(event[0].split(","))
                lines.append(f"{text[0].upper()}{text[1:]} rose to the Heavens.")
            elif kind == "lost":
                lines.append(f"No Major stands in the Heavens: {_cards_text(event[0].split(','))} "
                             "left the game.")
            elif kind == "place":
                lines.append(f"{_The(event[0])} was placed on {space_name(event[1])}.")
            elif kind == "resolve":
                text = space_name(event[0])
                lines.append(f"{text[0].upper()}{text[1:]} is resolved.")
            elif kind == "win":
                lines.append(f"Victory, scoring {event[0]}.")
            elif kind == "loss":
                obstacle = event[0] if event[0] != "None" else None
                if obstacle and (seat == 0 or obstacle[0] != "M"):
                    lines.append(f"Defeat: {label(obstacle)} is the obstacle.")
                else:
                    lines.append("Defeat.")
        return lines

    # --- the divination -------------------------------------------------------------------

    def reading(self, state: State) -> dict:
        """The final edition's four central Sefira (a bridged one shows its bridge's Minors);
        Freethought marks the reading tainted."""
        reading = super().reading(state)
        reading["game"] = SLUG
        reading["edition"] = "2021"
        reading["tainted"] = state["freethought"]
        if state["freethought"]:
            reading["taint"] = TAINT
        for pos in reading["positions"]:
            slot = state["tree"].get(pos["space"])
            if slot and slot["bridge"]:
                pos["minors"] = list(state["bridges"][slot["bridge"]]["minors"])
                pos["minor_keywords"] = [CARDS[m].keyword for m in pos["minors"]]
                pos["bridge"] = slot["bridge"]
        reading["cards"] = [c for p in reading["positions"] if p["major"] for c in [p["major"], *p["minors"]]]
        if reading["obstacle"]:
            reading["cards"].append(reading["obstacle"]["card"])
        return reading

    # --- words ----------------------------------------------------------------------------

    def describe_move(self, state: State, seat: int, move: Move) -> str:
        kind = move.get("type")
        try:
            card, to = move.get("card"), move.get("to")
            if kind == "play" and "column" in move:
                return f"Play {_the(card)} onto {COLUMN_NAMES[move['column']]} (the next place)"
            if kind == "play" and card[0] == "M":
                return f"Play {label(card)} to {space_name(to)}"
            if kind in ("play", "place"):
                verb = "Play" if kind == "play" else "Place"
                if to in GRACE_FIELDS:
                    return f"{verb} {_the(card)} on {space_name(to)}"
                pair = bridge_spaces(to)
                if pair and to not in state["bridges"]:
                    total = sum(self.worth(state, s) for s in pair)
                    done = " (resolves both)" if value(card) == total or state["freethought"] else ""
                    return f"{verb} {_the(card)} as a bridge between {SPACE_NAMES[pair[0]]} and {SPACE_NAMES[pair[1]]}: {value(card)} of {total}{done}"
                slot = self._target(state, to)
                cap = (sum(self.worth(state, s) for s in pair) if pair else self.worth(state, to))
                filled = cap - slot["room"] + value(card)
                done = " (resolves it)" if filled == cap or state["freethought"] else ""
                what = space_name(to) if pair else f"{CARDS[slot['major']].name} in {space_name(to)}"
                return f"{verb} {_the(card)} on {what}: {filled} of {cap}{done}"
            if kind == "match":
                total = sum(value(c) for c in move["cards"])
                return f"Raise the set {_cards_text(move['cards'])} (total {total})"
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass
        return super(KnowThyself, self).describe_move(state, seat, move)

    def explain_illegal(self, state: State, seat: int, move: Move) -> str:
        phase, kind = state["phase"], move["type"]
        expected = {"play": "play", "choose_set": "match", "place": "place"}.get(phase)
        if kind != expected:
            return f"Not now: {self.prompt(state)}"
        card, to = move.get("card"), move.get("to")
        if "to" in move and not isinstance(to, str):
            return "\"to\" must name a space, such as \"foundation\", \"bridge:spirit:foundation\" or \"grace:0\"."
        if kind == "match":
            return "That is not one of the sets on offer; each totals 10, 20 or 30 in one row or column."
        if not is_card(card):
            return f"{card!r} is not a card code (e.g. \"9p\", \"Qc\", \"M9\")."
        held = state["waiting"] if kind == "place" else state["hand"]
        if card not in held:
            return f"{_The(card)} is not {'waiting to be placed' if kind == 'place' else 'in your hand'}."
        if kind == "play" and "column" in move:
            if card[0] == "M":
                return f"{label(card)} is a Major: play it to a Sefira (\"to\")."
            return (f"Minors fill the Material Plane in reading order: the next place is on column "
                    f"{mplane.next_column(state['plane'])}.")
        if card[0] == "M":
            return (f"{label(card)} may go only to an empty Sefira joined by a branch to the root or "
                    "to a Sefira holding a Major.")
        if to in GRACE_FIELDS:
            if kind == "play":
                return "Only raised cards rest on Grace Fields."
            if self.minor_targets(state, card):
                return f"{_The(card)} fits on a Major, so it may not rest on a Grace Field."
            return f"{space_name(to)} is not free."
        pair = bridge_spaces(to)
        if pair and to not in state["bridges"]:
            return (f"A bridge joins two adjacent Majors that hold no Minors and are not bridged, "
                    f"and takes no more than their values together; {space_name(to)} cannot be made "
                    f"with {_the(card)}.")
        slot = state["bridges"].get(to) or state["tree"].get(to)
        if slot is None:
            return f"{space_name(to)} holds no Major."
        if slot.get("bridge"):
            return f"{CARDS[slot['major']].name} is bridged: lay Minors on {space_name(slot['bridge'])}."
        if slot.get("never"):
            return "The Fool away from Knowledge takes no Minors."
        if slot["resolved"]:
            return f"{space_name(to)} is already resolved."
        return f"{_The(card)} ({value(card)}) would overfill {space_name(to)}, which needs {slot['room']}."


RULES = register(KnowThyself2021())

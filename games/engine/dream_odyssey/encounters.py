"""Dream Odyssey, the encounters at each Sefira: fighting the stack with pips and
courts, scoring, wounds, winning or losing one.

A part of ``DreamOdyssey`` (``game.py``), which combines the parts; each method works
on the state dict as described in the package's docstring."""

from __future__ import annotations

from itertools import combinations

from ..base import Move, State
from ..cards import CARDS, COURTS, rank_of, suit_of, value
from .tables import AUGMENT, LOST_PEEK, TIMING, WOUND_FIELDS
from ..tree import ADJACENT, SPACES
from .common import (
    SUN_MOON,
    _a,
    _canon,
    _cap,
    _list,
    _shares,
    _slot_id,
    _slot_index,
    _space,
    _the,
)


class Encounters:
    """The encounters at each Sefira: fighting the stack with pips and courts, scoring,
    wounds, winning or losing one."""

    @staticmethod
    def _strength(state: State, slot: dict) -> int:
        """What a played pip is worth with the Fool's Aces and its augmenting courts."""
        pip = slot["pip"]
        worth = 11 if state["encounter"]["fool"] and rank_of(pip) == "A" else value(pip)
        for court in slot["boosts"]:
            how, n = AUGMENT[rank_of(court)]
            worth = worth + n if how == "add" else worth * n
        return worth

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
        space = self._own_space(state, to)
        cards, space["stack"] = space["stack"], []
        major = space["major"]
        guards = _list([self._who(state, c) for c in cards]) or "no one at all"
        self._tale(state, f"You reach {_space(to)}: {self._place(state, major)}, the domain of "
                          f"{CARDS[major].name}. Standing against you: {guards}.")
        self._begin_encounter(state, "sefira", to, cards)

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

    def _spend(self, state: State, slot: dict) -> None:
        """A played pip after the encounter: to the discard, or back to hand for the Fool's
        Aces and the Hierophant's chosen pips."""
        pip, slot["pip"] = slot["pip"], None
        enc = state["encounter"]
        if (enc["fool"] and rank_of(pip) == "A") or pip in enc["kept"]:
            state["hand"].append(pip)
        else:
            self._lay_aside(state, pip)

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
        space = self._own_space(state, space_id)
        place = self._place(state, space["major"])
        if won:
            major, space["major"] = space["major"], None
            space["won"] = True
            state["party"].append(major)
            state["gained"].append({"card": major, "from": space_id})
            self._tale(state, f"{_space(space_id)} is overcome: {CARDS[major].name} joins your party.")
            opened = [s for s in SPACES if s in ADJACENT[space_id] and not state["spaces"][s]["open"]]
            for s in opened:
                self._own_space(state, s)["open"] = True
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
            space = self._own_space(state, enc["space"])
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

"""Dream Odyssey, the 22 Majors' powers and the choices they ask for (look, keep, order,
bargain, take).

A part of ``DreamOdyssey`` (``game.py``), which combines the parts; each method works
on the state dict as described in the package's docstring."""

from __future__ import annotations

from ..base import Move, State
from ..cards import CARDS
from .tables import DEATH_LOOK, POWERS, PRIESTESS_LOOK, TIMING, WHEEL_MINIMUM
from .common import _cap, _list, _slot_id, _slot_index, _space, _the


class Powers:
    """The 22 Majors' powers and the choices they ask for (look, keep, order, bargain,
    take)."""

    def _use_power(self, state: State, major: str) -> None:
        state["party"].remove(major)
        self._discard(state, major)
        if state["encounter"] is not None:
            state["encounter"]["used"].append(major)
        title = POWERS[major][0]
        self._tale(state, f"{CARDS[major].name} lends you its power: {title.lower()}.")

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

    def _outside_power(self, state: State, move: Move) -> None:
        major = move["card"]
        self._use_power(state, major)
        if major == "M1":
            space = self._own_space(state, move["to"])
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
        self._own_space(state, "crown")["won"] = True  # copy shares the spaces: own it first
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

"""Dream Odyssey, the Unfolding Tale and everything the player reads: the view, the
prompt, moves and refusals in words, the reading.

A part of ``DreamOdyssey`` (``game.py``), which combines the parts; each method works
on the state dict as described in the package's docstring."""

from __future__ import annotations

from ..base import Move, State
from ..cards import CARDS, COURTS, is_card, rank_of, value
from .tables import AUGMENT, COURT_PEOPLE, PLACES
from ..tree import ADJACENT, SPACES
from .common import REST_PHASES, SLUG, _a, _cap, _slot_id, _slot_index, _space, _the


class Tale:
    """The Unfolding Tale and everything the player reads: the view, the prompt, moves and
    refusals in words, the reading."""

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

    def _tale(self, state: State, public: str, private: str | None = None) -> None:
        """One line of the Unfolding Tale; ``private`` names what only the player may know."""
        state["tale"].append([public] if private is None else [public, private])

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
        shown = {
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
        if player:
            shown["known"] = self._known_state(state)
        return shown

    @staticmethod
    def _known_state(state: State) -> dict:
        """The state as the player knows it, for the bots' determinizer
        (``determinize.py``): every card of a face-down pile is a blank ("?M"
        in the Majors' piles and unopened Sefirot, "?m" in the Minors deck and the stacks
        below their tops), any other mention of a card lying face down now is "?x", the
        seed is gone and so is the tale (words only).  Every other card lies face up where
        the player sees it, so this holds no card the rest of the view does not show."""
        hidden = set(state["minors"]) | set(state["majors"])
        for s, space in state["spaces"].items():
            if space["major"] and not (space["open"] or s == "crown"):
                hidden.add(space["major"])
            hidden.update(space["stack"][1 if space["open"] else 0:])

        def blank(item):  # a copy, with the mentions of face-down cards blanked
            if isinstance(item, str):
                return "?x" if item in hidden else item
            if isinstance(item, list):
                return [blank(x) for x in item]
            if isinstance(item, dict):
                return {k: blank(v) for k, v in item.items()}
            return item

        known = {k: blank(v) for k, v in state.items() if k not in ("tale", "seed", "rng")}
        known["minors"] = ["?m"] * len(state["minors"])
        known["majors"] = ["?M"] * len(state["majors"])
        for s, space in state["spaces"].items():
            mine = known["spaces"][s]
            if space["major"] and not (space["open"] or s == "crown"):
                mine["major"] = "?M"
            mine["stack"] = [c if (i == 0 and space["open"]) else "?m"
                             for i, c in enumerate(space["stack"])]
        return known

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

    def _explain_travel(self, state: State, to: object) -> str:
        if not isinstance(to, str) or to not in SPACES:
            return f"{to!r} is not a space of the Tree; the spaces are {', '.join(SPACES)}."
        here = state["position"]
        if to == here:
            return f"You are already at {_space(to)}; travel to a neighbouring space."
        if to not in ADJACENT[here]:
            return f"No branch joins {_space(here)} to {_space(to)}."
        return f"{_cap(_space(to))} is not attainable yet: overcome a Sefira next to it first."

"""Dream Odyssey: the game itself, the parts combined: who acts, which moves are legal, a
move played and the steps it sets going, the end and the score, every card's place."""

from __future__ import annotations

from ..base import Move, Rules, State, copy_state
from ..cards import is_card
from ..drawings import render_dream_odyssey
from ..known_games import register
from ..tree import SPACES
from .common import CHOICE_PHASES, REST_PHASES, SLUG, _canon
from .encounters import Encounters
from .journey import Journey
from .powers import Powers
from .tale import Tale

# How ``DreamOdyssey.copy`` copies each key of the state; a key not named here is copied
# in full (marshal).  Shared: numbers and strings, and dicts that are only ever replaced, never
# changed.  Flat: lists whose items (strings, or small lists and dicts that are never
# changed once made: the queue's steps, the tale's lines, the gains) are shared.
_SHARED = frozenset({"game", "seed", "rng", "players", "moves", "options", "phase", "turn",
                     "position", "world", "result"})
_FLAT = ("majors", "majors_discard", "minors", "minors_discard", "hand", "party", "wounds",
         "peek", "crown_party", "gained", "queue", "tale")
# Copied by their shape: see ``copy``.
_NESTED = frozenset({"spaces", "encounter", "choice", "travel", "discarding"})
_KNOWN = _SHARED | frozenset(_FLAT) | _NESTED


class DreamOdyssey(Journey, Encounters, Powers, Tale, Rules):
    slug = SLUG
    text_drawing = staticmethod(render_dream_odyssey)
    # The Unfolding Tale only grows, a line at a time (Tale._tale): shared, not copied.
    append_only = ("tale",)
    title = "Dream Odyssey"
    summary = ("A solo journey up the Tree of Life: travel its branches, overcome the cards "
               "each Sefira hosts with your hand and your Party, and reach the Crown before "
               "four wounds break your spirit.")
    min_players = 1
    max_players = 1
    variants = ("standard",)
    combinable = False

    # --- set-up ---------------------------------------------------------------------------

    def copy(self, state: State) -> State:
        # The marshal round trip of the whole state was a third of a game: it made a new
        # string for every card of every pile.  Piles are sliced instead (the card strings
        # shared) and the nested parts copied by their known shape; a state of another
        # shape (an older save, a hand-made one) has its unknown parts copied in full.
        new = dict(state)
        if state.keys() != _KNOWN:
            deep = {}
            for key, value in state.items():
                if key not in _SHARED and key not in _FLAT and key not in _NESTED:
                    deep[key] = value
            new.update(copy_state(deep))
        for key in _FLAT:
            if key in state:
                new[key] = state[key][:]
        new["spaces"] = dict(state["spaces"])  # each space copied when changed: _own_space
        enc = state.get("encounter")
        if enc is not None:
            new["encounter"] = {**enc, "slots": [{**slot, "boosts": slot["boosts"][:]}
                                                 for slot in enc["slots"]],
                                "kept": enc["kept"][:], "used": enc["used"][:]}
        for key in ("choice", "travel"):  # flat dicts of names and numbers
            if state.get(key) is not None:
                new[key] = dict(state[key])
        pending = state.get("discarding")
        if pending is not None:
            new["discarding"] = {**pending, "cards": pending["cards"][:]}
        return new

    def _ask(self, state: State, kind: str, **details) -> None:
        state["choice"] = {"kind": kind, **details}
        state["phase"] = kind

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

    def normalise_move(self, move: Move) -> Move:
        cards = move.get("cards")
        if isinstance(cards, list) and len(cards) > 1 and all(is_card(c) for c in cards):
            return {**move, "cards": _canon(cards)}
        return move

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


RULES = register(DreamOdyssey())

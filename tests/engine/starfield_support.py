"""Helpers for the engine tests of the two Starfield games, Lovers' Discourse and Warring
Planets.  Each takes the game's rules first; a test module binds its own with ``partial``.

``arrange`` lays out a position directly (the hands, the board, the planes, the cards waiting
to be placed); every card not named goes to the deck, so the 78 cards stay conserved.
``act`` applies a move and proves the cards still conserved.

``Knowledge`` follows what each seat may know of a game so far, for the checks that no view
(``check_views``) or board drawing shows a hidden card; ``check_moves_and_secrecy`` is the
probe the random games run every few turns.
"""

from __future__ import annotations

import json
import random

import pytest

from games.engine import IllegalMove
from games.engine.base import check_zones
from games.engine.cards import DECK

from .conftest import cards_named

# Lovers' Discourse lays its discards face down; Warring Planets discards only cards both
# rivals have already seen, face up.
DISCARD_FACE_DOWN = {"lovers_discourse"}


def entry_cards(entry: dict) -> list[str]:
    """The cards on one space of the board: a Guard, or Majors with their Minors."""
    return [entry["guard"]] if "guard" in entry else entry["majors"] + entry["minors"]


# --- laying out positions and making moves ----------------------------------------------------

def arrange(rules, *, hands=((), ()), board=None, planes=None, waiting=(), deck=(), empty_deck=False,
            turn=0, phase="play", variant="standard", gifts=None) -> dict:
    """``gifts`` (Lovers' Discourse, which has Gift Fields) gives each field's (card, locked)
    or None."""
    state = rules.new_game(0, 2, {"variant": variant}, deck=list(DECK))
    board = board or {}
    planes = planes or [[[], [], []], [[], [], []]]
    named = [c for h in hands for c in h] + [c for e in board.values() for c in entry_cards(e)]
    named += [c for p in planes for col in p for c in col] + list(waiting) + list(deck)
    named += [g[0] for g in gifts or () if g]
    assert len(named) == len(set(named)), "a card named twice"
    rest = [c for c in DECK if c not in named]
    state.update({
        "hands": [list(h) for h in hands], "board": json.loads(json.dumps(board)),
        "planes": [[list(col) for col in p] for p in planes], "raised": list(waiting),
        "deck": list(deck) + ([] if empty_deck else rest), "discard": rest if empty_deck else [],
        "out": [], "groups": [], "turn": turn, "phase": phase, "log": "", "events": {}, "end": None,
    })
    if gifts is not None:
        state["gifts"] = [None if g is None else {"card": g[0], "locked": g[1]} for g in gifts]
    check_zones(rules.zones(state), DECK)
    return state


def act(rules, state: dict, seat: int, type: str, **keys) -> dict:
    new = rules.apply(state, seat, {"type": type, **keys})
    check_zones(rules.zones(new), DECK)
    return new


def moves(rules, state: dict, seat: int = 0, type: str | None = None, card: str | None = None) -> list[dict]:
    return [m for m in rules.legal_moves(state, seat)
            if (type is None or m["type"] == type) and (card is None or m.get("card") == card)]


def targets(rules, state: dict, card: str, seat: int = 0, type: str = "play") -> set:
    """Where ``card`` may go by a move of ``type``: spaces, Gift Fields or plane columns."""
    return {m.get("to", m.get("column")) for m in moves(rules, state, seat, type, card)}


# --- what each seat may know -----------------------------------------------------------------

def public_cards(rules, state: dict) -> set[str]:
    """Cards lying face up where both seats see them."""
    seen = set(state["out"]) | set(state["raised"])
    if rules.slug not in DISCARD_FACE_DOWN:
        seen |= set(state["discard"])
    for p in state["planes"]:
        for col in p:
            seen |= set(col)
    for e in state["board"].values():
        seen |= set(entry_cards(e))
    seen |= {g["card"] for g in state.get("gifts", ()) if g and not g["locked"]}
    return seen


class Knowledge:
    """What each seat may know of one game so far: every card once face up where both see
    it, and every card once in its own hand.  Ask ``hidden`` about each state of the game in
    turn, since it learns from every state it is shown."""

    def __init__(self, rules):
        self.rules = rules
        self.seen: set[str] = set()
        self.held = [set(), set()]

    def hidden(self, state: dict, seat: int | None) -> set[str]:
        """Every card ``seat`` (None: a spectator) may not know in ``state``: the deck, the
        hands and a face-down discard pile, but for what it has seen or held."""
        zones = self.rules.zones(state)
        self.seen |= public_cards(self.rules, state)
        for s in (0, 1):
            self.held[s] |= set(zones[f"hand:{s}"])
        hidden = set(zones["deck"]) | set(zones["hand:0"]) | set(zones["hand:1"])
        if self.rules.slug in DISCARD_FACE_DOWN:
            hidden |= set(zones["discard"])
        if state["end"] and state["sacred"]:
            # Numerology's sacred card was turned face up before the deal; the view names it
            # once the game is over.
            hidden.discard(state["sacred"]["card"])
        if seat is None:
            return hidden - self.seen
        return hidden - self.seen - self.held[seat] - set(zones[f"hand:{seat}"])


def check_views(rules, state: dict, knows: Knowledge) -> None:
    """No seat's view, nor a spectator's, names a card it may not know."""
    for seat in (0, 1, None):
        leaked = cards_named(rules.view(state, seat)) & knows.hidden(state, seat)
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"


def swap_hidden(rules, state: dict, seat: int, rnd: random.Random) -> dict | None:
    """The same game as ``seat`` knows it, with a hidden card of the other hand swapped for a
    deck card and the deck reshuffled: the seat's view must not change."""
    other = 1 - seat
    seen = public_cards(rules, state)
    mine = [c for c in state["hands"][other] if c not in seen]
    if not mine or not state["deck"]:
        return None
    twin = json.loads(json.dumps(state))
    a = rnd.choice(mine)
    b = rnd.choice(twin["deck"])
    twin["hands"][other][twin["hands"][other].index(a)] = b
    twin["deck"][twin["deck"].index(b)] = a
    rnd.shuffle(twin["deck"])
    return twin


def check_moves_and_secrecy(rules, state: dict, seat: int, legal: list[dict], near_misses: list[dict],
                            rnd: random.Random) -> None:
    """Every legal move has a description; ``near_misses`` (moves off the legal list), and
    the first legal move made by the other seat, are refused and change nothing; and neither
    seat's view changes when a card of the other hand it cannot see is swapped with the deck."""
    assert all(rules.describe_move(state, seat, m) for m in legal)
    before = rules.dumps(state)
    for bad in near_misses:
        with pytest.raises(IllegalMove):
            rules.apply(state, seat, bad)
    with pytest.raises(IllegalMove):
        rules.apply(state, 1 - seat, legal[0])
    assert rules.dumps(state) == before
    for watcher in (0, 1):
        twin = swap_hidden(rules, state, watcher, rnd)
        if twin is not None:
            assert rules.view(twin, watcher) == rules.view(state, watcher)

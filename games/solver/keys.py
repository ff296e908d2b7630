"""What the solver remembers of a state, and which sibling moves it may skip, per game.

A *key* is a canonical encoding of what matters for the rest of the game and nothing
else: two states with one key have the same futures, so the search needs only one of
them.  Leaving out something that does matter would make the search unsound (a state
would be skipped as if already searched), so every key below names what it leaves out
and why that is safe.  Constants of the deal (seed, options, the variant's flags) are left
out everywhere: one search only ever compares states of one deal.

A *prune* hook drops moves whose child is the very position a sibling's child is (a
symmetric move).  It may only drop moves the transposition table would have caught
anyway; it saves their ``apply``.

A game without its own key gets ``generic_key``: the whole state but its move counter
(sound for any game that keeps its contract, only with fewer transpositions found).
"""

from __future__ import annotations

import marshal
from typing import Callable

from games.engine.tree import GRACE_FIELDS

KeyFunction = Callable[[dict], object]
PruneFunction = Callable[[object, dict, list], list]

# Parts of the state every game keeps for its own bookkeeping only: the deal's constants
# and the move counter.  (The log and the like are left out game by game, below, once
# checked that no rule reads them.)
_CONSTANTS = frozenset({"game", "seed", "players", "options", "moves"})


def _without(dropped: frozenset[str]) -> KeyFunction:
    """A key of the whole state but the keys ``dropped`` (besides the constants), as
    marshal bytes: fast, and exact for plain JSON data.  Dicts are encoded in their
    insertion order, so the same position built in two orders may get two keys: a
    transposition missed, never a wrong one."""
    skip = _CONSTANTS | dropped

    def key(state: dict) -> bytes:
        return marshal.dumps([(k, v) for k, v in state.items() if k not in skip], 2)

    return key


generic_key = _without(frozenset())


# --- Know Thyself (final edition) ------------------------------------------------------------

def know_thyself_key(state: dict) -> tuple:
    """Know Thyself's future depends on:

    - the deck: only ever drawn from its top, so within one deal its length says which
      cards are left and in what order;
    - the hand as a set (the order is only the order cards were drawn);
    - the Material Plane with its three columns sorted: matching looks at rows (a card's
      depth) and columns, and the Fated rule at column lengths, none at which column is
      left or right, so swapping two columns swaps nothing that matters;
    - which spaces of the tree are taken (where Majors may still go, and whether all ten
      Sefira hold one), and what is left to fill on the unresolved ones as a multiset (-1
      for the Fool off Knowledge, which takes any one Minor): a raised Minor may go on any
      unresolved Major it fits, wherever it stands, so the rooms' places do not matter.
      Which Major sits where and which Minors fed it count for the score and the reading,
      not for winning;
    - how many Grace Fields are taken (a card resting there never moves again, and the
      four fields are alike);
    - the raised cards waiting (as a set: they are placed in any order), the groups that
      may still negate, the Numerology choices, refills owed and the phase.

    Left out: the log, the turn number, the discard pile and the cards out of the game
    (none is read by a rule), the reading's data.
    """
    tree = state["tree"]
    rooms = []
    for slot in tree.values():
        if not slot["resolved"]:
            rooms.append(-1 if slot["room"] is None else slot["room"])
    return (state["phase"], len(state["deck"]), tuple(sorted(state["hand"])),
            tuple(sorted(map(tuple, state["plane"]))), frozenset(tree), tuple(sorted(rooms)),
            sum(1 for g in state["grace"] if g is not None),
            tuple(sorted(state["waiting"])), tuple(sorted(map(tuple, state["negatable"]))),
            tuple(map(tuple, state["choices"])), state["refills"])


def know_thyself_prune(rules, state: dict, moves: list) -> list:
    """Symmetric moves of Know Thyself, one of each kept: a Minor played onto a column that
    holds exactly what an earlier column holds (two empty Seeresses at the start), and a
    card put on any but the first empty Grace Field (the fields are alike, see the key)."""
    if not moves:
        return moves
    phase = state["phase"]
    if phase == "play":
        plane = state["plane"]
        twins = {c for c in (1, 2) if plane[c] == plane[0]} | ({2} if plane[2] == plane[1] else set())
        if not twins and not any(g is None for g in state["grace"][1:]):
            return moves
        first_grace = _first_empty_grace(state)
        return [m for m in moves if m.get("column") not in twins
                and not (m.get("to", "").startswith("grace:") and m["to"] != first_grace)]
    if phase == "place":
        first_grace = _first_empty_grace(state)
        return [m for m in moves if not (m["to"].startswith("grace:") and m["to"] != first_grace)]
    return moves


def _first_empty_grace(state: dict) -> str | None:
    for g, held in zip(GRACE_FIELDS, state["grace"]):
        if held is None:
            return g
    return None


# --- the others ---------------------------------------------------------------------------

KEYS: dict[str, KeyFunction] = {
    "know_thyself": know_thyself_key,
    # The 2021 edition fills the plane in reading order and keeps holes, so its columns
    # are not interchangeable; its bridges live on the tree.  The log, the turn number,
    # the discard pile and the cards out are read by no rule.
    "know_thyself_2021": _without(frozenset({"log", "turn", "discard", "out"})),
    # Dream Odyssey: the Unfolding Tale and the turn count are words and a number for the
    # page (no rule reads them).  The seed's counter ("rng") stays: an empty Minors deck is
    # reshuffled from the discard pile by it, so two states alike but for it differ later.
    "dream_odyssey": _without(frozenset({"tale", "turn"})),
    # Hermit's Arcana: the log is words for the page.
    "hermits_arcana": _without(frozenset({"log"})),
    # Lovers' Discourse: the log and the reading's events ("contact", "crossed") are read
    # only by the view and the reading.
    "lovers_discourse": _without(frozenset({"log", "events"})),
    "lovers_discourse_2021": _without(frozenset({"log", "events"})),
}

PRUNES: dict[str, PruneFunction] = {
    "know_thyself": know_thyself_prune,
}


def key_function(slug: str) -> KeyFunction:
    return KEYS.get(slug, generic_key)


def _keep_all(rules, state: dict, moves: list) -> list:
    return moves


def prune_function(slug: str) -> PruneFunction:
    return PRUNES.get(slug, _keep_all)

"""The engine contract (ENGINE.md) and the plumbing every game shares.

A game is a ``Rules`` subclass over a plain JSON-serialisable state dict.  ``apply`` is the
only way a state moves on: it checks the move against ``legal_moves`` (the single source of
truth), copies the state and lets the game mutate the copy, so the caller's state never
changes and an illegal move leaves nothing half-applied.
"""

from __future__ import annotations

import json
import marshal
import random
from typing import Any, Iterable

State = dict[str, Any]
Move = dict[str, Any]

MOVE_KEYS = frozenset({"type", "card", "cards", "to", "column"})


class IllegalMove(ValueError):
    """A move that is not legal now, or not well formed; the message is for a person."""


def copy_state(state: State) -> State:
    # marshal round-trips plain dict/list/str/int/bool/None many times faster than
    # copy.deepcopy, and the state holds nothing else by contract.  Format 2 writes no
    # back-references (format 3 and later look every object up to share repeats), which
    # halves the round trip; a JSON state shares nothing anyway (it is stored as text).
    return marshal.loads(marshal.dumps(state, 2))


def rng(state: State) -> random.Random:
    """A generator derived from the game's seed and how many times randomness was used.

    Each call advances the counter kept in the state, so a replay of the same seed and moves
    draws the same numbers and no generator object has to live in the state.
    """
    n = state.get("rng", 0)
    state["rng"] = n + 1
    return random.Random(f"{state['seed']}:{n}")


def shuffled(state: State, cards: Iterable[str]) -> list[str]:
    cards = list(cards)
    # Random.shuffle spelled out (CPython 3.11's own loop and _randbelow): the very same
    # draws, so the same order, without two method calls per card (a tenth of a short game).
    # test_shuffled_is_random_shuffle holds the two together.
    getrandbits = rng(state).getrandbits
    for i, n, k in _shuffle_steps(len(cards)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The shuffle's steps for ``size`` cards: (index, how many cards it may swap with, bits
    to draw), worked out once per size rather than per card of every shuffle."""
    steps = _SHUFFLE_STEPS.get(size)
    if steps is None:
        steps = _SHUFFLE_STEPS[size] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return steps


def check_move_shape(move: object) -> Move:
    """Refuse anything that is not a plain move dict before a game looks at it."""
    if not isinstance(move, dict):
        raise IllegalMove("A move must be an object with a \"type\".")
    if not isinstance(move.get("type"), str):
        raise IllegalMove("A move needs a \"type\" naming what to do.")
    unknown = set(move) - MOVE_KEYS
    if unknown:
        raise IllegalMove(f"A move cannot have the key(s) {', '.join(sorted(map(str, unknown)))}.")
    return move


class Rules:
    """Base of every game.  Subclasses set the class attributes and implement the hooks."""

    slug: str = ""
    title: str = ""
    summary: str = ""  # one or two sentences, in the project's own words
    min_players: int = 1
    max_players: int = 1
    variants: tuple[str, ...] = ("standard",)
    # Variants that may be combined with each other ("standard" combines with nothing).
    combinable: bool = True
    # The players win or lose together (Lovers' Discourse): ``outcome`` names every seat
    # a winner or none, and every seat's score is the same shared one, so the result is
    # worded as a shared one ("you and Bob won together"), never as one seat against another.
    cooperative: bool = False
    # The board drawn in text from a view (terminal play, turn mail): a function of the
    # view, set with ``staticmethod``; None shows the view's fields instead.
    text_drawing = None
    # The last answer of legal_moves: (state, its move and rng counters, seat, moves).
    _last_legal: tuple | None = None
    # Keys of the state holding a log that only ever grows at its end (a list whose items,
    # once appended, never change, or a string): ``copy`` shares the items instead of
    # copying them, so a move costs the same at move 200 as at move 10.
    append_only: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "legal_moves" in cls.__dict__:
            cls.legal_moves = _remembering_legal_moves(cls.__dict__["legal_moves"])

    # --- the contract -------------------------------------------------------------------

    def new_game(self, seed: int, players: int, options: dict | None = None,
                 deck: list[str] | None = None) -> State:
        options = dict(options or {})
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed must be an integer")
        if type(players) is not int:  # True would pass for 1 below
            raise ValueError(f"players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} is for {self.min_players}"
                + (f"-{self.max_players}" if self.max_players != self.min_players else "")
                + f" player(s), not {players}"
            )
        options["variant"] = self.parse_variants(options.get("variant", "standard"))
        state: State = {"game": self.slug, "seed": seed, "rng": 0, "players": players,
                        "options": options, "moves": 0}
        self.setup(state, options, deck)
        return state

    def parse_variants(self, variant: object) -> list[str]:
        names = [variant] if isinstance(variant, str) else variant
        if not isinstance(names, list) or not names or not all(isinstance(v, str) for v in names):
            raise ValueError("options['variant'] must be a variant name or a list of names")
        unknown = [v for v in names if v not in self.variants]
        if unknown:
            raise ValueError(
                f"Unknown variant {unknown[0]!r} for {self.title}; "
                f"choose from {', '.join(self.variants)}"
            )
        chosen = sorted(set(names) - {"standard"}) or ["standard"]
        if len(chosen) > 1 and not self.combinable:
            raise ValueError(f"{self.title} variants cannot be combined")
        return chosen

    def to_act(self, state: State) -> list[int]:
        raise NotImplementedError

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        raise NotImplementedError

    def apply(self, state: State, seat: int, move: Move) -> State:
        if self._listed_just_now(state, seat, move):
            # The very dict legal_moves just gave for this state: legal by definition, and
            # checking it again cost a third of a move (bots and playouts do this always).
            new = self.copy(state)
            self.play(new, seat, move)
            new["moves"] = new.get("moves", 0) + 1
            return new
        move = self.normalise_move(check_move_shape(move))
        # Python counts False equal to 0 (and True and 1.0 equal to 1), so a membership test
        # alone would let such values stand in for a seat or a column.
        if type(seat) is not int:
            raise IllegalMove(f"There is no seat {seat!r} in this game.")
        if seat not in self.to_act(state):
            if self.outcome(state) is not None:
                raise IllegalMove("The game is over.")
            raise IllegalMove("It is not your turn.")
        whole_column = "column" not in move or type(move["column"]) is int
        if not whole_column or move not in self.legal_moves(state, seat):
            raise IllegalMove(self.explain_illegal(state, seat, move))
        new = self.copy(state)
        self.play(new, seat, move)
        new["moves"] = new.get("moves", 0) + 1
        return new

    def _listed_just_now(self, state: State, seat: int, move: Move) -> bool:
        last = self._last_legal
        if (last is None or last[0] is not state or last[1] != state.get("moves")
                or last[2] != state.get("rng") or last[3] != seat or type(seat) is not int):
            return False
        for listed in last[4]:  # a plain loop: any() over a generator cost 1/20 of a move
            if listed is move:
                return True
        return False

    def view(self, state: State, seat: int | None) -> dict:
        raise NotImplementedError

    def zones(self, state: State) -> dict[str, list[str]]:
        raise NotImplementedError

    def outcome(self, state: State) -> dict | None:
        raise NotImplementedError

    def reading(self, state: State) -> dict:
        raise NotImplementedError

    def dumps(self, state: State) -> str:
        return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def loads(self, text: str) -> State:
        state = json.loads(text)
        if not isinstance(state, dict) or state.get("game") != self.slug:
            raise ValueError(f"not a {self.title} state")
        return state

    # --- hooks for subclasses -----------------------------------------------------------

    def setup(self, state: State, options: dict, deck: list[str] | None) -> None:
        raise NotImplementedError

    def play(self, state: State, seat: int, move: Move) -> None:
        """Mutate ``state`` (already a private copy) by a move known to be legal."""
        raise NotImplementedError

    def copy(self, state: State) -> State:
        """A private copy of ``state`` for ``play`` to change.  Games whose ``play`` is
        careful about what it changes may override this with a cheaper, partial copy; the
        contract tests check the given state never changes."""
        if not self.append_only:
            return copy_state(state)
        logs = {key: state[key] for key in self.append_only if key in state}
        copied = copy_state({key: value for key, value in state.items() if key not in logs})
        # Same key order as the original: the new list shares the log's (unchanging) items.
        return {key: (logs[key][:] if isinstance(logs[key], list) else logs[key]) if key in logs
                else copied[key] for key in state}

    def normalise_move(self, move: Move) -> Move:
        """The canonical form of a well-shaped move (e.g. a set of cards in a fixed order),
        so a player need not guess the order ``legal_moves`` lists; must return a new dict
        rather than change the caller's."""
        return move

    def explain_illegal(self, state: State, seat: int, move: Move) -> str:
        """Why ``move`` is not legal now, for a person; games override for better words."""
        kinds = sorted({m["type"] for m in self.legal_moves(state, seat)})
        if move["type"] not in kinds:
            return f"You cannot {move['type'].replace('_', ' ')} now; you may: {', '.join(kinds)}."
        return "That move is not allowed now."

    def describe_move(self, state: State, seat: int, move: Move) -> str:
        """A move in words, for menus, mail and logs (state is the one before the move)."""
        parts = [move["type"].replace("_", " ")]
        for key in ("card", "cards", "to", "column"):
            if key in move:
                parts.append(f"{key}={move[key]}")
        return " ".join(str(p) for p in parts)

    def move_facts(self, state: State, seat: int, move: Move) -> dict:
        """What ``move`` is, so that a page need not work it out: ``draws_hidden`` (it
        takes cards from a face-down pile), ``ends_turn`` (the seat is not to act after
        it), ``ends_game``, and ``irreversible`` (any of those: once sent, it cannot be
        taken back, so a page asks before sending it).  Raises
        ``IllegalMove`` for a move that is not legal now.  Games with other hidden piles
        override it."""
        after = self.apply(state, seat, move)

        def in_decks(s):
            return sum(len(cards) for zone, cards in self.zones(s).items() if "deck" in zone)

        facts = {"draws_hidden": in_decks(after) < in_decks(state),
                 "ends_turn": seat not in self.to_act(after),
                 "ends_game": self.outcome(after) is not None}
        facts["irreversible"] = any(facts.values())
        return facts

    def log_for(self, view: dict, reader: int | None, entries: Iterable[tuple[int, str]]) -> list[str]:
        """The move log as ``reader`` may read it, from (mover, the move's words as
        ``describe_move`` gave them to the mover): a card the reader cannot see in
        ``view`` now is "a card", and another seat's "your" is "their".  Seats are still
        "Seat N" here; ``words.for_reader`` names them."""
        from .words import as_seen_by, cards_in, hidden_among, redact

        entries = list(entries)
        # redact asks only about the cards a text names or gives by code (it says a name as
        # "a card", letters at both ends, so no code comes to stand alone that the text did
        # not hold): whether the view shows those is all there is to find out, and
        # hidden_among need not read all of a long log to answer.
        hidden = hidden_among(view, set().union(*(cards_in(text) for _, text in entries)))
        return [as_seen_by(redact(text, hidden), mover == reader) for mover, text in entries]

    def determinize(self, view: dict, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``view`` (what ``seat`` may know), its hidden cards
        dealt at random by ``rng`` from the cards the seat has not seen; for the bots'
        search.  Built from the view alone, so it cannot reveal the real hidden cards.
        Each game's code is the ``determinize.py`` of its folder (see ``determinize.py``);
        raises ``NotImplementedError`` for a game that has none yet."""
        from .determinize import determinize
        return determinize(self, view, seat, rng)

    # --- helpers every caller uses ------------------------------------------------------

    def replay(self, seed: int, players: int, options: dict | None, moves: Iterable[tuple[int, Move]],
               deck: list[str] | None = None) -> State:
        """Rebuild a game from its record: seed, options and the (seat, move) log."""
        state = self.new_game(seed, players, options, deck)
        for seat, move in moves:
            state = self.apply(state, seat, move)
        return state


def _remembering_legal_moves(legal_moves):
    """Wrap a game's legal_moves so ``apply`` knows a move object it listed a moment ago.

    Only the identity of the state and of the move dict counts, with the state's move and
    randomness counters: a copy, an edited dict or a state that moved on is checked in
    full as before. One answer is kept per Rules object (a shared singleton), so threads
    only ever lose the shortcut, never get a wrong one."""

    def remembering(self, state, seat):
        moves = legal_moves(self, state, seat)
        self._last_legal = (state, state.get("moves"), state.get("rng"), seat, moves)
        return moves

    remembering.__wrapped__ = legal_moves
    remembering.__doc__ = legal_moves.__doc__
    remembering.__name__ = legal_moves.__name__
    return remembering


def check_zones(zones: dict[str, list[str]], expected: Iterable[str]) -> None:
    """Raise AssertionError unless every expected card is in exactly one zone."""
    seen: list[str] = [c for cards in zones.values() for c in cards]
    if sorted(seen) != sorted(expected):
        missing = set(expected) - set(seen)
        dupes = {c for c in seen if seen.count(c) > 1}
        raise AssertionError(f"cards missing {sorted(missing)} duplicated {sorted(dupes)}")

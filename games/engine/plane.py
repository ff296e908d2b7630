"""The Material Plane: three Seeress columns of Minors (Know Thyself, Lovers' Discourse,
Warring Planets; RULINGS.md section 4).

A plane is ``columns: list[list[str]]``, three lists of card codes; ``columns[c][0]`` sits on
the Seeress and each new card goes on top, so a card's row is its depth in its column.  Rows
may have gaps (a short column simply has no card in a high row).  Every function here is
pure: it never changes the lists it is given and returns new ones, so a game may keep one
plane per seat and call these on each.

API
``new_plane()``                        -> ``[[], [], []]``
``rows(columns)``                      rows bottom (row 0) to top, each left to right
``lines(columns)``                     every row, then every column: where matches are sought
``open_columns(columns, fated)``       columns a Minor may go on (fated: only the shortest)
``place(columns, card, column)``       the plane with ``card`` on top of ``column``
``remove(columns, cards)``             the plane without ``cards``, each column closed up
                                       toward its Seeress
``position(columns, card)``            ``(column, row)`` of a card, or ``None``
``in_leaving_order(columns, cards)``   ``cards`` sorted by row, then column (the order in
                                       which cards that leave at once are queued)

Standard matching (by suit)
``suit_groups(columns)``               every same-suit group of 2+ cards in one line
``cascade(columns)``                   take all groups at once, close up, repeat until
                                       nothing matches -> ``(final_columns, steps)`` where
                                       each step is ``{"groups": [...], "left": [...]}``
``court_pairs(cards)``                 every pair of court cards among ``cards``: the
                                       negations a matching group allows (a group holding
                                       two or more courts may negate one such pair)

Numerology matching (by value)
``sum_sets(columns, sacred)``          sets of 2+ cards in one line whose values total a
                                       multiple of ``sacred``
``court_pair_sets(columns)``           two same-suit courts sharing a line: a set by itself
                                       that must negate; courts of different suits never do
``numerology_sets(columns, sacred)``   all candidate sets (both kinds), each once, sorted
``must_negate(cards)``                 whether a set is a same-suit court pair

Sets, groups and pairs are lists in card order (``cards.DECK``), so equal sets compare
equal whatever line they were found in.
"""

from __future__ import annotations

from itertools import combinations, zip_longest
from operator import itemgetter
from typing import Iterable

from .cards import COURTS, DECK, value

Columns = list[list[str]]

COLUMNS = 3
_suit = itemgetter(-1)  # a Minor's suit letter
_ORDER = {code: i for i, code in enumerate(DECK)}


def card_order(cards: Iterable[str]) -> list[str]:
    """``cards`` in deck order: the canonical order of every set and pair."""
    return sorted(cards, key=_ORDER.__getitem__)


def new_plane() -> Columns:
    return [[] for _ in range(COLUMNS)]


def rows(columns: Columns) -> list[list[str]]:
    # A short column leaves None in zip_longest's row, which filter drops (no card code is
    # empty); C loops rather than a length test per column and row, as the cascade asks
    # after every step.
    out = []
    for row in zip_longest(*columns):
        out.append(list(filter(None, row)))
    return out


def lines(columns: Columns) -> list[list[str]]:
    return rows(columns) + [list(col) for col in columns]


def open_columns(columns: Columns, fated: bool = False) -> list[int]:
    """Columns a Minor may be played on; in Fated mode a new row waits until the current
    one is full, which is the same as allowing only the shortest columns."""
    if not fated:
        return list(range(len(columns)))
    low = min(map(len, columns))
    return [c for c, col in enumerate(columns) if len(col) == low]


def place(columns: Columns, card: str, column: int) -> Columns:
    return [col + [card] if c == column else list(col) for c, col in enumerate(columns)]


def remove(columns: Columns, cards: Iterable[str]) -> Columns:
    """Take ``cards`` away; the cards beyond each gap move toward the Seeress to close it
    (the rulebook's "slide up": the Seeresses are drawn at the top of the plane)."""
    gone = set(cards)
    # Plain loops: a comprehension is a call of its own in Python 3.11, and the cascade of
    # a standard plane runs this after every step.
    out = []
    for col in columns:
        kept = []
        for x in col:
            if x not in gone:
                kept.append(x)
        out.append(kept)
    return out


def position(columns: Columns, card: str) -> tuple[int, int] | None:
    for c, col in enumerate(columns):
        if card in col:
            return c, col.index(card)
    return None


def in_leaving_order(columns: Columns, cards: Iterable[str]) -> list[str]:
    where = {}
    for c, col in enumerate(columns):
        for r, x in enumerate(col):
            where[x] = (r, c)
    return sorted(cards, key=where.__getitem__)


# --- standard: by suit ------------------------------------------------------------------------

def suit_groups(columns: Columns) -> list[list[str]]:
    """Every group of two or more cards of one suit within one row or one column.

    A card may belong to two groups (its row's and its column's); both are listed, since
    each group may negate once.
    """
    return _groups_in(rows(columns) + columns)


def _groups_in(lines: list[list[str]]) -> list[list[str]]:
    """Every same-suit group of two or more cards within one of ``lines``, line by line."""
    groups: list[list[str]] = []
    for line in lines:
        if len(line) < 2 or len(set(map(_suit, line))) == len(line):
            continue  # all suits differ: most lines, and the cascade asks after every step
        by_suit: dict[str, list[str]] = {}
        for x in line:
            by_suit.setdefault(x[-1], []).append(x)
        for g in by_suit.values():
            if len(g) > 1:
                groups.append(card_order(g))
    return groups


def cascade(columns: Columns, groups: list[list[str]] | None = None) -> tuple[Columns, list[dict]]:
    """Resolve standard matches until none are left (``groups``, when given, are
    ``suit_groups(columns)``, which the caller already knows).

    All groups found at once leave together, the columns close up and the plane is matched
    again.  Returns the settled plane and the steps, each ``{"groups": [...], "left": [...]}``
    with ``left`` the cards that left in that step, in leaving order.
    """
    steps: list[dict] = []
    while True:
        if groups is None:
            groups = suit_groups(columns)
        if not groups:
            return columns, steps
        leaving = set().union(*groups)
        steps.append({"groups": groups, "left": in_leaving_order(columns, leaving)})
        columns = remove(columns, leaving)
        # Any two cards of a suit in one column were a group, and every group left: what
        # is left of each column holds each suit once, so only the rows can match now.
        groups = _groups_in(rows(columns))


def court_pairs(cards: Iterable[str]) -> list[list[str]]:
    """Every pair of court cards among ``cards``, in card order."""
    courts = card_order(x for x in cards if x in COURTS)
    return [list(p) for p in combinations(courts, 2)]


# --- numerology: by value ---------------------------------------------------------------------

def _line_sum_sets(line: list[str], sacred: int) -> list[list[str]]:
    found: list[list[str]] = []
    # Grow (total, members) for every subset; lines stay short in play (a column of about
    # ``sacred`` cards always holds a matching set), so the 2**n walk is small.
    subsets: list[tuple[int, tuple[str, ...]]] = [(0, ())]
    for x in line:
        v = value(x)
        subsets += [(t + v, members + (x,)) for t, members in subsets]
    for total, members in subsets:
        if len(members) > 1 and total % sacred == 0:
            found.append(card_order(members))
    return found


def sum_sets(columns: Columns, sacred: int) -> list[list[str]]:
    """Sets of two or more cards sharing a line whose values total a multiple of ``sacred``."""
    seen: set[tuple[str, ...]] = set()
    out: list[list[str]] = []
    for line in lines(columns):
        if len(line) < 2:
            continue
        for s in _line_sum_sets(line, sacred):
            key = tuple(s)
            if key not in seen:  # two cards share at most one line, but stay safe
                seen.add(key)
                out.append(s)
    return out


def court_pair_sets(columns: Columns) -> list[list[str]]:
    """Two courts of one suit sharing a line: in Numerology such a pair always negates."""
    out: list[list[str]] = []
    for line in lines(columns):
        courts = [x for x in line if x in COURTS]
        for a, b in combinations(courts, 2):
            if a[-1] == b[-1]:
                out.append(card_order((a, b)))
    return out


def must_negate(cards: list[str]) -> bool:
    return len(cards) == 2 and all(x in COURTS for x in cards) and cards[0][-1] == cards[1][-1]


def numerology_sets(columns: Columns, sacred: int) -> list[list[str]]:
    """Every set the player may take now in Numerology, each once, in a stable order
    (by size, then card order)."""
    found = {tuple(s) for s in sum_sets(columns, sacred)}
    found |= {tuple(s) for s in court_pair_sets(columns)}
    return [list(s) for s in sorted(found, key=lambda s: (len(s), [_ORDER[x] for x in s]))]

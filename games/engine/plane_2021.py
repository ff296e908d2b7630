"""The Material Plane as the 2021 prototype lays it out (RULINGS.md section 7).

The same three Seeress columns as ``plane.py`` (``columns[c][r]``, row 0 on the
Seeresses), with two differences of the prototype text:

- Minors are laid in reading order: the first empty slot of the three-wide grid, left to
  right, rows downward; there is no choice of column.
- Cards that are lifted leave holes (``None``) that the next Minors fill first: nothing
  slides.  Trailing holes at the end of a column are dropped, so an empty plane is
  ``[[], [], []]`` again.

A transfer is a set of two or more cards of one row or one column whose values total
exactly 10, 20 or 30 (a court card counts 10); when several sets qualify the player
chooses one (RULINGS 7: the footnote behind "10, 20, or 30*" is lost).

Every function is pure: it returns new lists and never changes what it is given.
"""

from __future__ import annotations

from typing import Iterable

from .cards import value
from .plane import _ORDER, card_order, new_plane  # noqa: F401  (new_plane: the same empty plane)

Columns = list[list]  # list[list[str | None]]
TOTALS = (10, 20, 30)


def next_slot(columns: Columns) -> tuple[int, int]:
    """``(column, row)`` of the first empty slot in reading order."""
    height = max(map(len, columns), default=0)
    for r in range(height + 1):
        for c, col in enumerate(columns):
            if r >= len(col) or col[r] is None:
                return c, r
    raise AssertionError("unreachable: row `height` is always empty")


def next_column(columns: Columns) -> int:
    return next_slot(columns)[0]


def place(columns: Columns, card: str) -> Columns:
    """The plane with ``card`` in the first empty slot of reading order."""
    c, r = next_slot(columns)
    new = [list(col) for col in columns]
    col = new[c]
    while len(col) <= r:
        col.append(None)
    col[r] = card
    return new


def _trim(col: list) -> list:
    while col and col[-1] is None:
        col.pop()
    return col


def remove(columns: Columns, cards: Iterable[str]) -> Columns:
    """Lift ``cards``: each leaves a hole where it lay."""
    gone = set(cards)
    return [_trim([None if x in gone else x for x in col]) for col in columns]


def cards_of(columns: Columns) -> list[str]:
    """Every card on the plane, column by column."""
    return [x for col in columns for x in col if x is not None]


def rows(columns: Columns) -> list[list[str]]:
    height = max(map(len, columns), default=0)
    return [[col[r] for col in columns if len(col) > r and col[r] is not None] for r in range(height)]


def lines(columns: Columns) -> list[list[str]]:
    """Every row, then every column: the lines in which transfers are sought."""
    return rows(columns) + [[x for x in col if x is not None] for col in columns]


def in_reading_order(columns: Columns, cards: Iterable[str]) -> list[str]:
    where = {x: (r, c) for c, col in enumerate(columns) for r, x in enumerate(col) if x is not None}
    return sorted(cards, key=where.__getitem__)


def _line_sets(line: list[str]) -> list[tuple[str, ...]]:
    """Subsets of two or more cards of ``line`` totalling 10, 20 or 30.  Values are all
    positive, so a walk that stops past 30 stays small however long the line grows."""
    found: list[tuple[str, ...]] = []
    items = sorted(line, key=value)
    vals = [value(x) for x in items]

    def walk(start: int, total: int, members: tuple[str, ...]) -> None:
        for i in range(start, len(items)):
            t = total + vals[i]
            if t > TOTALS[-1]:
                return  # sorted: every later card is worth at least as much
            m = members + (items[i],)
            if len(m) > 1 and t in TOTALS:
                found.append(m)
            walk(i + 1, t, m)

    walk(0, 0, ())
    return found


def transfer_sets(columns: Columns) -> list[list[str]]:
    """Every set that must be lifted now, each once, by size then card order."""
    found = {tuple(card_order(s)) for line in lines(columns) if len(line) > 1 for s in _line_sets(line)}
    return [list(s) for s in sorted(found, key=lambda s: (len(s), [_ORDER[x] for x in s]))]

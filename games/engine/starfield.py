"""The Starfield board (RULINGS.md section 5) as data, shared by Lovers' Discourse and
Warring Planets.

API (plain data and pure functions; nothing here changes what it is given):

``SPACES``              the 13 space ids: left column ``L0``-``L3``, centre ``C0``-``C4``,
                        right column ``R0``-``R3`` (index 0 at seat 0's edge)
``CENTRAL``             ``"C2"``, the central space (where The Sun and The Moon may share)
``COLUMN_EDGES``        neighbours within each column, as ``(a, b)`` pairs
``RING_EDGES``          the four Ouroboros edges: L1-C1, R1-C1, L2-C3, R2-C3
``EDGES``               both of the above: every adjacency of the board
``ADJACENT``            ``{space: frozenset(neighbours)}``
``SEAT_EDGE``           ``(("L0", "C0", "R0"), ("L3", "C4", "R3"))``: each seat's edge
``RINGS``               ``{"left": (C1, L1, L2, C3), "right": (C1, R1, R2, C3)}``, each from
                        seat 0's tip to seat 1's tip
``RING_MEETINGS``       ``("C1", "C3")``: where the two rings meet
``GIFT_FIELDS``         ``("gift:0", "gift:1")``: the Moon in seat 0's corner, the Sun in
                        seat 1's corner (Lovers' Discourse only); ``gift:n`` is seat n's own
``GIFT_NAMES``          ``{"gift:0": "the Moon", "gift:1": "the Sun"}``
``COLUMNS``             ``{"L": (L0..L3), "C": (C0..C4), "R": (R0..R3)}``
``COLUMN_MEANINGS``     L emotional (nearest the Moon), C spiritual, R intellectual
``LAYOUT``              ``{space or gift field: (x, y)}`` grid coordinates as seat 0 sees the
                        board: x 0..4 (Moon field, L, C, R, Sun field), y 0..6 from seat 1's
                        edge (top) to seat 0's edge (bottom)
``layout_for(seat)``    the same coordinates turned so that ``seat``'s edge is at the bottom
``side(space)``         the seat whose half of the board holds ``space`` (``None`` for C2)
``distance(seat, space)`` steps from ``seat``'s edge to ``space`` along the board's edges
``connected(starts, passable)`` every space reachable from ``starts`` through ``passable``
``joined_to_edge(seat, occupied)`` the occupied spaces joined to ``seat``'s edge through
                        occupied spaces
``edges_joined(occupied)`` whether occupied spaces join the two edges
``reach(origins, passable)`` spaces next to an origin, counting as "next to" a space beyond
                        a run of ``passable`` spaces (adjacency across resolved Sefira)
``is_gift(space)`` / ``gift_of(seat)`` / ``seat_of_gift(gift)``
"""

from __future__ import annotations

from collections import deque
from typing import Iterable

COLUMNS: dict[str, tuple[str, ...]] = {
    "L": ("L0", "L1", "L2", "L3"),
    "C": ("C0", "C1", "C2", "C3", "C4"),
    "R": ("R0", "R1", "R2", "R3"),
}
SPACES: tuple[str, ...] = COLUMNS["L"] + COLUMNS["C"] + COLUMNS["R"]
CENTRAL = "C2"

COLUMN_EDGES: tuple[tuple[str, str], ...] = tuple(
    (col[i], col[i + 1]) for col in COLUMNS.values() for i in range(len(col) - 1)
)
RING_EDGES: tuple[tuple[str, str], ...] = (("L1", "C1"), ("R1", "C1"), ("L2", "C3"), ("R2", "C3"))
EDGES: tuple[tuple[str, str], ...] = COLUMN_EDGES + RING_EDGES


def _adjacency() -> dict[str, frozenset[str]]:
    neighbours: dict[str, set[str]] = {s: set() for s in SPACES}
    for a, b in EDGES:
        neighbours[a].add(b)
        neighbours[b].add(a)
    return {s: frozenset(ns) for s, ns in neighbours.items()}


ADJACENT: dict[str, frozenset[str]] = _adjacency()

SEAT_EDGE: tuple[tuple[str, ...], tuple[str, ...]] = (("L0", "C0", "R0"), ("L3", "C4", "R3"))

RINGS: dict[str, tuple[str, ...]] = {
    "left": ("C1", "L1", "L2", "C3"),
    "right": ("C1", "R1", "R2", "C3"),
}
RING_MEETINGS: tuple[str, str] = ("C1", "C3")

GIFT_FIELDS: tuple[str, str] = ("gift:0", "gift:1")
GIFT_NAMES: dict[str, str] = {"gift:0": "the Moon", "gift:1": "the Sun"}

COLUMN_MEANINGS: dict[str, str] = {"L": "emotional", "C": "spiritual", "R": "intellectual"}
COLUMN_NAMES: dict[str, str] = {
    "L": "the Moon's column", "C": "the central column", "R": "the Sun's column",
}

LAYOUT: dict[str, tuple[int, int]] = {
    "L3": (1, 0), "C4": (2, 0), "R3": (3, 0),
    "C3": (2, 1),
    "L2": (1, 2), "R2": (3, 2),
    "C2": (2, 3),
    "L1": (1, 4), "R1": (3, 4),
    "C1": (2, 5),
    "L0": (1, 6), "C0": (2, 6), "R0": (3, 6),
    "gift:0": (0, 6), "gift:1": (4, 0),
}
_WIDTH, _HEIGHT = 4, 6  # the largest x and y in LAYOUT


def layout_for(seat: int | None) -> dict[str, tuple[int, int]]:
    """Coordinates as ``seat`` sees the board: their own edge at the bottom.

    Seat 1 sits across the table, so their picture is seat 0's turned half a circle; a
    spectator gets seat 0's picture.
    """
    if seat == 1:
        return {k: (_WIDTH - x, _HEIGHT - y) for k, (x, y) in LAYOUT.items()}
    return dict(LAYOUT)


def column_of(space: str) -> str:
    return space[0]


def side(space: str) -> int | None:
    """Whose half of the board ``space`` lies in: 0, 1, or ``None`` for the central C2."""
    y = LAYOUT[space][1]
    if y * 2 == _HEIGHT:
        return None
    return 0 if y * 2 > _HEIGHT else 1


def connected(starts: Iterable[str], passable: Iterable[str]) -> set[str]:
    """Every space of ``passable`` reachable from the ``starts`` in it, through ``passable``."""
    ok = set(passable)
    seen = {s for s in starts if s in ok}
    todo = deque(seen)
    while todo:
        for n in ADJACENT[todo.popleft()]:
            if n in ok and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def distance(seat: int, space: str) -> int:
    """How many edges lie between ``seat``'s edge and ``space`` (0 on the edge itself)."""
    frontier, seen, steps = set(SEAT_EDGE[seat]), set(SEAT_EDGE[seat]), 0
    while space not in frontier:
        frontier = {n for s in frontier for n in ADJACENT[s]} - seen
        seen |= frontier
        steps += 1
    return steps


def joined_to_edge(seat: int, occupied: Iterable[str]) -> set[str]:
    """The occupied spaces linked to ``seat``'s edge by a chain of occupied spaces."""
    return connected(SEAT_EDGE[seat], occupied)


def edges_joined(occupied: Iterable[str]) -> bool:
    """Whether a chain of occupied spaces runs from one seat's edge to the other's."""
    return bool(joined_to_edge(0, occupied) & set(SEAT_EDGE[1]))


def reach(origins: Iterable[str], passable: Iterable[str] = ()) -> set[str]:
    """The spaces next to one of ``origins``.

    A space also counts as next to an origin when every space between them on some path is
    ``passable`` (Lovers' Discourse: a resolved Sefira does not stand between two Majors).
    Origins themselves are included only when they are next to another origin this way.
    """
    ok = set(passable)
    found: set[str] = set()
    expanded: set[str] = set()
    todo = deque(origins)
    while todo:
        s = todo.popleft()
        if s in expanded:
            continue
        expanded.add(s)
        for n in ADJACENT[s]:
            found.add(n)
            if n in ok and n not in expanded:
                todo.append(n)
    return found


def is_gift(space: object) -> bool:
    return space in GIFT_FIELDS


def gift_of(seat: int) -> str:
    """A seat's own Gift Field: the one in its corner, from which it may take."""
    return GIFT_FIELDS[seat]


def seat_of_gift(gift: str) -> int:
    return GIFT_FIELDS.index(gift)

"""The Tree of Life board (RULINGS.md section 3) as data, shared by Know Thyself and Dream Odyssey.

API (all plain data, nothing here changes):

``SEFIRA``            the ten Sefira ids, top to bottom, left to right
``SPACES``            ``SEFIRA`` plus ``"sun"`` and ``"moon"`` (the twelve spaces of the tree)
``ROOT``              ``"root"``: the point below the tree where its lowest branches begin
                      (a node of the graph, never a space a card goes to)
``BRANCHES``          the undirected branches as ``(a, b)`` pairs, root included
``ADJACENT``          ``{node: frozenset(neighbours)}`` for every space and the root
``SPECIAL_CARD``      ``{"sun": "M19", "moon": "M18"}``: the one card each special space takes
``CENTRAL``           the four central Sefira of a reading, bottom to top:
                      foundation, spirit, knowledge, crown
``GRACE_FIELDS``      ``("grace:0", ..., "grace:3")``
``LAYOUT``            ``{node: (x, y)}`` grid coordinates for drawing, as the player sees the
                      board: x 0..4 left to right (sun, left pillar, middle, right pillar,
                      moon), y 0..7 top to bottom (crown at the top, root at the bottom);
                      the Grace Fields sit beside the tree at x 0 and 4
``PILLAR``            ``{space: "left" | "middle" | "right" | "sun" | "moon"}``
``SPACE_NAMES``       display names ("the Crown", "Knowledge", ...)
``adjacent(a, b)``    whether a branch joins two nodes
``frontier(occupied)`` spaces (in ``SPACES`` order) that are empty and touch the root or an
                      occupied space: where a card may grow the tree
``is_grace(space)``   whether an id names a Grace Field
"""

from __future__ import annotations

from typing import Iterable

ROOT = "root"

SEFIRA: tuple[str, ...] = (
    "crown", "understanding", "wisdom", "knowledge", "severity", "mercy",
    "spirit", "splendour", "victory", "foundation",
)
SPACES: tuple[str, ...] = SEFIRA + ("sun", "moon")

BRANCHES: tuple[tuple[str, str], ...] = (
    ("root", "foundation"), ("root", "victory"), ("root", "splendour"),
    ("foundation", "victory"), ("foundation", "splendour"), ("foundation", "spirit"),
    ("victory", "splendour"), ("victory", "spirit"), ("victory", "mercy"),
    ("splendour", "spirit"), ("splendour", "severity"),
    ("spirit", "mercy"), ("spirit", "severity"), ("spirit", "knowledge"),
    ("spirit", "wisdom"), ("spirit", "understanding"),
    ("mercy", "severity"), ("mercy", "wisdom"), ("severity", "understanding"),
    ("wisdom", "understanding"), ("wisdom", "crown"), ("understanding", "crown"),
    ("knowledge", "crown"),
    ("sun", "understanding"), ("sun", "severity"), ("moon", "wisdom"), ("moon", "mercy"),
)


def _adjacency() -> dict[str, frozenset[str]]:
    neighbours: dict[str, set[str]] = {node: set() for node in SPACES + (ROOT,)}
    for a, b in BRANCHES:
        neighbours[a].add(b)
        neighbours[b].add(a)
    return {node: frozenset(ns) for node, ns in neighbours.items()}


ADJACENT: dict[str, frozenset[str]] = _adjacency()

SPECIAL_CARD: dict[str, str] = {"sun": "M19", "moon": "M18"}

CENTRAL: tuple[str, ...] = ("foundation", "spirit", "knowledge", "crown")

GRACE_FIELDS: tuple[str, ...] = tuple(f"grace:{i}" for i in range(4))

PILLAR: dict[str, str] = {
    "understanding": "left", "severity": "left", "splendour": "left",
    "crown": "middle", "knowledge": "middle", "spirit": "middle", "foundation": "middle",
    "wisdom": "right", "mercy": "right", "victory": "right",
    "sun": "sun", "moon": "moon",
}

LAYOUT: dict[str, tuple[int, int]] = {
    "crown": (2, 0),
    "sun": (0, 1), "understanding": (1, 1), "wisdom": (3, 1), "moon": (4, 1),
    "knowledge": (2, 2),
    "severity": (1, 3), "mercy": (3, 3),
    "spirit": (2, 4),
    "splendour": (1, 5), "victory": (3, 5),
    "foundation": (2, 6),
    "root": (2, 7),
    "grace:0": (0, 4), "grace:1": (0, 6), "grace:2": (4, 4), "grace:3": (4, 6),
}

SPACE_NAMES: dict[str, str] = {
    "crown": "the Crown", "knowledge": "Knowledge", "wisdom": "Wisdom",
    "understanding": "Understanding", "mercy": "Mercy", "severity": "Severity",
    "spirit": "Spirit", "victory": "Victory", "splendour": "Splendour",
    "foundation": "the Foundation", "sun": "the Sun space", "moon": "the Moon space",
    "root": "the root",
    **{g: f"Grace Field {int(g[6:]) + 1}" for g in GRACE_FIELDS},
}

_BRANCH_SET = frozenset(frozenset(b) for b in BRANCHES)


def adjacent(a: str, b: str) -> bool:
    return frozenset((a, b)) in _BRANCH_SET


def frontier(occupied: Iterable[str]) -> list[str]:
    """Empty spaces joined by a branch to the root or to an occupied space."""
    taken = set(occupied)
    reach = {ROOT} | taken
    return [s for s in SPACES if s not in taken and not ADJACENT[s].isdisjoint(reach)]


def is_grace(space: object) -> bool:
    return isinstance(space, str) and space in GRACE_FIELDS

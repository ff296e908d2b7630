"""The project's own drawings: the four suit symbols and the four element triangles.

Each drawing fills a unit cell, x and y in [-0.5, 0.5] with y down, and is built from the
primitives in ``geometry`` so that the PNG, PDF and SVG back-ends draw the same outlines.
RULINGS section 2 asks for the elements as shapes rather than font glyphs, and for suit
symbols of the project's own.
"""

from __future__ import annotations

import math

from .geometry import Fill, Item, Point, Ring, Stroke, arc, cubic, ellipse, quad

# Stroke weight of the line drawings, matched by eye to DejaVu Sans' astrological glyphs at
# the size the layout sets them, so a Major's triangle and a planet's glyph look alike.
ELEMENT_STROKE = 0.06


def _mirror(points: list[Point]) -> list[Point]:
    return [(-x, y) for x, y in reversed(points)]


def cup() -> list[Item]:
    """A chalice: a lipped bowl on a knotted stem and a spreading foot."""
    rim = Stroke(((-0.36, -0.455), (0.36, -0.455)), 0.075)
    # The right half of the bowl, stem and foot, drawn top to bottom; the left is its mirror.
    right: list[Point] = [(0.335, -0.385)]
    right += cubic((0.335, -0.385), (0.335, -0.11), (0.17, 0.035), (0.045, 0.05))
    right += [(0.045, 0.30)]
    right += cubic((0.045, 0.30), (0.06, 0.40), (0.25, 0.40), (0.30, 0.445))
    right += [(0.30, 0.50)]
    body = Fill(tuple(right + _mirror(right)))
    knot = Fill(tuple(ellipse(0.0, 0.17, 0.095, 0.042)))
    return [rim, body, knot]


def sword() -> list[Item]:
    """A straight sword, point up, with a curved guard and a round pommel."""
    blade = Fill(((0.0, -0.52), (0.088, -0.38), (0.088, 0.15), (-0.088, 0.15), (-0.088, -0.38)))
    guard_line = [(-0.31, 0.10)] + quad((-0.31, 0.10), (0.0, 0.25), (0.31, 0.10))
    guard = Stroke(tuple(guard_line), 0.085)
    grip = Fill(((-0.05, 0.19), (0.05, 0.19), (0.058, 0.38), (-0.058, 0.38)))
    pommel = Fill(tuple(ellipse(0.0, 0.43, 0.075, 0.07)))
    return [blade, guard, grip, pommel]


def pentacle() -> list[Item]:
    """A coin: a ring holding a five-pointed star drawn as one line."""
    ring = Ring(0.0, 0.0, 0.46, 0.075)
    r = 0.43  # the star's points meet the ring's inner half
    points = tuple((r * math.cos(math.radians(-90 + 144 * k)), r * math.sin(math.radians(-90 + 144 * k)))
                   for k in range(5))
    star = Stroke(points, 0.055, closed=True)
    return [ring, star]


def _leaf(base: Point, tip: Point, width: float) -> Fill:
    """An almond-shaped leaf from ``base`` to ``tip``, ``width`` at its widest."""
    bx, by = base
    tx, ty = tip
    dx, dy = tx - bx, ty - by
    length = math.hypot(dx, dy)
    nx, ny = -dy / length * width, dx / length * width  # the leaf's normal, scaled
    one = cubic(base, (bx + dx * 0.3 + nx, by + dy * 0.3 + ny), (bx + dx * 0.75 + nx * 0.7, by + dy * 0.75 + ny * 0.7), tip)
    two = cubic(tip, (bx + dx * 0.75 - nx * 0.7, by + dy * 0.75 - ny * 0.7), (bx + dx * 0.3 - nx, by + dy * 0.3 - ny), base)
    return Fill(tuple([base] + one + two[:-1]))


def wand() -> list[Item]:
    """A living staff, tapering from a rounded head, putting out leaves."""
    head = arc(0.0, -0.42, 0.07, 180, 360, 12)
    staff = Fill(tuple(head + [(0.056, 0.50), (-0.056, 0.50)]))
    return [
        staff,
        _leaf((0.04, -0.14), (0.34, -0.40), 0.11),
        _leaf((-0.04, 0.08), (-0.34, -0.14), 0.105),
        _leaf((0.04, 0.30), (0.27, 0.13), 0.08),
    ]


SUIT_DRAWINGS = {"c": cup, "s": sword, "p": pentacle, "w": wand}

# A triangle of height 0.8 centred in the cell: Fire and Air point up, Water and Earth down.
_TRI_H = 0.76
_TRI_HALF = _TRI_H / math.sqrt(3)


def _triangle(up: bool) -> Stroke:
    tip, base = (-_TRI_H / 2, _TRI_H / 2) if up else (_TRI_H / 2, -_TRI_H / 2)
    return Stroke(((0.0, tip), (_TRI_HALF, base), (-_TRI_HALF, base)), ELEMENT_STROKE, closed=True)


def _bar() -> Stroke:
    # The alchemical bar crosses the triangle at half height and reaches a little past it.
    return Stroke(((-0.36, 0.0), (0.36, 0.0)), ELEMENT_STROKE)


def element(shape: str) -> list[Item]:
    """An element triangle by the shape name ``games.engine.cards`` gives the Major."""
    drawings = {
        "triangle-up": lambda: [_triangle(True)],
        "triangle-down": lambda: [_triangle(False)],
        "triangle-up-bar": lambda: [_triangle(True), _bar()],
        "triangle-down-bar": lambda: [_triangle(False), _bar()],
    }
    try:
        return drawings[shape]()
    except KeyError:
        raise ValueError(f"unknown element shape {shape!r}") from None

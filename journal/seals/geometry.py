"""The few drawing primitives a seal is made of, in millimetres on the page, y down.

The layout produces these once; the PNG, PDF and SVG back-ends each know how to draw the
four kinds and nothing else, so the three outputs cannot drift apart.  Curves are
flattened here into fine polylines (a few hundredths of a millimetre off at print size),
which keeps every back-end to straight segments and circles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class Ring:
    """A stroked circle."""

    cx: float
    cy: float
    r: float  # to the middle of the stroke
    width: float


@dataclass(frozen=True)
class Fill:
    """A filled simple polygon."""

    points: tuple[Point, ...]


@dataclass(frozen=True)
class Stroke:
    """A polyline drawn with round caps and joins."""

    points: tuple[Point, ...]
    width: float
    closed: bool = False


@dataclass(frozen=True)
class Glyph:
    """One character of a font, origin on its baseline at the left of its advance."""

    char: str
    role: str  # a key of fonts.FONT_FILES
    size: float  # the em, in mm
    x: float
    y: float
    rotation: float = 0.0  # degrees, clockwise as seen on the page


Item = Ring | Fill | Stroke | Glyph


def cubic(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = 24) -> list[Point]:
    """Points along a cubic Bézier, without ``p0`` (so segments chain)."""
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        out.append((
            u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
            u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
        ))
    return out


def quad(p0: Point, p1: Point, p2: Point, steps: int = 16) -> list[Point]:
    """Points along a quadratic Bézier, without ``p0``."""
    c1 = (p0[0] + 2 / 3 * (p1[0] - p0[0]), p0[1] + 2 / 3 * (p1[1] - p0[1]))
    c2 = (p2[0] + 2 / 3 * (p1[0] - p2[0]), p2[1] + 2 / 3 * (p1[1] - p2[1]))
    return cubic(p0, c1, c2, p2, steps)


def ellipse(cx: float, cy: float, rx: float, ry: float, steps: int = 48) -> list[Point]:
    return [(cx + rx * math.cos(2 * math.pi * i / steps), cy + ry * math.sin(2 * math.pi * i / steps))
            for i in range(steps)]


def arc(cx: float, cy: float, r: float, start_deg: float, end_deg: float, steps: int = 16) -> list[Point]:
    """Points from ``start_deg`` to ``end_deg`` inclusive, screen angles (clockwise, 0 = east)."""
    return [(cx + r * math.cos(math.radians(start_deg + (end_deg - start_deg) * i / steps)),
             cy + r * math.sin(math.radians(start_deg + (end_deg - start_deg) * i / steps)))
            for i in range(steps + 1)]


def transform(items: list[Item], scale: float, dx: float, dy: float) -> list[Item]:
    """Scale a drawing made in a unit cell and move its origin to ``(dx, dy)``."""

    def pts(points):
        return tuple((dx + x * scale, dy + y * scale) for x, y in points)

    out: list[Item] = []
    for item in items:
        if isinstance(item, Ring):
            out.append(Ring(dx + item.cx * scale, dy + item.cy * scale, item.r * scale, item.width * scale))
        elif isinstance(item, Fill):
            out.append(Fill(pts(item.points)))
        elif isinstance(item, Stroke):
            out.append(Stroke(pts(item.points), item.width * scale, item.closed))
        else:
            out.append(Glyph(item.char, item.role, item.size * scale, dx + item.x * scale,
                             dy + item.y * scale, item.rotation))
    return out

"""The seal's geometry, computed once in millimetres for every back-end.

A seal (rulebook, "Sealing the game"): the cards' symbols close together, a circle around
them, one word per card written around that circle's edge, and a second, larger circle
enclosing it all.  Here the band between the two circles carries the words, with a small
dot between neighbours, and a hairline just inside the outer circle gives it the
double rim of a wax seal.

Everything is proportional to the outer radius ``R``, so the same seal scales from a
10 cm card to US Letter.  Angles are mathematical (degrees counter-clockwise from east)
where a point is placed on a circle, and rotations are clockwise on the page, as in SVG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from games.engine.cards import CARDS

from . import symbols
from .fonts import metrics
from .geometry import Fill, Glyph, Item, Ring, ellipse, transform

# Paper sizes in millimetres (width, height).  US Letter is 8.5 x 11 in exactly.
PAGE_SIZES = {
    "10cm": (100.0, 100.0),
    "a5": (148.0, 210.0),
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}
# The print margin, as a share of the paper's short side: wide enough for any printer's
# unprintable edge and for the seal to breathe.
MARGIN = 0.10

# Radii and weights as shares of the outer radius R.
OUTER_WIDTH = 0.016
HAIRLINE_R, HAIRLINE_WIDTH = 0.952, 0.0045
INNER_R, INNER_WIDTH = 0.735, 0.0095
BAND_R = (INNER_R + HAIRLINE_R) / 2  # where the words' letters are centred
SYMBOL_AREA_R = 0.655  # symbols keep inside this, clear of the inner circle
WORD_CAP_MAX = 0.080  # the words' cap height at most
WORD_TRACKING = 0.16  # extra space between letters, in em: inscriptions are spaced out
WORD_CLEARANCE = 0.16  # arc kept free around each separator, in R
SEPARATOR_R = 0.012  # the dot between neighbouring words
SYMBOL_CELL_MAX = 0.50  # the largest symbol, so two or three do not balloon
SYMBOL_GAP = 0.28  # space between neighbouring symbols, as a share of a symbol

# Where the words and symbols go, by card count: angles for the words, the symbols'
# cluster then follows each word's direction where the count allows it.
WORD_ANGLES = {
    2: (90.0, -90.0),
    3: (90.0, -30.0, -150.0),
    4: (135.0, 45.0, -45.0, -135.0),
    5: (90.0, 18.0, -54.0, -126.0, 162.0),
}


@dataclass(frozen=True)
class WordPlacement:
    """How one word is set around the circle (kept for tests and previews)."""

    text: str
    center_angle: float  # where the word's middle sits, mathematical degrees
    rotation: float  # its baseline at the middle, clockwise degrees from upright
    lower_half: bool  # set reading left to right along the bottom, letters' feet outward
    glyphs: tuple[Glyph, ...]


@dataclass(frozen=True)
class SealLayout:
    width: float  # the page, mm
    height: float
    cx: float
    cy: float
    radius: float  # the outer circle's outer edge
    items: tuple[Item, ...]
    words: tuple[WordPlacement, ...]


def page_size(size: str) -> tuple[float, float]:
    return PAGE_SIZES[size]


def layout_seal(cards: list[str], words: list[str], size: str) -> SealLayout:
    """Place everything for validated ``cards`` and display-ready ``words`` on ``size`` paper."""
    width, height = PAGE_SIZES[size]
    R = min(width, height) * (0.5 - MARGIN)
    cx, cy = width / 2, height / 2
    items: list[Item] = [
        Ring(cx, cy, R * (1 - OUTER_WIDTH / 2), R * OUTER_WIDTH),
        Ring(cx, cy, R * HAIRLINE_R, R * HAIRLINE_WIDTH),
        Ring(cx, cy, R * INNER_R, R * INNER_WIDTH),
    ]
    items += _symbols(cards, cx, cy, R)
    placements = _words(words, cx, cy, R)
    for placement in placements:
        items += placement.glyphs
    items += _separators(len(words), cx, cy, R)
    return SealLayout(width, height, cx, cy, R, tuple(items), tuple(placements))


# --- symbols ---------------------------------------------------------------------------

def symbol_centers(n: int, cell: float) -> list[tuple[float, float]]:
    """Offsets from the seal's centre of ``n`` symbol cells, in the order of the words."""
    if n == 2:  # side by side; the words sit above and below
        d = cell * (1 + SYMBOL_GAP) / 2
        return [(-d, 0.0), (d, 0.0)]
    # a ring whose neighbours are one cell plus a gap apart, each toward its word
    rho = cell * (1 + SYMBOL_GAP) / (2 * math.sin(math.pi / n))
    return [(rho * math.cos(math.radians(a)), -rho * math.sin(math.radians(a))) for a in WORD_ANGLES[n]]


def symbol_cell(n: int, R: float) -> float:
    # Each cell is treated as a disc of radius 0.62 cell (the glyphs are squarish) that must
    # stay within the symbol area; the largest such cell, capped.
    spread = 0.5 if n == 2 else 1 / (2 * math.sin(math.pi / n))
    cell = SYMBOL_AREA_R * R / ((1 + SYMBOL_GAP) * spread + 0.62)
    return min(cell, SYMBOL_CELL_MAX * R)


def _symbols(cards: list[str], cx: float, cy: float, R: float) -> list[Item]:
    cell = symbol_cell(len(cards), R)
    out: list[Item] = []
    for code, (dx, dy) in zip(cards, symbol_centers(len(cards), cell)):
        out += card_symbol(code, cx + dx, cy + dy, cell)
    return out


# The astrological glyphs' em: a cap-height glyph (0.73 em in DejaVu Sans) fills 0.76 of a
# cell, the same height as the element triangles; taller ones (Virgo's tail) still fit.
MAJOR_EM = 0.76 / 0.73
# A Minor: its numeral's cap height, the gap below it, then the suit drawing.
MINOR_NUMERAL_CAP, MINOR_GAP, MINOR_SUIT = 0.28, 0.07, 0.64


def card_symbol(code: str, x: float, y: float, cell: float) -> list[Item]:
    """The card's symbol centred on ``(x, y)`` within a square of side ``cell``."""
    card = CARDS[code]
    if card.arcana == "major":
        if card.shape:
            return transform(symbols.element(card.shape), cell, x, y)
        return [centred_glyph(card.glyph, "symbol", MAJOR_EM * cell, x, y)]
    # Numeral over suit, the pair centred in the cell by its ink; a numeral that reaches
    # below its baseline (the Queen's tail) shrinks the pair to keep it inside the cell.
    font = metrics("numeral")
    ink = font.run_ink(card.rank)
    cap = font.run_ink("H").height
    fit = min(1.0, 1 / (MINOR_NUMERAL_CAP * ink.height / cap + MINOR_GAP + MINOR_SUIT))
    em = MINOR_NUMERAL_CAP * cell * fit / cap
    numeral_h = ink.height * em
    total = numeral_h + (MINOR_GAP + MINOR_SUIT) * cell * fit
    top = y - total / 2
    numeral = centred_run(card.rank, "numeral", em, x, top + ink.ymax * em)
    suit_y = top + numeral_h + (MINOR_GAP + MINOR_SUIT / 2) * cell * fit
    return numeral + transform(symbols.SUIT_DRAWINGS[card.suit](), MINOR_SUIT * cell * fit, x, suit_y)


def centred_glyph(char: str, role: str, em: float, x: float, y: float) -> Glyph:
    """A glyph whose ink box is centred on ``(x, y)``."""
    ink = metrics(role).ink(char)
    return Glyph(char, role, em, x - em * (ink.xmin + ink.xmax) / 2, y + em * (ink.ymin + ink.ymax) / 2)


def centred_run(text: str, role: str, em: float, x: float, baseline: float) -> list[Glyph]:
    """``text`` on ``baseline`` with its ink centred horizontally on ``x``."""
    font = metrics(role)
    ink = font.run_ink(text)
    pen = x - em * (ink.xmin + ink.xmax) / 2
    out = []
    for char in text:
        out.append(Glyph(char, role, em, pen, baseline))
        pen += em * font.advance(char)
    return out


# --- words -----------------------------------------------------------------------------

def word_em(words: list[str], R: float) -> float:
    """One em for all the words: as large as allowed, small enough for the longest to fit."""
    font = metrics("text")
    cap = font.run_ink("H").height
    em = WORD_CAP_MAX * R / cap
    available = 2 * math.pi * BAND_R * R / len(words) - WORD_CLEARANCE * R
    for word in words:
        length = sum(font.advance(c) for c in word) + WORD_TRACKING * (len(word) - 1)
        em = min(em, available / length)
    return em


def _words(words: list[str], cx: float, cy: float, R: float) -> list[WordPlacement]:
    font = metrics("text")
    em = word_em(words, R)
    cap = font.run_ink("H").height * em
    band = BAND_R * R
    out = []
    for word, angle in zip(words, WORD_ANGLES[len(words)]):
        lower = math.sin(math.radians(angle)) < 0
        # Upper words run clockwise with their feet toward the centre; lower words run
        # counter-clockwise with their feet outward, so both read left to right, upright.
        # Either way the letters' middle sits on the band's centre line.
        baseline_r = band + cap / 2 if lower else band - cap / 2
        advances = [em * font.advance(c) for c in word]
        tracking = em * WORD_TRACKING
        length = sum(advances) + tracking * (len(word) - 1)
        glyphs = []
        pos = -length / 2
        for char, adv in zip(word, advances):
            middle = pos + adv / 2
            # Spacing is measured on the band's centre line; the angle of each letter's middle.
            phi = angle + math.degrees(middle / band) * (1 if lower else -1)
            rotation = baseline_rotation(phi, lower)
            px = cx + baseline_r * math.cos(math.radians(phi))
            py = cy - baseline_r * math.sin(math.radians(phi))
            # Step back half an advance along the reading direction to the glyph's origin.
            rx, ry = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
            if char != " ":
                glyphs.append(Glyph(char, "text", em, px - rx * adv / 2, py - ry * adv / 2, rotation))
            pos += adv + tracking
        out.append(WordPlacement(word, angle, baseline_rotation(angle, lower), lower, tuple(glyphs)))
    return out


def baseline_rotation(phi: float, lower: bool) -> float:
    """Clockwise rotation from upright of a baseline tangent to the circle at ``phi``.

    Upper words: 0 at the top, +90 at the right (reading downward).  Lower words: 0 at the
    bottom, -90 at the right (reading upward).  Either way within ±90 for a word whose
    middle lies in its own half, which is what keeps the lower words from standing on
    their heads.
    """
    rotation = -(90 + phi) if lower else 90 - phi
    return (rotation + 180) % 360 - 180


def _separators(n: int, cx: float, cy: float, R: float) -> list[Item]:
    """A dot on the band midway between each pair of neighbouring words."""
    angles = WORD_ANGLES[n]
    out: list[Item] = []
    band = BAND_R * R
    for i, a in enumerate(angles):
        gap = (a - angles[(i + 1) % n]) % 360  # words run clockwise: the next is at a smaller angle
        mid = math.radians(a - gap / 2)
        out.append(Fill(tuple(ellipse(cx + band * math.cos(mid), cy - band * math.sin(mid),
                                      SEPARATOR_R * R, SEPARATOR_R * R, 32))))
    return out

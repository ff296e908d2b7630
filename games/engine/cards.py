"""The 78 cards: codes, names, suits, ranks, Sefirot values, keywords and seal symbols.

Codes follow RULINGS.md section 1: ``M0``..``M21`` for the Majors, ``<rank><suit>`` for the
Minors (``9p``, ``Qp``, ``10c``).  Orientation is never part of a code.
"""

from __future__ import annotations

from typing import NamedTuple

SUITS = ("c", "s", "p", "w")
SUIT_NAMES = {"c": "Cups", "s": "Swords", "p": "Pentacles", "w": "Wands"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "P", "N", "Q", "K")
COURT_RANKS = frozenset({"P", "N", "Q", "K"})
RANK_NAMES = {
    "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "10": "Ten", "P": "Page", "N": "Knight", "Q": "Queen", "K": "King",
}
ROMAN = (
    "0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI",
    "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI",
)
MAJOR_NAMES = (
    "The Fool", "The Magician", "The High Priestess", "The Empress", "The Emperor",
    "The Hierophant", "The Lovers", "The Chariot", "Strength", "The Hermit",
    "Wheel of Fortune", "Justice", "The Hanged Man", "Death", "Temperance", "The Devil",
    "The Tower", "The Star", "The Moon", "The Sun", "The Gate", "The World",
)
# Hermit's Arcana keeps the traditional name of XX (RULINGS section 1).
MAJOR_NAME_OVERRIDES = {"hermits_arcana": {"M20": "Judgement"}}

# Seal symbols (RULINGS section 2): the meaning column of the rulebook, drawn as that
# meaning's symbol.  The four elements are shapes the renderer draws itself, so they carry
# a shape name instead of a font glyph.
MAJOR_MEANINGS = (
    "Air", "Mercury", "Moon", "Venus", "Aries", "Taurus", "Gemini", "Cancer", "Leo", "Virgo",
    "Jupiter", "Libra", "Water", "Scorpio", "Sagittarius", "Capricorn", "Mars", "Aquarius",
    "Pisces", "Sol", "Fire", "Earth",
)
MAJOR_GLYPHS = (
    None, "\u263f", "\u263e", "\u2640", "\u2648", "\u2649", "\u264a", "\u264b", "\u264c", "\u264d",
    "\u2643", "\u264e", None, "\u264f", "\u2650", "\u2651", "\u2642", "\u2652",
    "\u2653", "\u2609", None, None,
)
ELEMENT_SHAPES = {
    "M0": "triangle-up-bar",  # Air
    "M12": "triangle-down",  # Water
    "M20": "triangle-up",  # Fire
    "M21": "triangle-down-bar",  # Earth
}

# One word per card, the project's own, used on seals and in readings.
KEYWORDS = {
    "M0": "beginning", "M1": "will", "M2": "intuition", "M3": "abundance", "M4": "order",
    "M5": "tradition", "M6": "union", "M7": "drive", "M8": "courage", "M9": "solitude",
    "M10": "change", "M11": "balance", "M12": "surrender", "M13": "ending", "M14": "measure",
    "M15": "bondage", "M16": "upheaval", "M17": "hope", "M18": "illusion", "M19": "joy",
    "M20": "threshold", "M21": "wholeness",
    "Ac": "feeling", "2c": "bond", "3c": "celebration", "4c": "apathy", "5c": "grief",
    "6c": "nostalgia", "7c": "fantasy", "8c": "departure", "9c": "contentment", "10c": "harmony",
    "Pc": "tenderness", "Nc": "romance", "Qc": "empathy", "Kc": "composure",
    "As": "clarity", "2s": "stalemate", "3s": "heartbreak", "4s": "rest", "5s": "conflict",
    "6s": "passage", "7s": "stealth", "8s": "restriction", "9s": "anxiety", "10s": "collapse",
    "Ps": "curiosity", "Ns": "haste", "Qs": "candour", "Ks": "reason",
    "Ap": "opportunity", "2p": "juggling", "3p": "craft", "4p": "holding", "5p": "hardship",
    "6p": "generosity", "7p": "patience", "8p": "diligence", "9p": "independence",
    "10p": "legacy", "Pp": "study", "Np": "steadiness", "Qp": "nurture", "Kp": "prosperity",
    "Aw": "spark", "2w": "planning", "3w": "expansion", "4w": "homecoming", "5w": "rivalry",
    "6w": "triumph", "7w": "defiance", "8w": "momentum", "9w": "resilience", "10w": "burden",
    "Pw": "enthusiasm", "Nw": "adventure", "Qw": "confidence", "Kw": "vision",
}


class Card(NamedTuple):
    code: str
    name: str
    arcana: str  # "major" | "minor"
    suit: str | None  # "c" "s" "p" "w" for Minors
    rank: str | None  # "A".."10", "P" "N" "Q" "K" for Minors
    number: int  # Major number, pip count (Ace 1), 11-14 for Page..King
    value: int  # Sefirot value: Major its number, pip its number, court 10
    keyword: str
    meaning: str | None  # Majors: the seal meaning (RULINGS section 2)
    glyph: str | None  # a font glyph for the seal, None where a shape is drawn
    shape: str | None  # an element triangle the renderer draws


def _build() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for n in range(22):
        code = f"M{n}"
        cards[code] = Card(
            code, MAJOR_NAMES[n], "major", None, None, n, n, KEYWORDS[code],
            MAJOR_MEANINGS[n], MAJOR_GLYPHS[n], ELEMENT_SHAPES.get(code),
        )
    for suit in SUITS:
        for i, rank in enumerate(RANKS):
            code = f"{rank}{suit}"
            number = i + 1
            value = 10 if rank in COURT_RANKS else number
            name = f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"
            cards[code] = Card(code, name, "minor", suit, rank, number, value, KEYWORDS[code],
                               None, None, None)
    return cards


CARDS: dict[str, Card] = _build()
# The Sefirot value of each code, for the engines' inner loops (``value`` reads it too).
VALUES: dict[str, int] = {code: card.value for code, card in CARDS.items()}
MAJORS: tuple[str, ...] = tuple(f"M{n}" for n in range(22))
MINORS: tuple[str, ...] = tuple(f"{r}{s}" for s in SUITS for r in RANKS)
DECK: tuple[str, ...] = MAJORS + MINORS
COURTS: frozenset[str] = frozenset(c for c in MINORS if c[:-1] in COURT_RANKS)
PIPS: tuple[str, ...] = tuple(c for c in MINORS if c not in COURTS)

FOOL, SUN, MOON = "M0", "M19", "M18"


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in CARDS


def is_major(code: str) -> bool:
    return code[0] == "M"


def is_minor(code: str) -> bool:
    return code[0] != "M"


def is_court(code: str) -> bool:
    return code in COURTS


def suit_of(code: str) -> str | None:
    return None if code[0] == "M" else code[-1]


def rank_of(code: str) -> str | None:
    return None if code[0] == "M" else code[:-1]


def value(code: str) -> int:
    """The Sefirot value: a Major its number, a pip its number (Ace 1), a court card 10."""
    return VALUES[code]


def major_number(code: str) -> int:
    return int(code[1:])


def name(code: str, game: str | None = None) -> str:
    if game and code in MAJOR_NAME_OVERRIDES.get(game, {}):
        return MAJOR_NAME_OVERRIDES[game][code]
    return CARDS[code].name


def label(code: str) -> str:
    """A short label for text boards and mail: ``XIX The Sun`` or ``9 of Pentacles``."""
    card = CARDS[code]
    if card.arcana == "major":
        return f"{ROMAN[card.number]} {card.name}"
    return card.name


def short_name(code: str) -> str:
    """The name with a numeral for pips 2-10, where the value matters to the reader:
    ``9 of Pentacles``, ``Ace of Cups``, ``Queen of Swords``, ``The Hermit``."""
    card = CARDS[code]
    if card.arcana == "minor" and card.rank.isdigit():
        return f"{card.rank} of {SUIT_NAMES[card.suit]}"
    return card.name


def keyword(code: str) -> str:
    return CARDS[code].keyword


def seal_symbol(code: str) -> dict:
    """How a card is drawn on a seal (RULINGS 2): a Major's astrological glyph or, for the
    four elements, a triangle shape the renderer draws; a Minor's numeral over its suit."""
    card = CARDS[code]
    if card.arcana == "minor":
        return {"kind": "minor", "numeral": card.rank, "suit": card.suit}
    if card.shape:
        return {"kind": "shape", "shape": card.shape, "meaning": card.meaning}
    return {"kind": "glyph", "glyph": card.glyph, "meaning": card.meaning}

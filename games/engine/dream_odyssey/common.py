"""What every part of Dream Odyssey shares: its constants and the small helpers that put
cards and spaces into words."""

from __future__ import annotations

from ..cards import CARDS, DECK, rank_of, suit_of
from ..tree import SPACE_NAMES

SLUG = "dream_odyssey"
REST_PHASES = ("travel", "arrive")
CHOICE_PHASES = ("guard", "draw", "hope", "introspect", "priestess", "keep", "order", "bargain",
                 "tower", "gate", "pay", "discarding")
PILES = ("deck:minors", "discard:minors")
SUN_MOON = ("sun", "moon")
_ORDER = {c: i for i, c in enumerate(DECK)}
_SLOT_PREFIX = "encounter:"


# --- words ----------------------------------------------------------------------------------

def _the(code: str) -> str:
    """A card name that reads well mid-sentence: "the 9 of Pentacles", "The Hermit"."""
    card = CARDS[code]
    return card.name if card.arcana == "major" else f"the {card.name}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _list(names: list[str]) -> str:
    if len(names) < 3:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _a(text: str) -> str:
    text = text.lower()
    return ("an " if text[:1] in "aeiou" else "a ") + text


def _space(space: str) -> str:
    return SPACE_NAMES.get(space, space)


def _slot_id(i: int) -> str:
    return f"{_SLOT_PREFIX}{i}"


def _slot_index(to: object) -> int | None:
    if isinstance(to, str) and to.startswith(_SLOT_PREFIX) and to[len(_SLOT_PREFIX):].isdigit():
        return int(to[len(_SLOT_PREFIX):])
    return None


def _canon(cards: list[str]) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


def _shares(a: str, b: str) -> bool:
    return suit_of(a) == suit_of(b) or rank_of(a) == rank_of(b)

"""Hermit's Arcana: the 22 Sigils' table (banishable, devotable, apophatic) and their rituals.

A ritual is the set of table cards that honours a Sigil when offered to it (its earlier
offerings and the cards of the exalt together, exactly: no card too many).  ``complete``
says whether a set is one; ``partial`` whether a set could still grow into one, which is
what tells a locked Sigil (its offerings can never be completed) and prunes the search
for exalts.

Card words of the text: a *number* is an Ace or 2-10 (the Ace counts 1), a *figure* is an
Ace or a court card (Page, Knight, Queen, King): the Ace is both.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, Iterable

# code -> (banishable, devotable, apophatic), as the text's table gives them.
DEATH, TEMPERANCE, DEVIL, TOWER, FOOL = "M13", "M14", "M15", "M16", "M0"
STRENGTH, HERMIT, LOVERS, CHARIOT = "M8", "M9", "M6", "M7"
SUN, JUDGEMENT, WORLD = "M19", "M20", "M21"
STRANGE = frozenset({DEATH, TEMPERANCE, DEVIL, TOWER})
BANISHABLE = frozenset(f"M{n}" for n in range(22)) - STRANGE
DEVOTABLE = BANISHABLE - {FOOL}
APOPHATIC = STRANGE | {FOOL}

FIGURE_RANKS = ("A", "P", "N", "Q", "K")
NUMBER_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")


def rank(code: str) -> str:
    return code[:-1]


def suit(code: str) -> str:
    return code[-1]


# Looked up, not worked out: the exalt search asks these hundreds of times a move.
_NUMBERS = {f"{r}{s}": (1 if r == "A" else int(r)) for r in NUMBER_RANKS for s in "cspw"}
_FIGURES = frozenset(f"{r}{s}" for r in FIGURE_RANKS for s in "cspw")


def number(code: str) -> int | None:
    """The card's number (Ace 1), or None for a court card."""
    return _NUMBERS.get(code)


def is_number(code: str) -> bool:
    return code in _NUMBERS


def is_figure(code: str) -> bool:
    return code in _FIGURES


# --- the rituals, each as (partial, complete) over a list of Minor codes -----------------


def _suit_numbers(s: str):
    def partial(cards):
        return len(cards) <= 3 and all(suit(c) == s and is_number(c) for c in cards)

    def complete(cards):
        return len(cards) == 3 and partial(cards)
    return partial, complete


def _run(cards, size: int, distinct_suits: bool) -> bool:
    """Numbers with distinct values spanning no more than a run of ``size``."""
    if len(cards) > size or not all(is_number(c) for c in cards):
        return False
    values = [number(c) for c in cards]
    if len(set(values)) != len(values):
        return False
    if distinct_suits and len({suit(c) for c in cards}) != len(cards):
        return False
    return not values or max(values) - min(values) < size


def _magician():
    return (lambda cards: _run(cards, 3, True),
            lambda cards: len(cards) == 3 and _run(cards, 3, True))


def _wheel():
    return (lambda cards: _run(cards, 4, False),
            lambda cards: len(cards) == 4 and _run(cards, 4, False))


def _pairs(allowed: list[tuple[str, str]]):
    """Two figures of different suits whose ranks are one of the ``allowed`` pairs."""
    ranks = {r for pair in allowed for r in pair}
    pairs = {frozenset(p) if p[0] != p[1] else p for p in allowed}

    def ok_pair(a, b):
        ra, rb = rank(a), rank(b)
        return suit(a) != suit(b) and (frozenset((ra, rb)) in pairs or (ra, rb) in pairs)

    def partial(cards):
        if len(cards) > 2 or not all(rank(c) in ranks for c in cards):
            return False
        return len(cards) < 2 or ok_pair(*cards)

    def complete(cards):
        return len(cards) == 2 and partial(cards)
    return partial, complete


def _strength():
    def partial(cards):
        return len(cards) <= 2 and all(is_figure(c) for c in cards) and len({rank(c) for c in cards}) <= 1

    def complete(cards):
        return len(cards) == 2 and partial(cards)
    return partial, complete


def _hermit():
    """One Wand figure and three numbers of Cups, Swords and Pentacles (one each), no two
    of them consecutive."""
    def partial(cards):
        if len(cards) > 4:
            return False
        wands = [c for c in cards if suit(c) == "w"]
        others = [c for c in cards if suit(c) != "w"]
        if len(wands) > 1 or not all(is_figure(c) for c in wands):
            return False
        if not all(is_number(c) for c in others) or len({suit(c) for c in others}) != len(others):
            return False
        values = [number(c) for c in others]
        return all(abs(a - b) != 1 for a, b in combinations(values, 2))

    def complete(cards):
        return len(cards) == 4 and partial(cards)
    return partial, complete


def _one_and_one(first: Callable[[str], bool], second: Callable[[str], bool]):
    """Two cards: one meeting ``first``, the other ``second`` (an Ace may be either)."""
    def partial(cards):
        if len(cards) > 2 or not all(first(c) or second(c) for c in cards):
            return False
        return len(cards) < 2 or (first(cards[0]) and second(cards[1])) or (first(cards[1]) and second(cards[0]))

    def complete(cards):
        return len(cards) == 2 and partial(cards)
    return partial, complete


def _two_figures_of(suits: str):
    def partial(cards):
        return len(cards) <= 2 and all(is_figure(c) and suit(c) in suits for c in cards)

    def complete(cards):
        return len(cards) == 2 and partial(cards)
    return partial, complete


def _sun():
    def partial(cards):
        return len(cards) <= 3 and all(rank(c) in ("A", "P", "N") for c in cards)

    def complete(cards):
        return len(cards) == 3 and partial(cards)
    return partial, complete


def _judgement():
    """Two figures and two numbers, the figures of two suits and the numbers of the same
    two suits.  An Ace may stand as either."""
    def fits(cards, whole: bool) -> bool:
        if len(cards) > 4:
            return False
        for roles in _roles(cards):
            figures = [suit(c) for c, r in zip(cards, roles) if r == "F"]
            numbers = [suit(c) for c, r in zip(cards, roles) if r == "N"]
            if len(figures) > 2 or len(numbers) > 2:
                continue
            if len(set(figures)) != len(figures) or len(set(numbers)) != len(numbers):
                continue
            if len(set(figures) | set(numbers)) > 2:
                continue
            if whole and set(figures) != set(numbers):
                continue
            return True
        return False

    return (lambda cards: fits(cards, False),
            lambda cards: len(cards) == 4 and fits(cards, True))


def _roles(cards) -> Iterable[tuple[str, ...]]:
    options = []
    for c in cards:
        roles = ("F" if is_figure(c) else "") + ("N" if is_number(c) else "")
        if not roles:
            return
        options.append(roles)

    def walk(i, acc):
        if i == len(options):
            yield tuple(acc)
            return
        for r in options[i]:
            acc.append(r)
            yield from walk(i + 1, acc)
            acc.pop()
    yield from walk(0, [])


def _world():
    def partial(cards):
        return all(is_number(c) for c in cards) and sum(number(c) for c in cards) <= 21

    def complete(cards):
        return partial(cards) and sum(number(c) for c in cards) == 21
    return partial, complete


def _never():
    return (lambda cards: False), (lambda cards: False)


RITUALS: dict[str, tuple[Callable, Callable]] = {
    "M1": _magician(),
    "M2": _suit_numbers("p"),
    "M3": _suit_numbers("c"),
    "M4": _suit_numbers("s"),
    "M5": _suit_numbers("w"),
    "M6": _pairs([("Q", "K"), ("N", "P"), ("Q", "N")]),
    "M7": _pairs([("A", "K"), ("A", "Q"), ("N", "N")]),
    "M8": _strength(),
    "M9": _hermit(),
    "M10": _wheel(),
    "M11": _one_and_one(lambda c: suit(c) == "w" and is_number(c), lambda c: suit(c) == "s" and is_figure(c)),
    "M12": _one_and_one(lambda c: suit(c) == "p" and is_number(c), lambda c: suit(c) == "c" and is_figure(c)),
    "M17": _two_figures_of("cp"),
    "M18": _two_figures_of("ws"),
    "M19": _sun(),
    "M20": _judgement(),
    "M21": _world(),
    # Death, the Tower and the Fool have no offering ritual; Temperance and the Devil borrow
    # Strength's and the Lovers' when revealed after them (see the game).
    DEATH: _never(), TEMPERANCE: _never(), DEVIL: _never(), TOWER: _never(), FOOL: _never(),
}
MAX_CARDS = {code: 6 if code == WORLD else 4 for code in RITUALS}

# The rituals in the project's own words: a short line for the card and the whole of it.
SHORT = {
    "M0": "Maneuver: return 3, clear the table but 1",
    "M1": "3 numbers in a run, all suits different",
    "M2": "3 Pentacle numbers",
    "M3": "3 Cup numbers",
    "M4": "3 Sword numbers",
    "M5": "3 Wand numbers",
    "M6": "Queen+King, Knight+Page or Queen+Knight, 2 suits",
    "M7": "Ace+King, Ace+Queen or 2 Knights, 2 suits",
    "M8": "2 figures of one rank",
    "M9": "Wand figure + 3 spaced numbers (Cups, Swords, Pentacles)",
    "M10": "4 numbers in a run",
    "M11": "Wand number + Sword figure",
    "M12": "Pentacle number + Cup figure",
    "M13": "Acts by itself when it comes up",
    "M14": "Follows Strength",
    "M15": "Follows the Lovers",
    "M16": "Steals the next honour",
    "M17": "2 figures of Cups or Pentacles",
    "M18": "2 figures of Wands or Swords",
    "M19": "3 figures: Aces, Pages or Knights",
    "M20": "2 figures + 2 numbers of the same 2 suits",
    "M21": "Numbers adding up to 21",
}
FULL = {
    "M0": "No offerings. As your maneuver, honour the Fool: return 3 heap cards to the bottom of Chance, then "
          "clear the table but for 1 card of your choice. Each card short of 3 returned costs 10 points; "
          "none at all costs 100.",
    "M1": "Offer 3 number cards whose values follow each other (say 4, 5, 6), each of a different suit. An Ace "
          "counts as 1.",
    "M2": "Offer 3 number cards of Pentacles (Ace to 10).",
    "M3": "Offer 3 number cards of Cups (Ace to 10).",
    "M4": "Offer 3 number cards of Swords (Ace to 10).",
    "M5": "Offer 3 number cards of Wands (Ace to 10).",
    "M6": "Offer 2 court cards of different suits: a Queen with a King, a Knight with a Page, or a Queen "
          "with a Knight.",
    "M7": "Offer 2 cards of different suits: an Ace with a King, an Ace with a Queen, or two Knights.",
    "M8": "Offer 2 figures of the same rank (two Aces, two Pages, two Knights, two Queens or two Kings).",
    "M9": "Offer 1 Wand figure and 3 numbers, one each of Cups, Swords and Pentacles, no two of them a step "
          "apart. Afterwards you may take 1 card of your choice from the heap back to the bottom of Chance.",
    "M10": "Offer 4 number cards whose values follow each other, of any suits.",
    "M11": "Offer 1 number card of Wands and 1 figure of Swords.",
    "M12": "Offer 1 number card of Pentacles and 1 figure of Cups.",
    "M13": "Cannot be offered to or banished. When it comes up it counts the figures on the table, returns "
           "that many cards from the top of the heap, clears the figures away and is honoured (10 points "
           "each); with no figure it returns just the top card and costs 50. Dealt at the start, it waits "
           "for the third round.",
    "M14": "Cannot be offered to or banished. Came up after Strength was honoured: offer 2 figures of one "
           "rank, as for Strength (no bonus). Came up before: honoured with Strength (+50), or with the "
           "Hermit if he comes first (-50).",
    "M15": "Cannot be offered to or banished. Came up after the Lovers were honoured: offer their pair (+50). "
           "Came up before: honoured with the Chariot (no change), or with the Lovers (-50).",
    "M16": "Cannot be offered to or banished. While it stands, the next Sigil you would honour stays and the "
           "Tower takes its honour; that Sigil's offerings go to the heap. With none to discard it costs 50.",
    "M17": "Offer 2 figures, each of Cups or Pentacles.",
    "M18": "Offer 2 figures, each of Wands or Swords.",
    "M19": "Offer 3 figures, each an Ace, a Page or a Knight. Then the heap's top card returns cards: a "
           "number 2, an Ace 3, a Page 4, a Knight 5, a Queen or King 6.",
    "M20": "Offer 2 figures and 2 numbers: the figures of two different suits and the numbers of the same "
           "two suits. Then return 2.",
    "M21": "Offer number cards whose values add up to exactly 21. Then return 4.",
}
# A reversed Sigil in the reading reads as its keyword's shadow (our words).
SHADOWS = {
    "M0": "recklessness", "M1": "scattered will", "M2": "secrets kept", "M3": "smothering",
    "M4": "rigidity", "M5": "dogma", "M6": "discord", "M7": "aimlessness", "M8": "self-doubt",
    "M9": "isolation", "M10": "resisted change", "M11": "bias", "M12": "stalling",
    "M13": "clinging on", "M14": "excess", "M15": "release", "M16": "dread of change",
    "M17": "despair", "M18": "confusion lifting", "M19": "clouded joy", "M20": "hesitation",
    "M21": "loose ends",
}


def sun_returns(top: str | None) -> int:
    """How many cards the Sun's after-effect returns, by the heap's top card."""
    if top is None:
        return 0
    r = rank(top)
    if r == "A":
        return 3
    if r == "P":
        return 4
    if r == "N":
        return 5
    if r in ("Q", "K"):
        return 6
    return 2

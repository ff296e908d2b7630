"""A tarot wizard: the six-card creation spread, three skills, a Practice and a Prime Aspect.

The position meanings are the site's own words; the seven Practices are the rule text's
data table (their names and aspects), which players may use or replace with their own.
"""

from __future__ import annotations

import random

from games.engine import cards as deck
from games.engine.base import IllegalMove

SUITS = ("s", "w", "c", "p")  # the order the rule text lists a Practice in

# (id, label, what the card says of the wizard, gives a skill, always read upright)
POSITIONS = (
    ("heart", "At the centre", "who the wizard is now: temper, outlook, state of mind", False, False),
    ("obstacle", "Across", "the trouble so large that only magic seems able to move it", False, True),
    ("origin", "To the west", "how and why they came to magic", True, False),
    ("future", "To the east", "where they are heading if nothing changes", False, False),
    ("purpose", "To the north", "what their magic is for, or how it flows through them", True, False),
    ("means", "To the south", "what they carry and can call on: tools, trappings, resources", True, False),
)
POSITION_IDS = tuple(p[0] for p in POSITIONS)
SKILL_POSITIONS = tuple(p[0] for p in POSITIONS if p[3])

# The rule text's Practices (a data table): suit -> aspect.
PRACTICES = {
    "Technomancy": {"s": "Machines", "w": "Creation", "c": "Data", "p": "Money"},
    "Daemonic": {"s": "Calling", "w": "Commanding", "c": "Communing", "p": "Contracts"},
    "Elementalism": {"s": "Air", "w": "Fire", "c": "Water", "p": "Earth"},
    "Psychic": {"s": "Perception", "w": "Instinct", "c": "Emotion", "p": "Memory"},
    "Traveling": {"s": "Motion", "w": "Impulse", "c": "Time", "p": "Resistance"},
    "Witchcraft": {"s": "Hexes", "w": "Animation", "c": "Divination", "p": "Healing"},
    "The World": {"s": "Weather", "w": "Growth", "c": "Dreams", "p": "Flora & Fauna"},
}

MAX_ASPECT = 60
MAX_SKILL = 80
MAX_NOTE = 1000


def draw_spread(seed: int) -> list[dict]:
    """Six cards for the creation spread, drawn from ``seed``; the card across is upright."""
    rng = random.Random(f"wizard-spread:{seed}")
    drawn = rng.sample(deck.DECK, 6)
    return [{"position": pid, "card": card, "reversed": (not upright) and rng.random() < 0.5}
            for (pid, _l, _m, _s, upright), card in zip(POSITIONS, drawn)]


def recorded_spread(rows: list[dict]) -> list[dict]:
    """A physical draw the player typed in: six different cards, one per position."""
    if not isinstance(rows, list) or len(rows) != 6:
        raise IllegalMove("The creation spread has six cards, one for each position.")
    spread, seen = [], set()
    for (pid, label, _m, _s, upright), row in zip(POSITIONS, rows):
        card = row.get("card") if isinstance(row, dict) else None
        if not deck.is_card(card):
            raise IllegalMove(f"{label}: that is not a card of the deck.")
        if card in seen:
            raise IllegalMove(f"{label}: {deck.name(card)} is already in the spread; one deck has it once.")
        seen.add(card)
        spread.append({"position": pid, "card": card, "reversed": bool(row.get("reversed")) and not upright})
    return spread


def clean_practice(practice: dict, prime: str) -> tuple[dict, str]:
    """One aspect per suit (each a few words) and a Prime suit among them."""
    if not isinstance(practice, dict):
        raise IllegalMove("A Practice names an aspect for each suit.")
    cleaned = {}
    for suit in SUITS:
        aspect = str(practice.get(suit, "")).strip()
        if not aspect:
            raise IllegalMove(f"Name an aspect for {deck.SUIT_NAMES[suit]}.")
        if len(aspect) > MAX_ASPECT:
            raise IllegalMove(f"The aspect for {deck.SUIT_NAMES[suit]} is too long (at most {MAX_ASPECT} characters).")
        cleaned[suit] = aspect
    if prime not in SUITS:
        raise IllegalMove("Choose one of the four aspects as the Prime Aspect.")
    return cleaned, prime


def clean_skills(skills: dict) -> dict:
    """A skill for each of the three positions that give one."""
    if not isinstance(skills, dict):
        raise IllegalMove("Write a skill for each of the three positions that give one.")
    cleaned = {}
    for pid in SKILL_POSITIONS:
        skill = str(skills.get(pid, "")).strip()
        if not skill:
            raise IllegalMove(f"Write a skill for the card {position_label(pid).lower()}.")
        if len(skill) > MAX_SKILL:
            raise IllegalMove(f"A skill is a few words (at most {MAX_SKILL} characters).")
        cleaned[pid] = skill
    return cleaned


def position_label(pid: str) -> str:
    return next(p[1] for p in POSITIONS if p[0] == pid)


def position_meaning(pid: str) -> str:
    return next(p[2] for p in POSITIONS if p[0] == pid)


def aspect_of(practice: dict, suit: str) -> str:
    return practice.get(suit, "")

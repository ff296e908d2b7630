"""What kind of reading an entry is: a game of the site (its slug: every game the
registry lists, so a new game's readings are kept with no change here), a reading laid
with a physical deck, or a spread the site drew."""

from __future__ import annotations

from games.registry import entries

PHYSICAL = "physical"
DRAWN = "drawn"
WIZARDS = "tarot_wizards"  # a session at a tarot wizards table (games.wizards)
OWN_KINDS = {PHYSICAL: "Physical deck", DRAWN: "Drawn by the site", WIZARDS: "Tarot wizards session"}


def choices() -> list[tuple[str, str]]:
    """Every kind, for a model field or a form (a callable: no migration per new game)."""
    return [(game.slug, game.rules.title) for game in entries()] + list(OWN_KINDS.items())


def values() -> set[str]:
    return {value for value, _label in choices()}


def is_game(value: str) -> bool:
    return value in values() and value not in OWN_KINDS


def label(value: str) -> str:
    return dict(choices()).get(value, value)

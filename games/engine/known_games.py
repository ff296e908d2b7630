"""Every engine by its slug.  A game module registers its ``Rules`` here when imported
(``games.engine`` imports them all), so a new game is found without a line elsewhere in
the engine; a module of its own so that a game imports it without importing the
package that imports the game."""

from __future__ import annotations

from .base import Rules

RULES: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    RULES[rules.slug] = rules
    return rules


def get_rules(slug: str) -> Rules:
    try:
        return RULES[slug]
    except KeyError:
        raise ValueError(f"Unknown game {slug!r}; known games: {', '.join(sorted(RULES))}") from None


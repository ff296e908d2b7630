"""The pure rules engine: every game the site offers, behind one contract (ENGINE.md).

Nothing below this package imports Django; the web app, mail, bots and benchmarks all
drive games through ``get_rules(slug)`` alone.
"""

from __future__ import annotations

from .base import IllegalMove, Rules

RULES: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    RULES[rules.slug] = rules
    return rules


def get_rules(slug: str) -> Rules:
    try:
        return RULES[slug]
    except KeyError:
        raise ValueError(f"Unknown game {slug!r}; known games: {', '.join(sorted(RULES))}") from None


# Each game module registers itself on import; the order here is the order the site lists them.
# (game modules add their import line here)
from . import know_thyself  # noqa: E402,F401
from . import lovers_discourse  # noqa: E402,F401
from . import warring_planets  # noqa: E402,F401
from . import dream_odyssey  # noqa: E402,F401
from . import tarot_hallow  # noqa: E402,F401

__all__ = ["RULES", "IllegalMove", "Rules", "get_rules", "register"]

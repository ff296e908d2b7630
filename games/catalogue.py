"""What the "new game" page says about each mode and variation (the project's own words).

The mode's title and summary come from its engine (``Rules.title`` / ``summary``); the
variations are described here, in one table, since several modes share them.
"""

from __future__ import annotations

from games.engine import RULES

VARIANT_TEXT = {
    "standard": "The rules as written, with nothing changed.",
    "meditative": "Every Major absorbs twice its value, so each Sefira needs more Minors: a longer, "
                  "slower game.",
    "fated": "A Minor may only go onto a shortest column of the Material Plane, so fewer choices are "
             "open each turn.",
    "numerology": "A sacred number (6 to 10) is drawn first; a match is any set in a row or column whose "
                  "values add up to a multiple of it, instead of cards of one suit.",
    "noble": "A Guard that is a court card can only be beaten by another court card.",
    "outnumber": "Several raised Minors may attack one Guard together when their values add up to at "
                 "least the Guard's.",
}


def modes() -> list[dict]:
    """Every registered game in the site's order, with its variations described."""
    listed = []
    for slug, rules in RULES.items():
        listed.append({
            "slug": slug,
            "title": rules.title,
            "summary": rules.summary,
            "players": rules.min_players if rules.min_players == rules.max_players
            else f"{rules.min_players}-{rules.max_players}",
            "solo": rules.min_players == 1,
            "two_player": rules.max_players >= 2,
            "combinable": rules.combinable,
            "variants": [
                {"name": v, "text": VARIANT_TEXT.get(v, "")} for v in rules.variants if v != "standard"
            ],
        })
    return listed

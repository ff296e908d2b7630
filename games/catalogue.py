"""What the "new game" page says about each game and variation, from the registry (the
game's title and summary are its engine's, the variations' words the registry's)."""

from __future__ import annotations

from games.registry import VARIANT_TEXT, entries  # noqa: F401  (VARIANT_TEXT: tests check every variant has words)


def modes() -> list[dict]:
    """Every game the site offers, in the site's order, with its variations described."""
    listed = []
    for game in entries():
        rules = game.rules
        listed.append({
            "slug": game.slug,
            "title": rules.title,
            "summary": rules.summary,
            "players": rules.min_players if rules.min_players == rules.max_players
            else f"{rules.min_players}-{rules.max_players}",
            "solo": rules.min_players == 1,
            "two_player": rules.max_players >= 2,
            "cooperative": rules.cooperative,
            "min_players": rules.min_players,
            "max_players": rules.max_players,
            "combinable": rules.combinable,
            "variants": [
                {"name": v, "text": game.describe_variant(v)} for v in rules.variants if v != "standard"
            ],
            # Another edition of a game is offered under that game (``editions``).
            "edition_of": game.edition_of,
            "edition": game.edition,
            "differs": game.differs,
            "editions": [],
        })
    by_slug = {m["slug"]: m for m in listed}
    for mode in listed:
        if mode["edition_of"] in by_slug:
            by_slug[mode["edition_of"]]["editions"].append(mode)
    return listed

"""How many games wait for a player's move: the count in the navigation and page title."""

from __future__ import annotations

from games.models import Game, Seat
from sefirot_site.prepared import PreparedQuery

# Every poll of every open page brings this count: compiled once (sefirot_site.prepared).
_SEATS_IN_RUNNING_GAMES = PreparedQuery(
    lambda user_id: Seat.objects.filter(user=user_id, status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE)
    .values_list("index", "game__to_act"), 1)


def turn_count(user) -> int:
    """Running games where ``user`` is asked to act. A player has few running games, so
    ``to_act`` (a JSON list, not queryable alike on SQLite and PostgreSQL) is read here."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return sum(1 for index, to_act in _SEATS_IN_RUNNING_GAMES(user.pk) if index in (to_act or []))

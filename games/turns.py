"""How many games wait for a player's move: the count in the navigation and page title."""

from __future__ import annotations

from games.models import Game, Seat


def turn_count(user) -> int:
    """Running games where ``user`` is asked to act. A player has few running games, so
    ``to_act`` (a JSON list, not queryable alike on SQLite and PostgreSQL) is read here."""
    if not getattr(user, "is_authenticated", False):
        return 0
    seats = Seat.objects.filter(user=user, status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE)
    return sum(1 for index, to_act in seats.values_list("index", "game__to_act") if index in (to_act or []))

"""How many games wait for a player's move: the count in the navigation and page title,
and which one is next.

A game waits for its seats in ``to_act``; a tarot wizards session waits for the players
its game master asked to act (``asked`` in its state).  Both count, on every page: the
page's title and badge are drawn with the count, and every page asks ``games:waiting``
for it again every few seconds (``static/js/site.js``).
"""

from __future__ import annotations

import json

from django.db.models import CharField, F, Value
from django.db.models.functions import Cast
from django.urls import reverse

from games.models import Game, Seat
from games.wizards.models import PlaySession, SessionSeat
from sefirot_site.prepared import PreparedQuery

# Every poll of every open page asks this: compiled once (sefirot_site.prepared).  One
# statement for both kinds of table: each row the kind, the seat (a game's seat number as
# text, a session's key), who the table asks (``to_act``, or ``asked`` read out of the
# session's state by the database, a key of a JSON field alike on SQLite and PostgreSQL,
# so the state with its whole deck never reaches Python here), the table's id and its last
# change (the table waiting longest is the next one).
def _asking(user_id):
    games = (Seat.objects.filter(user=user_id, status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE)
             .annotate(kind=Value("g"), seat=Cast("index", CharField()), asks=F("game__to_act"),
                       table=F("game_id"), changed=F("game__updated_at"))
             .order_by().values_list("kind", "seat", "asks", "table", "changed"))
    sessions = (SessionSeat.objects.filter(user=user_id, session__status=PlaySession.Status.LIVE)
                .annotate(kind=Value("w"), seat=F("key"), asks=F("session__state__asked"),
                          table=F("session_id"), changed=F("session__updated"))
                .order_by().values_list("kind", "seat", "asks", "table", "changed"))
    return games.union(sessions, all=True)


_ASKING = PreparedQuery(_asking, 1)


def _waiting_rows(user) -> list[tuple[str, int, object]]:
    """(kind, table id, last change) of every game and session asking ``user`` to act."""
    if not getattr(user, "is_authenticated", False):
        return []
    rows = []
    for kind, seat, asks, table, changed in _ASKING(user.pk):
        if isinstance(asks, str):  # a key of a JSON field, as SQLite gives it back
            asks = json.loads(asks)
        if (int(seat) if kind == "g" else seat) in (asks or []):
            rows.append((kind, table, changed))
    return rows


def turn_count(user) -> int:
    """Running games and live wizards sessions where ``user`` is asked to act. A player has
    few of them, so ``to_act`` and ``asked`` (JSON lists, not queryable alike on SQLite and
    PostgreSQL) are read here."""
    return len(_waiting_rows(user))


def waiting(user) -> list[str]:
    """The addresses of the games and sessions asking ``user`` to act, the one waiting
    longest first: what "Next game waiting" leads to after a move."""
    rows = sorted(_waiting_rows(user), key=lambda row: row[2])
    return [reverse("games:game" if kind == "g" else "wizards:session", args=[table]) for kind, table, _ in rows]

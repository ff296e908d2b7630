"""What the players' pages read: a player's record, ratings and their history, recent
games; players found by name; the players one follows. Each function asks a constant
number of queries whatever the number of games, ratings or players (tests/games/
test_players.py asserts it at 10 and 200)."""

from __future__ import annotations

from functools import reduce
from operator import or_

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, F, IntegerField, OuterRef, Prefetch, Q, Window
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast, RowNumber

from games.engine import RULES
from games.models import Game, Seat
from games.ratings.models import PROVISIONAL_GAMES, Rating, RatingChange
from sefirot_site.accounts.names import name_key

from .models import Follow

RECENT_GAMES = 10
# The chart's points per game: the newest this many changes (a rating moves slowly, and a
# chart of more points than pixels says no more).
HISTORY_POINTS = 120
PAGE = 30
# No game seats more than six, so a seat won when its index is among the first six winners.
MOST_SEATS = 6


def title_of(mode: str) -> str:
    rules = RULES.get(mode)
    return rules.title if rules else mode


def _winner(i: int):
    # The outcome's winners are seat indexes: the i-th of them, read as a whole number
    # (a JSON array's item, the same on PostgreSQL and SQLite; NULL past its end).
    return Cast(KeyTextTransform(str(i), KeyTransform("winners", "game__outcome")), IntegerField())


def record(user) -> list[dict]:
    """Per game the player finished: how many and how many they won (together, in a
    cooperative game), in one grouped query."""
    seats = Seat.objects.filter(user=user, status=Seat.Status.JOINED, game__status=Game.Status.FINISHED)
    seats = seats.annotate(**{f"winner_{i}": _winner(i) for i in range(MOST_SEATS)})
    won = reduce(or_, (Q(**{f"winner_{i}": F("index")}) for i in range(MOST_SEATS)))
    rows = seats.values("game__mode").order_by("game__mode").annotate(played=Count("pk"), won=Count("pk", filter=won))
    table = [{"mode": r["game__mode"], "title": title_of(r["game__mode"]), "played": r["played"], "won": r["won"],
              "solo": RULES[r["game__mode"]].max_players == 1 if r["game__mode"] in RULES else False}
             for r in rows]
    return sorted(table, key=lambda row: row["title"])


def ratings(user) -> list[dict]:
    """The player's ratings, each with its newest changes (oldest first) for the chart."""
    current = list(Rating.objects.filter(user=user).order_by("mode"))
    if not current:
        return []
    changes = (RatingChange.objects.filter(user=user)
               .annotate(newness=Window(RowNumber(), partition_by=F("mode"), order_by=F("games").desc()))
               .filter(newness__lte=HISTORY_POINTS).order_by("mode", "games"))
    by_mode: dict[str, list] = {}
    for change in changes:
        by_mode.setdefault(change.mode, []).append(change)
    return [{"mode": r.mode, "title": title_of(r.mode), "rating": r, "changes": by_mode.get(r.mode, []),
             "provisional_left": max(0, PROVISIONAL_GAMES - r.games)} for r in current]


def recent_games(user, *, public_only: bool = False) -> list[dict]:
    """The player's newest finished games, each with its seats (names) and how it ended
    for them (``ended``: "won", "lost", "a draw"...).  ``public_only`` for anyone but the
    player: a private game (a daily deal's too) is its players' own, even that it was played."""
    seats = Seat.objects.filter(user=user, status=Seat.Status.JOINED, game__status=Game.Status.FINISHED)
    if public_only:
        seats = seats.filter(game__public=True)
    seats = (seats
             .select_related("game").defer("game__state")
             .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
             .order_by("-game__finished_at", "-game_id")[:RECENT_GAMES])
    entries = []
    for seat in seats:
        game = seat.game
        ended = game.result_for(seat.index)
        entries.append({"game": game, "others": [s for s in game.seats.all() if s.pk != seat.pk],
                        # "you won" as the game says it to its player, "won" said of them.
                        "ended": ended[4:] if ended.startswith("you ") else ended})
    return entries


def follows(viewer, user) -> bool:
    if not viewer.is_authenticated:
        return False
    return Follow.objects.filter(follower=viewer, followed=user).exists()


def _with_followed(users, viewer):
    return users.annotate(followed_by_viewer=Exists(Follow.objects.filter(follower=viewer.pk, followed=OuterRef("pk"))))


def search(text: str, viewer, page: int) -> tuple[list, bool]:
    """Page ``page`` of the active players whose user name or display name reads as
    containing ``text`` (compared by the names' keys: case, widths, look-alike letters
    aside), those whose name is ``text`` first; and whether a next page follows."""
    key = name_key(" ".join(text.split()))
    if not key:
        return [], False
    users = get_user_model().objects.filter(is_active=True).filter(
        Q(username_key__contains=key) | Q(display_name_key__contains=key))
    users = _with_followed(users, viewer).annotate(
        named=Exists(get_user_model().objects.filter(pk=OuterRef("pk")).filter(
            Q(username_key=key) | Q(display_name_key=key))))
    start = (page - 1) * PAGE
    found = list(users.order_by("-named", "username", "pk")[start:start + PAGE + 1])
    return found[:PAGE], len(found) > PAGE


def following(viewer, page: int) -> tuple[list, bool]:
    """Page ``page`` of the players ``viewer`` follows, by name."""
    users = get_user_model().objects.filter(followers__follower=viewer)
    start = (page - 1) * PAGE
    found = list(_with_followed(users, viewer).order_by("username", "pk")[start:start + PAGE + 1])
    return found[:PAGE], len(found) > PAGE

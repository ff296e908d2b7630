"""What "My games" lists: the games in play in full, the finished ones a page at a time;
and what the page of games to watch lists (``being_played``).

A player's games in play are few (those they act in now); their finished games grow
without end, so the page reads and draws only one page of those (issue 38: at 1,000
games the page drew all of them, 59 KB and 8.4x the time at 10). Each function asks a
constant number of queries whatever the number of games.
"""

from __future__ import annotations

from django.db.models import Prefetch

from games.models import Game, GameEvent, Seat
from games.services import watches_without_a_seat
from games.players.models import Follow

FINISHED_PAGE = 20


def _with_seats(queryset, path: str = "seats"):
    # The other seats and their users in one more query; the engine state is not needed.
    return queryset.prefetch_related(Prefetch(path, queryset=Seat.objects.select_related("user")))


def in_play(user) -> dict[str, list[dict]]:
    """The player's invitations, the games waiting for their move (the nearest deadline,
    then the longest waiting, first) and those waiting for others, each entry a dict of
    ``game``, ``seat``, ``others`` and ``result`` for ``games/_game_row.html``."""
    seats = _with_seats(
        Seat.objects.filter(user=user, game__status__in=(Game.Status.ACTIVE, *Game.WAITING))
        .exclude(status=Seat.Status.DECLINED)
        # The inviter (an invitation's line names them) and the clock in the same query.
        .select_related("game", "game__paused_clock", "game__created_by")
        .defer("game__state")
        .order_by("-game__updated_at", "-game_id"),
        "game__seats",
    )
    lists = {"invitations": [], "my_turn": [], "waiting": []}
    for seat in seats:
        game = seat.game
        entry = {"game": game, "seat": seat, "others": [s for s in game.seats.all() if s.pk != seat.pk],
                 "result": game.result_for(seat.index)}
        if seat.status == Seat.Status.INVITED and game.status == Game.Status.INVITED:
            lists["invitations"].append(entry)
        elif game.status == Game.Status.ACTIVE and seat.index in game.to_act:
            lists["my_turn"].append(entry)
        else:
            lists["waiting"].append(entry)
    # The games of computer players alone the player watches (services.watches_without_a_seat).
    for game in _with_seats(_watched(user).filter(status=Game.Status.ACTIVE)
                            .select_related("paused_clock", "created_by").defer("state").order_by("-updated_at")):
        lists["waiting"].append({"game": game, "others": list(game.seats.all()), "watching": True})
    lists["my_turn"].sort(key=lambda e: (e["game"].deadline is None, e["game"].deadline or e["game"].updated_at))
    return lists


def _watched(user):
    """The games ``user`` made for computer players alone, holding no seat, that no person
    ever left (a seat taken over was a person's: services.watches_without_a_seat)."""
    return (Game.objects.filter(created_by=user).exclude(seats__user=user)
            .exclude(seats__user__computer_level="").exclude(seats__user__username__startswith="house-"))


def finished(user, page: int) -> tuple[list[dict], bool]:
    """Page ``page`` (from 1) of the player's finished games, newest first, and whether
    an older page follows. Tables the player left (the house plays their seat on) are
    among them, whatever their state."""
    played = (Seat.objects.filter(user=user, game__status__in=Game.ENDED, game__started_at__isnull=False)
              .exclude(status=Seat.Status.DECLINED).order_by().values_list("game_id", "game__updated_at"))
    left = GameEvent.objects.filter(kind=GameEvent.Kind.TAKEN_OVER, user=user).order_by().values_list(
        "game_id", "game__updated_at")
    watched = (_watched(user).filter(status__in=Game.ENDED, started_at__isnull=False).order_by()
               .values_list("pk", "updated_at"))
    # One ordered list of ids from the player's own rows (their seats, their leavings):
    # read in the index of seats by user, never the whole table of games.
    start = (page - 1) * FINISHED_PAGE
    rows = list(played.union(left, watched).order_by("-game__updated_at", "-game_id")[start:start + FINISHED_PAGE + 1])
    ids = [game_id for game_id, _ in rows[:FINISHED_PAGE]]
    games = _with_seats(Game.objects.filter(pk__in=ids).select_related("paused_clock", "created_by").defer("state"))
    by_id = {game.pk: game for game in games} if ids else {}
    entries = []
    for game_id in ids:
        game = by_id[game_id]
        seat = next((s for s in game.seats.all() if s.user_id == user.pk and s.status != Seat.Status.DECLINED), None)
        if seat is None and watches_without_a_seat(game, user):  # computer players alone
            entries.append({"game": game, "others": list(game.seats.all()), "watching": True,
                            "result": game.end_reason or "ended"})
        elif seat is None:  # the house took their seat over
            entries.append({"game": game, "others": list(game.seats.all()), "result": "you left"})
        else:
            entries.append({"game": game, "seat": seat, "others": [s for s in game.seats.all() if s.pk != seat.pk],
                            "result": game.result_for(seat.index)})
    return entries, len(rows) > FINISHED_PAGE


WATCH_PAGE = 20


def being_played():
    """The public games in play now, the one moved last first (the partial index
    ``games_watchable`` serves it), with their clock's pause (and whose vacation it is) in
    the same query and their seats and players in one more: what /games/watch/ lists a
    page at a time."""
    return _with_seats(Game.objects.filter(public=True, status=Game.Status.ACTIVE)
                       .select_related("paused_clock__user")
                       .defer("state", "options").order_by("-updated_at", "-pk"))
FOLLOWED_SHOWN = 12
FOLLOWED_CHALLENGES = 20


def followed(user) -> dict:
    """For My games: some of the players ``user`` follows (``followed_more`` if there are
    more) and their open challenges, newest first: three queries however many they are."""
    follows = list(Follow.objects.filter(follower=user).select_related("followed")
                   .order_by("followed__username_key", "followed_id")[:FOLLOWED_SHOWN + 1])
    challenges = []
    if follows:
        challenges = list(
            Game.objects.filter(status__in=Game.WAITING, seats__status=Seat.Status.OPEN,
                                created_by__in=Follow.objects.filter(follower=user).values("followed"))
            .exclude(seats__user=user).distinct()
            .select_related("created_by")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).defer("state").order_by("-created_at")[:FOLLOWED_CHALLENGES])
    return {"followed_players": [f.followed for f in follows[:FOLLOWED_SHOWN]],
            "followed_more": len(follows) > FOLLOWED_SHOWN, "followed_challenges": challenges}

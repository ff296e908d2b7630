"""Who may open a game, and as whom: the access helper every view of a game starts with.

- A player (a joined seat) opens every URL of their game.
- A player whose seat the house took over looks on (``LEFT``: read-only, their notes kept).
- The maker of a game of computer players alone watches it (``WATCHING``, decided by
  ``services.watches_without_a_seat``), public or private.
- Anyone else, logged in or not, looks on as a spectator (``SPECTATOR``) at a public
  game that has begun (``watchable``): the page, its poll and, once it is over, its
  history, drawn from the view of no seat (``view(state, None)``: never a hand, no move).
  Only the views that pass ``watch=True`` let a spectator in; every other URL of a game
  (moves, chat, notes, hints, the record) still answers 404 to whoever holds no seat.
- A private game, or one not begun, is nothing to whoever holds no seat: 404, as if it
  did not exist (a visitor not logged in is sent to log in, as for any game).

The seat a looker-on gets is never saved: it has no index (``seat.index is None`` is the
engine's spectator) and its status says which of the two it is.
"""

from __future__ import annotations

import functools

from django.contrib.auth.views import redirect_to_login
from django.http import Http404

from games import services
from games.models import Game, Seat
from games.page_regions import LEFT, SPECTATOR, WATCHING

# The statuses of a game that has been played (a cancelled or declined one never began).
PLAYED = (Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.ABANDONED)
# The statuses of the unsaved seat of whoever looks on without a seat of their own.
NO_SEAT = (LEFT, WATCHING, SPECTATOR)


def watchable(game: Game) -> bool:
    """Whether someone without a seat may look at ``game``: a public game once begun."""
    return game.public and game.started_at is not None and game.status in PLAYED


def get_game_for(request, game_id: int, *, joined: bool = True, left: bool = False,
                 watch: bool = False) -> tuple[Game, Seat]:
    """The game and the requesting user's seat in it; 404 for anyone without a seat.
    With ``left``, a player whose seat the house took over gets an unsaved seat without
    an index (status ``LEFT``): they look on as a spectator would; so does the maker of a
    game of computer players alone (``WATCHING``), public or private.  With ``watch``,
    anyone else (also a visitor not logged in) gets an unsaved seat without an index
    (status ``SPECTATOR``) at a ``watchable`` game."""
    game = services.game_with_seats(game_id)
    if game is None:
        raise Http404("No such game.")
    user = request.user
    seat = next((s for s in game.seats.all() if user.is_authenticated and s.user_id == user.pk), None)
    if seat is not None and (seat.status == Seat.Status.JOINED or not joined and not (watch and watchable(game))):
        return game, seat
    if left and seat is None and user.is_authenticated:
        if services.watches_without_a_seat(game, user):
            return game, Seat(game=game, index=None, user=user, status=WATCHING)
        if services.left_game_for(game, user):
            return game, Seat(game=game, index=None, user=user, status=LEFT)
    if watch and watchable(game):
        # A seat declined or never taken is no seat: they watch like anyone.
        return game, Seat(game=game, index=None, user=user if user.is_authenticated else None, status=SPECTATOR)
    raise Http404("No such game.")


def seat_in(game: Game, user, *, joined: bool = True) -> Seat:
    """The user's seat of a game already loaded; 404 for anyone without one."""
    seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    if seat is None or (joined and seat.status != Seat.Status.JOINED):
        raise Http404("No such game.")
    return seat


def login_unless_watchable(view):
    """``login_required``, except for a game anyone may watch: a visitor not logged in
    gets its spectator's page (and poll, and history); for any other game, or none, the
    login page, whether the game exists or not (as ``login_required`` did)."""
    @functools.wraps(view)
    def wrapped(request, game_id, *args, **kwargs):
        if not request.user.is_authenticated and not Game.objects.filter(
                pk=game_id, public=True, started_at__isnull=False, status__in=PLAYED).exists():
            return redirect_to_login(request.get_full_path())
        return view(request, game_id, *args, **kwargs)
    return wrapped

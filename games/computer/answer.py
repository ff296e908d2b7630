"""A move against a quick computer player comes back with the computer's answer (issue 42).

The move's request plays the quick computer's move itself, once the person's move is
committed: its answer (or, without JavaScript, the page its redirect opens) brings both,
in one round trip, without waiting on the worker.  On a phone's slow network (400 ms of
latency) a second round trip, a poll's, is most of the wait; and the worker, fast as the
bot's choice is (5 ms of CPU), commits the computer's move 0.3 s (p50) to 0.9 s (p95)
after the person's on a loaded machine (its queue, its outbox row, waiting for a CPU),
which the move's answer used to wait for (bench/phone.py).

The outbox stays the guarantee: the person's move records the worker's task
(``tasks.play_computer_move``) in its own transaction, as before.  The request then plays
the computer's move through the task's own path (``play.play_computer_turn``: the same
seat, the same seeded choice, ``services.submit_move`` at the version it saw, in its own
transaction under the game's lock), so whichever of the two comes second finds the game
moved on and plays nothing: the task, run after the request, has nothing to do, and a
request that dies, or a setting that turns this off, leaves the move to the worker.

Only the quick levels are played here; the searching ones think for seconds, which would
hold the person's own move back: the worker plays them, and the page's fast poll
(``game_parts.POLL_FAST``) finds their move.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import transaction

from games import services
from games.models import Game

from .play import computer_to_play, play_computer_turn

logger = logging.getLogger(__name__)

# The levels quick enough to play in a request: the greedy one (also the house's,
# services.HOUSE_LEVEL) chooses in a few milliseconds of CPU, and with its move's writes
# costs the request some 20 ms; the searching levels take seconds.
QUICK_LEVELS = frozenset({"greedy", "random"})

# A table of several quick computers may have a few of them answer in turn: the request
# plays them until this much time has gone (then the worker plays the rest, and the fast
# poll finds them), so a person's move is never held back long.
BUDGET_SECONDS = 0.3


def quick_computer_to_play(game: Game):
    """The seat of a quick computer player that plays next in ``game`` (as a move just left
    it, its seats loaded: no query), or None (a person's turn, a searching level's, the
    game over)."""
    if game.status != Game.Status.ACTIVE:
        return None
    seat = computer_to_play(game)
    return seat if seat is not None and seat.user.computer_level in QUICK_LEVELS else None


def play_quick_answers(game: Game, *, newest_moves: int = 0) -> Game | None:
    """Play, in this request, the moves of the quick computer players that ``game`` (as a
    committed move just left it, with its seats loaded) asks to act, one after another
    while one is asked, within ``BUDGET_SECONDS``; the game as the last of them left it
    (``game`` itself if none was played; ``newest_moves`` as for ``services.submit_move``),
    or None where the worker played first (or anything went wrong): load it again.  Off
    with ``settings.COMPUTER_MOVES_IN_REQUEST``, and inside a transaction (a caller's, a
    test's), where the person's move is not committed yet and its task not published."""
    if not settings.COMPUTER_MOVES_IN_REQUEST or transaction.get_connection().in_atomic_block:
        return game
    until = time.monotonic() + BUDGET_SECONDS
    while (seat := quick_computer_to_play(game)) is not None and time.monotonic() < until:
        try:
            game = play_computer_turn(game, seat, newest_moves=newest_moves).game
        except (services.StaleMove, services.GameNotRunning):
            return None  # the worker played it first (or the game ended meanwhile)
        except Exception:
            # The person's move stands whatever happens here, and the worker, whose task
            # is in the outbox, plays the computer's: the answer must not be a 500.
            logger.exception("the computer's answer in game %s, played in the request", game.pk)
            return None
    return game

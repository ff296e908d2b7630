"""A move against a quick computer player comes back with the computer's answer (issue 42).

A computer's move is played by a Celery worker (``tasks.play_computer_move``), queued when
the person's move commits; the quick level's move is committed a few tenths of a second
later.  Were the move's own answer sent at once, the page would learn of the computer's
move only by its next poll: one more round trip, which on a phone's slow network (400 ms
of latency) is most of the wait.  So the move's view, once the move is committed and no
lock or transaction is held, waits a little for the computer's move (``wait_for_answer``)
and draws the regions as they then are: the player's move and the computer's answer in
one answer.  Should the computer not have answered within the bound, the answer is drawn
as the move left the game, and the page's fast poll (``game_parts.POLL_FAST``) finds the
computer's move when it comes.

Waiting is a cheap read of the game's row (its version, status and seats asked) every
``CHECK_EVERY`` seconds: the same with PostgreSQL and with the embedded defaults
(SQLite, no Redis to signal on), and it costs at most ``CHECK_EVERY`` of delay, against
the 400 ms a round trip costs on the slow network the bench measures (bench/phone.py).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import transaction

from games.models import Game, Seat

# The levels whose move is quick enough to wait for: the greedy one (also the house's,
# services.HOUSE_LEVEL) answers 0.2-0.3 s after the move; the searching levels take
# seconds, and a wait for them would only hold back the player's own move.
QUICK_LEVELS = frozenset({"greedy", "random"})

# How long a move's answer waits at most for the computer's: settings.COMPUTER_ANSWER_WAIT_MS,
# 1000 ms by default (0 turns the wait off).  A web worker is a sync gunicorn process (two
# by default, settings.WEB_WORKERS) that serves nobody else while it waits, so the bound is
# small, but above the quick computer's answer: its move is committed p50 0.15-0.3 s, p95
# 0.3-0.8 s after the player's (bench/phone.py, two cores at a load average of 20 to 30;
# the bot's own choice is 5 ms of CPU, the rest is the worker's queue, its outbox row and
# the move's writes, and waiting for a CPU).  At 800 ms, 1 to 3 moves in 30 were missed
# there, and a miss costs more than the wait it saves: the move's answer comes later by
# the bound, then the fast poll's round trip finds the computer's move (2.4 to 3.4 s on
# the slow network, against 1 s for a move answered with it).  A person moves every few
# seconds at the quickest, so one player holds a worker for a small part of its time; a
# site with few workers and many players at quick computers can lower it (or set 0).
# A read of one row by its key: a fraction of a millisecond.  Every 20 ms, the wait
# costs at most 40 such reads, and adds at most 20 ms to the answer.
CHECK_EVERY = 0.02


def quick_computer_seats(game: Game) -> set[int]:
    """The seats of ``game`` (its seats loaded: no query) played by a quick computer."""
    return {s.index for s in game.seats.all()
            if s.status == Seat.Status.JOINED and s.user is not None and s.user.computer_level in QUICK_LEVELS}


def waits_for_a_computer(game: Game) -> bool:
    """Whether the game, as a move just left it, waits on a quick computer player."""
    return game.status == Game.Status.ACTIVE and bool(set(game.to_act) & quick_computer_seats(game))


def wait_for_answer(game: Game, bound: float | None = None) -> bool:
    """Wait, at most ``bound`` seconds, until no quick computer player of ``game`` (as a
    move just left it, committed) is asked to act any more (it moved, perhaps more than
    once, or the game ended); True if the game moved on meanwhile.  ``bound`` is
    ``settings.COMPUTER_ANSWER_WAIT_MS`` unless given.  Call it outside any
    transaction: each read must see what the worker committed since."""
    if transaction.get_connection().in_atomic_block:
        # The move is not committed yet, so no worker has it (a caller's transaction, a
        # test's): nothing to wait for.
        return False
    bound = settings.COMPUTER_ANSWER_WAIT_MS / 1000 if bound is None else bound
    computers = quick_computer_seats(game)
    rows = Game.objects.filter(pk=game.pk).values_list("version", "status", "to_act")
    deadline = time.monotonic() + bound
    version = game.version
    while time.monotonic() < deadline:
        time.sleep(CHECK_EVERY)
        row = rows.first()
        if row is None:  # deleted meanwhile: the answer says so as it would have
            return False
        version, status, to_act = row
        if status != Game.Status.ACTIVE or not set(to_act) & computers:
            break
    return version != game.version

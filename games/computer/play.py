"""A computer player's move, from its seat's view alone.

Two callers play it through this one path: the worker's task (``tasks.play_computer_move``,
recorded in the outbox with the move that asked for it, so it is never lost) and, for a
quick level, the request of that move itself (``answer.play_quick_answers``), so that its
answer brings the computer's move.  Both pick the same seat and, from the same seed, the
same move, and both play it through ``services.submit_move`` at the version they saw, under
the game's lock: whichever comes second finds the game moved on (``StaleMove``) and plays
nothing.
"""

from __future__ import annotations

from games import services
from games.bots import choose_move
from games.models import Game, Move, Seat


def computer_to_play(game: Game) -> Seat | None:
    """The computer seat of ``game`` (its seats loaded with it: no query) that plays next:
    the first by index of the joined computer seats asked to act, or None."""
    asked = [s for s in game.seats.all() if s.index in game.to_act and s.status == Seat.Status.JOINED
             and s.user is not None and s.user.computer_level]
    return min(asked, key=lambda s: s.index, default=None)


def play_computer_turn(game: Game, seat: Seat, *, newest_moves: int = 0) -> Move:
    """Play ``seat``'s move in ``game`` as loaded (``services.game_with_seats``, or a move's
    record's game), at its version; ``StaleMove`` if the game moved on meanwhile (the move
    was played by the other caller, or someone else moved).  ``newest_moves`` as for
    ``services.submit_move``."""
    rules = game.rules
    state = game.load_state()
    # From the seat's view and its legal moves alone: the bot cannot peek.
    view, moves = rules.view(state, seat.index), rules.legal_moves(state, seat.index)
    move = choose_move(rules, view, moves, seat.index, seat.user.computer_level,
                       seed=(game.seed * 1_000_003 + game.version) % 2**62)
    return services.submit_move(game.pk, seat, move, game.version, newest_moves=newest_moves)

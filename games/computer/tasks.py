"""The computer's move, made by a worker."""

from __future__ import annotations

import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task(name="games.play_computer_move", soft_time_limit=30, time_limit=40)
def play_computer_move(game_id: int, version: int) -> str:
    """Play the move of a computer seat that must act at ``version``; idempotent: once the
    game moved on (its move was played, here or by the request of the move that asked for
    it, or a person's), there is nothing to do."""
    from games import services

    from .play import computer_to_play, play_computer_turn

    game = services.game_with_seats(game_id)
    if game is None or game.status != game.Status.ACTIVE or game.version != version:
        return "moved on"
    seat = computer_to_play(game)
    if seat is None:
        return "no computer to act"
    try:
        record = play_computer_turn(game, seat)
    except (services.StaleMove, services.GameNotRunning):  # played meanwhile, perhaps its last move
        return "moved on"
    return f"played {record.move['type']}"


@shared_task(name="games.review_solo_game", soft_time_limit=150, time_limit=180,
             autoretry_for=(OSError,), max_retries=3, default_retry_delay=30)
def review_solo_game(game_id: int) -> str:
    """Review a finished solo game (games.computer.advice); a review once done is kept."""
    from .advice import compute_review

    return compute_review(game_id)

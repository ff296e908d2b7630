"""The computer's move, made by a worker."""

from __future__ import annotations

import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task(name="games.play_computer_move", soft_time_limit=30, time_limit=40)
def play_computer_move(game_id: int, version: int) -> str:
    """Play the move of a computer seat that must act at ``version``; idempotent: once the
    game moved on (its move was played, or a person's), there is nothing to do."""
    from games import services
    from games.bots import choose_move
    from games.models import Game, Seat

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.version != version:
        return "moved on"
    seat = (Seat.objects.select_related("user")
            .filter(game=game, index__in=game.to_act, status=Seat.Status.JOINED)
            .exclude(user__computer_level="").order_by("index").first())
    if seat is None:
        return "no computer to act"
    rules = game.rules
    state = game.load_state()
    # From the seat's view and its legal moves alone: the bot cannot peek.
    view, moves = rules.view(state, seat.index), rules.legal_moves(state, seat.index)
    move = choose_move(rules, view, moves, seat.index, seat.user.computer_level,
                       seed=(game.seed * 1_000_003 + version) % 2**62)
    try:
        services.submit_move(game.pk, seat, move, version)
    except services.StaleMove:
        return "moved on"
    return f"played {move['type']}"


@shared_task(name="games.review_solo_game", soft_time_limit=150, time_limit=180,
             autoretry_for=(OSError,), max_retries=3, default_retry_delay=30)
def review_solo_game(game_id: int) -> str:
    """Review a finished solo game (games.computer.advice); a review once done is kept."""
    from .advice import compute_review

    return compute_review(game_id)

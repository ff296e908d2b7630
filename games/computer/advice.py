"""Hints and reviews on the site, for any game played alone (one seat, a bot behind it):
Know Thyself, Dream Odyssey and any solo game that registers later."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.bots import advice
from games.engine.words import for_reader
from games.models import Game, Seat
from sefirot_site.outbox import enqueue

from .models import Review

HINT_LEVEL = "ismcts"
REVIEW_LEVEL = "greedy"  # the bot whose choice each move is compared with
REVIEW_PLAYOUTS = 6
REVIEW_SECONDS = 100  # the worker stops estimating after this and marks the rest unknown


class NoAdvice(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def offers_advice(game: Game) -> bool:
    return game.players == 1


def hint_for(game: Game, seat: Seat) -> str:
    """The computer's suggestion for the seat's move now, in a sentence for "you"."""
    if not offers_advice(game):
        raise NoAdvice("Hints are given in the games played alone.")
    if not game.hints:
        raise NoAdvice("There are no hints in the daily deal: everyone plays the same cards on their own.")
    if game.status != Game.Status.ACTIVE or seat.index not in game.to_act:
        raise NoAdvice("A hint is given on your turn, while the game is on.")
    rules, state = game.rules, game.load_state()
    got = advice.hint(rules, rules.view(state, seat.index), rules.legal_moves(state, seat.index),
                      seat.index, HINT_LEVEL, seed=game.seed + game.version)
    words = for_reader(got["words"], seat.index, {seat.index: seat.player_name})
    why = for_reader(got["why"], seat.index, {seat.index: seat.player_name})
    return f"The computer would: {words[:1].lower() + words[1:]}. Why: {why}"


def request_review(game: Game) -> Review:
    """The game's review, asked of a worker the first time (through the outbox, after the
    commit); later calls return the same row."""
    if not offers_advice(game):
        raise NoAdvice("Reviews are made of the games played alone.")
    if game.status != Game.Status.FINISHED or not game.moves.exists():
        raise NoAdvice("A review is made once the game is over.")
    with transaction.atomic():
        review, created = Review.objects.get_or_create(game=game, defaults={"level": REVIEW_LEVEL})
        if created:
            # By name: the task (tasks.review_solo_game) calls back into this module.
            enqueue("games.review_solo_game", game.pk)
    return review


def compute_review(game_id: int) -> str:
    """Fill in the review (the worker's part); idempotent: a review once done stays."""
    review = Review.objects.filter(pk=game_id).select_related("game").first()
    if review is None or review.status == Review.Status.DONE:
        return "nothing to do"
    game = review.game
    rules = game.rules
    record = [(m.seat, m.move) for m in game.moves.order_by("number")]
    deadline = timezone.now().timestamp() + REVIEW_SECONDS
    rows = advice.review(rules, game.seed, game.players, game.options, record, 0,
                         level=review.level, bot_seed=game.seed, playouts=REVIEW_PLAYOUTS,
                         deadline=deadline)
    name = {0: "you"}
    for row in rows:
        row["words"] = for_reader(row["words"], 0, name)
        row["bot_words"] = for_reader(row["bot_words"], 0, name)
    updated = Review.objects.filter(pk=game_id).exclude(status=Review.Status.DONE).update(
        rows=rows, status=Review.Status.DONE, finished_at=timezone.now())
    return "reviewed" if updated else "nothing to do"

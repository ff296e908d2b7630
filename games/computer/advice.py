"""Hints and reviews on the site, for any game played alone (one seat, a bot behind it):
Know Thyself, Dream Odyssey and any solo game that registers later."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.bots import advice
from games.engine.words import for_reader
from games.models import Game, Seat
from sefirot_site.outbox import enqueue

from .models import Review

REVIEW_PLAYOUTS = advice.PLAYOUTS
# The worker asks the advisor at each move for up to ADVICE_SECONDS (the moves after it are
# "not reviewed"), then estimates chances until REVIEW_SECONDS (the rest "not estimated"):
# both well inside the task's time limit (tasks.review_solo_game, 150 s).
ADVICE_SECONDS = 70
REVIEW_SECONDS = 110


class NoAdvice(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def offers_advice(game: Game) -> bool:
    return game.players == 1


def advice_iterations() -> int | None:
    """The advisor's budget, the same for the hint and the review (settings.ADVICE_ITERATIONS;
    0 or unset: the advisor level's own)."""
    return getattr(settings, "ADVICE_ITERATIONS", 0) or None


def advised(game: Game, seat: Seat) -> dict:
    """The advisor's ``{"move", "words", "why"}`` for the seat's move now."""
    if not offers_advice(game):
        raise NoAdvice("Hints are given in the games played alone.")
    if not game.hints:
        raise NoAdvice("There are no hints in the daily deal: everyone plays the same cards on their own.")
    if game.status != Game.Status.ACTIVE or seat.index not in game.to_act:
        raise NoAdvice("A hint is given on your turn, while the game is on.")
    rules, state = game.rules, game.load_state()
    # The game's version is the number of moves made: the review asks the advisor at the
    # same position with the same seed (advice.review's advice_seed(game.seed, n)), so the
    # two agree exactly.
    return advice.hint(rules, rules.view(state, seat.index), rules.legal_moves(state, seat.index),
                       seat.index, seed=advice.advice_seed(game.seed, game.version),
                       iterations=advice_iterations())


def hint_for(game: Game, seat: Seat) -> str:
    """The computer's suggestion for the seat's move now, in a sentence for "you"."""
    got = advised(game, seat)
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
        review, created = Review.objects.get_or_create(game=game, defaults={"level": advice.ADVICE_LEVEL})
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
    start = timezone.now().timestamp()
    rows = advice.review(rules, game.seed, game.players, game.options, record, 0,
                         bot_seed=game.seed, playouts=REVIEW_PLAYOUTS, deadline=start + REVIEW_SECONDS,
                         iterations=advice_iterations(), advice_deadline=start + ADVICE_SECONDS)
    name = {0: "you"}
    for row in rows:
        row["words"] = for_reader(row["words"], 0, name)
        if row["bot_words"] is not None:
            row["bot_words"] = for_reader(row["bot_words"], 0, name)
    updated = Review.objects.filter(pk=game_id).exclude(status=Review.Status.DONE).update(
        rows=rows, status=Review.Status.DONE, finished_at=timezone.now())
    return "reviewed" if updated else "nothing to do"

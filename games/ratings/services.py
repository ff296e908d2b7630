"""Rating a finished game, once, and rebuilding every rating from the record."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from openskill.models import PlackettLuce

from games.models import Game, Seat

from . import RATED_GAMES
from .models import RatedGame, Rating, RatingChange

MODEL = PlackettLuce()


def ranks(outcome: dict, players: int) -> list[int]:
    """Each seat's place, 1 the best, equal places for a tie: the winners first, then the
    others by score where the game keeps one."""
    winners = set(outcome.get("winners") or [])
    scores = outcome.get("scores") or [0] * players
    if len(scores) != players:
        scores = [0] * players
    keys = [(0 if s in winners else 1, -scores[s]) for s in range(players)]
    order = sorted(set(keys))
    return [order.index(k) + 1 for k in keys]


def rate_game(game_id: int, game: Game | None = None) -> bool:
    """Record a finished game's result in its players' ratings; False (and nothing done)
    for a game that is not rated, not finished, or already rated.  Runs inside the caller's
    transaction (the finishing move's), in a savepoint of its own.  ``game``, when the
    caller has it as that transaction left it, is not loaded again."""
    if game is None or game.pk != game_id:
        game = Game.objects.filter(pk=game_id).first()
    if (game is None or game.mode not in RATED_GAMES or game.status != Game.Status.FINISHED
            or not game.outcome or game.players < 2):
        return False
    seats = list(Seat.objects.filter(game=game, status=Seat.Status.JOINED, user__isnull=False)
                 .select_related("user").order_by("index"))
    if len(seats) != game.players or len({s.user_id for s in seats}) != len(seats):
        return False  # a seat without a player (an account deleted), or one player twice
    if all(s.user.is_computer for s in seats):
        # Computer players among themselves (a game someone watches): anyone could start
        # such games by the hundred and move the computers' ratings at will.
        return False
    try:
        with transaction.atomic():
            RatedGame.objects.create(game=game)  # the primary key makes twice impossible
            _update(game, [s.user_id for s in seats], ranks(game.outcome, game.players))
    except IntegrityError:
        return False
    return True


def _update(game: Game, user_ids: list[int], places: list[int]) -> None:
    mode = game.mode
    # Locked in id order, so two games ending at once never wait on each other in a ring.
    existing = {r.user_id: r for r in Rating.objects.select_for_update()
                .filter(mode=mode, user_id__in=user_ids).order_by("id")}
    before = []
    for uid in user_ids:
        r = existing.get(uid)
        before.append([MODEL.rating() if r is None else MODEL.rating(mu=r.mu, sigma=r.sigma)])
    after = MODEL.rate(before, ranks=places)
    changes = []
    for uid, (new,) in zip(user_ids, after):
        r = existing.get(uid)
        if r is None:
            r = Rating.objects.create(user_id=uid, mode=mode, mu=new.mu, sigma=new.sigma, games=1)
        else:
            r.mu, r.sigma, r.games = new.mu, new.sigma, r.games + 1
            r.save(update_fields=["mu", "sigma", "games", "updated_at"])
        changes.append(RatingChange(user_id=uid, mode=mode, game=game, mu=r.mu, sigma=r.sigma, games=r.games))
    # The profile's chart draws these; one statement for the whole table.
    RatingChange.objects.bulk_create(changes)


def rebuild() -> int:
    """Every rating again from the finished games in the order they ended (after a change
    of model, say); the same numbers as recorded one game at a time, and their history
    (``RatingChange``) with them, also for games rated before the history was kept."""
    with transaction.atomic():
        Rating.objects.all().delete()
        RatingChange.objects.all().delete()
        RatedGame.objects.all().delete()
        done = 0
        for game_id in (Game.objects.filter(status=Game.Status.FINISHED, mode__in=RATED_GAMES)
                        .order_by("finished_at", "pk").values_list("pk", flat=True)):
            done += rate_game(game_id)
    return done


def table(mode: str, limit: int = 10):
    return (Rating.objects.filter(mode=mode).select_related("user")
            .order_by("-mu", "sigma")[:limit])

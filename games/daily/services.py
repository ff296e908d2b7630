"""The daily deal's rules, in one place: views, receivers and tasks call these.

The seed scheme (secret-free, so anyone can check a day's deal; documented here and on
the page's help):

    digest  = SHA-256 of the text "sefirot-daily:<YYYY-MM-DD>:<mode>" (UTF-8)
    seed    = the first 8 bytes of the digest as a big-endian integer, shifted right by 2
              (62 bits: it fits the signed 64-bit column like every seed)
    variant = the engine's variations[(the next 8 bytes as an integer) mod their number]

The day is the UTC day (``today()``).  A consequence of a public scheme: someone who runs
the engine on their own machine can look at a day's cards beforehand.  The site itself
shows nothing of a deal to an account before it finished it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import time
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.engine import get_rules
from games.models import Game
from sefirot_site.outbox import enqueue

from .models import Deal, Play

# The solo games of the day, in the page's order.
MODES = ("know_thyself", "dream_odyssey", "hermits_arcana")
# The solver's budget per deal: CPU seconds (the solver's own measure), and the time on the
# clock, which a busy machine stretches (20 CPU seconds took 90 on a loaded two-core box):
# both well inside the outbox's run limit (120 s), so a search ends as "not settled"
# rather than being killed.
SOLVER_SECONDS = 40
SOLVER_WALL_SECONDS = 80
SOLVER_NODES = 3_000_000
# At most this many shared readings shown on a results page (each is a seal).
SHARED_SHOWN = 24


class DailyError(Exception):
    """A refusal for a person; ``status`` is the HTTP status a view answers with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def today() -> dt.date:
    return timezone.now().astimezone(dt.timezone.utc).date()


def _digest(day: dt.date, mode: str) -> bytes:
    return hashlib.sha256(f"sefirot-daily:{day.isoformat()}:{mode}".encode()).digest()


def seed_for(day: dt.date, mode: str) -> int:
    return int.from_bytes(_digest(day, mode)[:8], "big") >> 2


def variant_for(day: dt.date, mode: str) -> str:
    variants = get_rules(mode).variants
    return variants[int.from_bytes(_digest(day, mode)[8:16], "big") % len(variants)]


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise DailyError("There is no daily deal of that game: it is dealt for Know Thyself, Dream Odyssey "
                         "and Hermit's Arcana.", status=404)


def deal_for(day: dt.date, mode: str) -> Deal:
    """The deal of ``mode`` on ``day`` (today or earlier), made the first time it is asked
    for.  Two first requests at once meet the unique constraint: get_or_create's second
    try finds the row the other made."""
    _check_mode(mode)
    if day > today():
        raise DailyError("That day's deal is not dealt yet.", status=404)
    deal, _ = Deal.objects.get_or_create(day=day, mode=mode, defaults={
        "seed": seed_for(day, mode), "variant": variant_for(day, mode)})
    return deal


def todays_deals() -> list[Deal]:
    day = today()
    found = {d.mode: d for d in Deal.objects.filter(day=day, mode__in=MODES)}
    return [found.get(mode) or deal_for(day, mode) for mode in MODES]


@dataclass
class DealRow:
    """One of today's games as /daily/ lists it for an account."""
    deal: Deal
    title: str
    play: Play | None

    @property
    def variant_text(self) -> str:
        from games.registry import entry

        return entry(self.deal.mode).describe_variant(self.deal.variant)


def today_for(user) -> list[DealRow]:
    """Today's deals, each with the account's play of it (None: not played)."""
    deals = todays_deals()
    plays = {}
    if user is not None and user.is_authenticated:
        plays = {p.deal_id: p for p in Play.objects.filter(user=user, deal__in=deals)}
    return [DealRow(deal, get_rules(deal.mode).title, plays.get(deal.pk)) for deal in deals]


def start(user, mode: str) -> Game:
    """``user``'s game of today's deal of ``mode``: the same seed and variation as everyone's,
    hints off.  Refused once the account has played (or is playing) it: the unique
    constraint holds that even for two requests at once."""
    deal = deal_for(today(), mode)
    title = get_rules(mode).title
    if Play.objects.filter(deal=deal, user=user).exists():
        raise DailyError(f"You have already played today's {title} deal: each account plays it once.",
                         status=409)
    try:
        with transaction.atomic():
            # Private: a spectator of a daily game would see the day's deal before playing it.
            game = game_services.start_game(user, mode, {"variant": deal.variant}, seed=deal.seed,
                                            creator_looking=True, public=False)
            Game.objects.filter(pk=game.pk).update(hints=False)
            game.hints = False
            Play.objects.create(deal=deal, user=user, game=game)
    except IntegrityError:
        raise DailyError(f"You have already played today's {title} deal: each account plays it once.",
                         status=409) from None
    return game


def record_finish(game: Game) -> None:
    """Copy how a daily game ended into its play (called in the transaction that ended it);
    a game that is no daily deal's changes nothing."""
    outcome = game.outcome or {}
    scores = outcome.get("scores") or [None]
    finished = game.finished_at or timezone.now()
    started = game.started_at or game.created_at or finished
    Play.objects.filter(game_id=game.pk, finished_at__isnull=True).update(
        finished_at=finished,
        won=(outcome.get("result") == "win") if game.status == Game.Status.FINISHED else None,
        score=scores[0] if isinstance(scores[0], int) else None,
        moves=game.version,
        seconds=max(0, int((finished - started).total_seconds())),
    )


def finished_play(user, deal: Deal) -> Play:
    """The account's finished play of ``deal``, or a refusal that says why nothing of the
    deal can be shown yet."""
    play = None
    if user is not None and user.is_authenticated:
        play = Play.objects.filter(deal=deal, user=user).select_related("game").first()
    title = get_rules(deal.mode).title
    if play is None:
        if deal.day == today():
            raise DailyError(f"Play today's {title} deal to the end to see how everyone else did.", status=403)
        raise DailyError(f"You did not play the {title} deal of that day: its results are for those who did.",
                         status=403)
    if not play.finished:
        raise DailyError(f"Finish your game of today's {title} deal first: the results show the cards.",
                         status=403)
    return play


def results_path(game: Game) -> str:
    """The results page of the day's deal ``game`` was played in ("" for any other game):
    where its page and its mails send a player whose daily game ended.  Only a daily deal's
    game costs a query."""
    if not game.is_daily_deal:
        return ""
    deal = Deal.objects.filter(plays__game_id=game.pk).values_list("day", "mode").first()
    return reverse("daily:results", args=[deal[0].isoformat(), deal[1]]) if deal else ""


def leaderboard(deal: Deal) -> list[Play]:
    """Every finished play of the deal, best first: won before lost, then the higher score,
    the fewer moves, the shorter time.  One query, whatever their number."""
    return list(
        Play.objects.filter(deal=deal, finished_at__isnull=False).select_related("user")
        .defer("seal_svg", "seal_words")
        .order_by(F("won").desc(nulls_last=True), F("score").desc(nulls_last=True), "moves",
                  F("seconds").asc(nulls_last=True), "finished_at", "pk"))


def shared_readings(deal: Deal, limit: int = SHARED_SHOWN) -> list[Play]:
    """The plays of those who finished the deal and chose to show their reading, whose seal
    the worker has drawn.  One query, whatever their number."""
    return list(Play.objects.filter(deal=deal, finished_at__isnull=False, shared=True).exclude(seal_svg="")
                .select_related("user").order_by("finished_at", "pk")[:limit])


def set_shared(user, deal: Deal, shared: bool) -> Play:
    """Show (or hide again) the account's reading of a deal it finished.  The first time it
    is shown, its seal is asked of the worker, in the same transaction."""
    play = finished_play(user, deal)
    with transaction.atomic():
        Play.objects.filter(pk=play.pk).update(shared=shared)
        if shared and not play.seal_svg:
            enqueue("daily.draw_shared_seal", play.pk)
    play.shared = shared
    return play


def draw_shared_seal(play_id: int) -> str:
    """The worker's part: the seal of the player's journal entry of the game (their newest
    rendered seal's cards and words, else the reading's own), as SVG.  Idempotent."""
    from journal import services as journal
    from journal.models import Entry, Seal
    from journal.seals import render_seal

    play = Play.objects.filter(pk=play_id).first()
    if play is None or play.seal_svg:
        return "nothing to do"
    entry = Entry.objects.filter(source_game_id=play.game_id, owner_id=play.user_id).first()
    if entry is None:
        return "no reading"
    seal = entry.seals.filter(status=Seal.Status.DONE).order_by("-created", "-pk").first()
    cards, words = (seal.cards, seal.words) if seal else journal.default_seal_input(entry)
    svg = render_seal(cards, words, "svg", "10cm").decode()
    Play.objects.filter(pk=play_id, seal_svg="").update(seal_svg=svg, seal_words=list(words),
                                                       reading_title=entry.title[:200])
    return "drawn"


# --- streaks -----------------------------------------------------------------------------


def streaks(user) -> dict:
    """``{"current": n, "best": m}``: runs of consecutive UTC days on which the account
    finished at least one daily deal.  The current run counts up to today, or up to
    yesterday while today's deals are still open to it.  One query."""
    days = sorted(set(Play.objects.filter(user=user, finished_at__isnull=False)
                      .values_list("deal__day", flat=True)))
    best = run = 0
    previous = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = run if previous is not None and today() - previous <= dt.timedelta(days=1) else 0
    return {"current": current, "best": best}


# --- the solver --------------------------------------------------------------------------


def queue_solves() -> int:
    """Ask the worker to solve every deal whose day is over and whose verdict was never
    asked for: the request is recorded on the deal (QUEUED) and in the outbox, in one
    transaction, so a lost publish is redone by the outbox's sweep."""
    asked = 0
    for deal_id in Deal.objects.filter(day__lt=today(), solver=Deal.Solver.NOT_ASKED).values_list("pk", flat=True):
        with transaction.atomic():
            if Deal.objects.filter(pk=deal_id, solver=Deal.Solver.NOT_ASKED).update(solver=Deal.Solver.QUEUED):
                enqueue("daily.solve_deal", deal_id)
                asked += 1
    return asked


def solve(deal_id: int) -> str:
    """The worker's part: search the deal and store the verdict.  Idempotent: a deal once
    settled (or undecided) is left as it is."""
    from games.engine.words import for_reader
    from games.solver import SOLVABLE, UNDECIDED, WINNABLE, Result, iter_solve

    deal = Deal.objects.filter(pk=deal_id).first()
    if deal is None or deal.solver not in (Deal.Solver.NOT_ASKED, Deal.Solver.QUEUED):
        return "nothing to do"
    rules = get_rules(deal.mode)
    if deal.mode not in SOLVABLE:
        verdict, line, nodes = UNDECIDED, [], None
    else:
        first = rules.new_game(deal.seed, 1, {"variant": deal.variant})
        result, deadline = None, time.monotonic() + SOLVER_WALL_SECONDS
        for step in iter_solve(rules, first, max_nodes=SOLVER_NODES, max_seconds=SOLVER_SECONDS, every=5_000):
            if isinstance(step, Result):
                result = step
            elif time.monotonic() > deadline:
                result = Result(UNDECIDED, nodes=step.nodes, limit="time")
                break
        verdict, nodes, line = result.verdict, result.nodes, []
        if verdict == WINNABLE:
            state = first
            for move in result.line:
                seat = rules.to_act(state)[0]
                line.append(for_reader(rules.describe_move(state, seat, move), 0, {}))
                state = rules.apply(state, seat, move)
    Deal.objects.filter(pk=deal_id, solver__in=(Deal.Solver.NOT_ASKED, Deal.Solver.QUEUED)).update(
        solver=verdict, solver_line=line, solver_nodes=nodes, solved_at=timezone.now())
    return verdict

"""Asking for a finished deal's search, running it (the worker's part), and what the page
and the review say of it.

The search is asked for inside the transaction that ends the game (``receivers``): the
job's row and the outbox's row commit with the move that finished it, and the task is
published after the commit (``sefirot_site.outbox``).  A worker runs ``run_job``: it
claims the row (pending, or running with a heartbeat older than
``SOLVER_LOST_AFTER_SECONDS``: a worker that died mid-search), searches with the budgets
written in the row, reports its progress into the row as it goes, and writes the verdict.
A job already settled is left alone, so running it twice does nothing the second time.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games.daily.models import Play
from games.models import Game
from games.solver import SOLVABLE, UNDECIDED, UNWINNABLE, WINNABLE, Progress, Result, iter_solve
from games.solver.keys import key_function
from sefirot_site.outbox import enqueue

from .models import SolverJob

log = logging.getLogger(__name__)

TASK = "games.solve_deal"
# Attempts of one job before it is given up as failed (a search that keeps crashing its
# worker must not come back for ever).
MAX_ATTEMPTS = 3
# How many times the worker searches again from the position where the player's line left
# every winning line known so far, to place that departure better (see ``verdict_for``).
FOLLOW_UPS = 4


def solvable(game: Game) -> bool:
    """A finished game whose whole deal the solver can search: a one-seat game, or a
    cooperative pair's game (both hands are known once it is over).  Not a daily deal's
    game: everyone plays that deal, so the daily deal searches it once (``games.daily``),
    and says what it found only once the day is over."""
    return (game.mode in SOLVABLE and game.status == Game.Status.FINISHED and game.started_at is not None
            and not Play.objects.filter(game=game).exists())


def request_solve(game: Game) -> SolverJob | None:
    """The game's job, recorded (with the budgets of the settings) and its task queued
    after the commit the first time; later calls return the same row. None for a game the
    solver does not search."""
    if not solvable(game):
        return None
    with transaction.atomic():
        job, created = SolverJob.objects.get_or_create(game=game, defaults={
            "max_nodes": settings.SOLVER_MAX_NODES, "max_seconds": settings.SOLVER_MAX_SECONDS})
        if created:
            # By name: the task (tasks.solve_deal) calls back into this module.
            enqueue(TASK, game.pk)
    return job


def sweep() -> int:
    """Queue again the jobs no worker is on: pending ones whose outbox row is gone or
    failed (left for longer than the outbox's own sweep takes), running ones whose worker
    stopped reporting.  Returns how many were queued."""
    now = timezone.now()
    lost = SolverJob.objects.filter(
        Q(status=SolverJob.Status.PENDING, created_at__lt=now - timedelta(seconds=settings.SOLVER_LOST_AFTER_SECONDS * 4))
        | Q(status=SolverJob.Status.RUNNING, heartbeat_at__lt=now - timedelta(seconds=settings.SOLVER_LOST_AFTER_SECONDS)))
    queued = 0
    for game_id in lost.values_list("pk", flat=True)[:100]:
        with transaction.atomic():
            enqueue(TASK, game_id)
        queued += 1
    return queued


def _claim(game_id: int) -> SolverJob | None:
    now = timezone.now()
    stale = now - timedelta(seconds=settings.SOLVER_LOST_AFTER_SECONDS)
    claimed = (SolverJob.objects.filter(pk=game_id)
               .filter(Q(status=SolverJob.Status.PENDING) | Q(status=SolverJob.Status.RUNNING, heartbeat_at__lt=stale))
               .update(status=SolverJob.Status.RUNNING, attempts=F("attempts") + 1, started_at=now,
                       heartbeat_at=now, nodes=0, seconds=0.0))
    return SolverJob.objects.select_related("game").get(pk=game_id) if claimed else None


def run_job(game_id: int) -> str:
    """Search the game's deal and record the verdict (the worker's part); idempotent."""
    job = _claim(game_id)
    if job is None:
        return "nothing to do"
    if job.attempts > MAX_ATTEMPTS:
        _finish(job, SolverJob.Status.FAILED, error=f"given up after {MAX_ATTEMPTS} attempts")
        return "failed"
    try:
        return _run(job)
    except BaseException as error:
        # Handed back (the outbox retries it, with growing pauses): a job left "running"
        # would wait for the sweep instead.  The claim's count of attempts bounds it.
        SolverJob.objects.filter(pk=job.pk, status=SolverJob.Status.RUNNING).update(
            status=SolverJob.Status.PENDING, error=f"{type(error).__name__}: {error}"[:2000])
        raise


def _run(job: SolverJob) -> str:
    game = job.game
    rules = game.rules
    first = rules.replay(game.seed, game.players, game.options, [])
    # CPU seconds bound the search itself (a loaded machine does not shorten it); the wall
    # clock bounds the task, which must end within the outbox's run limit.
    wall_end = time.monotonic() + settings.SOLVER_WALL_SECONDS
    result = _search(rules, first, job, job.max_nodes, job.max_seconds, wall_end, report=True)
    if result.verdict == WINNABLE:
        record = [(m.seat, m.move) for m in game.moves.order_by("number")]
        left_at, proved, extra = _departure(rules, first, record, result.line, job, wall_end,
                                            spent_nodes=result.nodes, spent_seconds=result.seconds)
        _finish(job, SolverJob.Status.WON, line=result.line, nodes=result.nodes + extra[0],
                seconds=result.seconds + extra[1], left_at=left_at, left_proved=proved)
        return "won"
    status = SolverJob.Status.LOST if result.verdict == UNWINNABLE else SolverJob.Status.UNDECIDED
    _finish(job, status, nodes=result.nodes, seconds=result.seconds, limit=result.limit or "")
    return status


def _search(rules, state: dict, job: SolverJob, max_nodes: int, max_seconds: float, wall_end: float,
            report: bool) -> Result:
    last = Progress(0, 0.0, 0)
    # Every 20,000 positions: about a second of search, a row written no oftener than the page polls.
    for item in iter_solve(rules, state, max_nodes=max_nodes, max_seconds=max_seconds, every=20_000):
        if isinstance(item, Result):
            return item
        last = item
        if report:
            SolverJob.objects.filter(pk=job.pk, status=SolverJob.Status.RUNNING).update(
                nodes=item.nodes, seconds=round(item.seconds, 2), heartbeat_at=timezone.now())
        if time.monotonic() >= wall_end:
            return Result(UNDECIDED, None, last.nodes, last.seconds, "time", last.depth)
    raise AssertionError("the search ended without a result")


def _finish(job: SolverJob, status: str, **fields) -> None:
    fields.setdefault("error", "")
    SolverJob.objects.filter(pk=job.pk, status=SolverJob.Status.RUNNING).update(
        status=status, finished_at=timezone.now(), heartbeat_at=timezone.now(), **fields)


def first_departure(rules, first: dict, record: list[tuple[int, dict]], lines: list[list[dict]]) -> int | None:
    """The number of the first move of ``record`` after which the player's position is
    on none of ``lines`` (winning lines from ``first``); None if it never left them, or
    if the record itself wins.  Positions are compared as the solver compares them (its
    canonical keys: the same cards in the same places, whatever order of moves led
    there), so a player who reached a position of the line by other moves is still on it."""
    key = key_function(rules.slug)
    on_path = set()
    for line in lines:
        state = first
        on_path.add(key(state))
        for move in line:
            state = rules.apply(state, rules.to_act(state)[0], move)
            on_path.add(key(state))
    state = first
    for number, (seat, move) in enumerate(record, 1):
        state = rules.apply(state, seat, move)
        if key(state) not in on_path:
            outcome = rules.outcome(state)
            return None if outcome and outcome["result"] == "win" else number
    return None


def _departure(rules, first, record, line, job, wall_end, *, spent_nodes, spent_seconds):
    """Where the player's line left the winning lines known, searching again from the
    player's position there (with what is left of the budget) to find more of them: a win
    found from there is a winning line too, and the departure moves on; a proof that none
    wins from there makes the departure exact (that move lost the deal).  Returns the
    move's number, whether that was proved, and the (nodes, seconds) the follow-ups took."""
    lines = [line]
    nodes = seconds = 0
    for _ in range(FOLLOW_UPS + 1):
        left_at = first_departure(rules, first, record, lines)
        if left_at is None:
            return None, False, (nodes, seconds)
        budget_nodes = job.max_nodes - spent_nodes - nodes
        budget_seconds = job.max_seconds - spent_seconds - seconds
        if budget_nodes <= 0 or budget_seconds <= 0.5 or time.monotonic() >= wall_end:
            return left_at, False, (nodes, seconds)
        state = first
        for seat, move in record[:left_at]:
            state = rules.apply(state, seat, move)
        found = _search(rules, state, job, budget_nodes, budget_seconds, wall_end, report=False)
        nodes += found.nodes
        seconds += found.seconds
        if found.verdict == UNWINNABLE:
            return left_at, True, (nodes, seconds)
        if found.verdict != WINNABLE:
            return left_at, False, (nodes, seconds)
        lines.append([move for _, move in record[:left_at]] + found.line)
    return first_departure(rules, first, record, lines), False, (nodes, seconds)


def verdict_for(game: Game) -> dict | None:
    """What the solver says of the game, for the solution page and the review; None when
    it searches no such game or was never asked.

    ``status`` is the job's; ``headline`` the verdict in words ("This deal could be won",
    "No line wins this deal", "Not settled in 30 s"); ``summary`` a short line for a review
    ("winnable; you left the winning path at move 21").  ``left_at`` (a won deal the player
    lost) is the number of the player's first move after which their position was on no
    winning line the solver knows (the one it found from the deal's start, and those it
    found again from where the player had left the known ones): every position before it
    was one from which a known line still won.  ``left_proved`` says the solver also proved
    that no line at all wins from the position after that move, so that very move lost the
    deal; without it, another line may still have won from there, unknown to the solver.
    """
    job = SolverJob.objects.filter(game=game).first()
    if job is None:
        return None
    seconds = round(job.seconds)
    verdict = {"status": job.status, "nodes": job.nodes, "seconds": job.seconds, "left_at": job.left_at,
               "left_proved": job.left_proved, "line_length": len(job.line or []), "open": job.is_open}
    won_by_player = bool(game.outcome and game.outcome.get("result") == "win")
    if job.status == SolverJob.Status.WON:
        verdict["headline"] = "This deal could be won"
        if won_by_player:
            verdict["summary"] = "winnable; you won it"
        elif job.left_at is not None:
            verdict["summary"] = f"winnable; you left the winning path at move {job.left_at}"
            if job.left_proved:
                verdict["summary"] += " (no line won from there)"
        else:
            verdict["summary"] = "winnable"
    elif job.status == SolverJob.Status.LOST:
        verdict["headline"] = "No line wins this deal"
        verdict["summary"] = "no line wins this deal, whatever you played"
    elif job.status == SolverJob.Status.UNDECIDED:
        verdict["headline"] = f"Not settled in {seconds} s"
        verdict["summary"] = f"not settled in {seconds} s of search"
    elif job.status == SolverJob.Status.FAILED:
        verdict["headline"] = verdict["summary"] = "The search could not be run"
    else:
        verdict["headline"] = "Searching the deal…" if job.status == SolverJob.Status.RUNNING else "Waiting for the search…"
        verdict["summary"] = "not searched yet"
    return verdict

"""The solver's Celery tasks: the search of one finished deal, and the sweep of lost jobs."""

from __future__ import annotations

from celery import shared_task


# Run through the outbox (sefirot_site.outbox.run_pending, whose limits bound it as well);
# the budgets of the search itself (SOLVER_MAX_SECONDS, SOLVER_WALL_SECONDS) end it first.
@shared_task(name="games.solve_deal", soft_time_limit=110, time_limit=140,
             autoretry_for=(OSError,), max_retries=3, default_retry_delay=30)
def solve_deal(game_id: int) -> str:
    """Search the deal of a finished game (services.run_job); a job settled stays settled."""
    from .services import run_job

    return run_job(game_id)


@shared_task(name="games.sweep_solver_jobs", soft_time_limit=60, time_limit=90, ignore_result=True)
def sweep_solver_jobs() -> int:
    from .services import sweep

    return sweep()

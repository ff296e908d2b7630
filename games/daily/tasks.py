"""The solver runs here, in the worker, never in a request."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="daily.solve_deal", soft_time_limit=100, time_limit=115)
def solve_deal(deal_id: int) -> str:
    """Search one deal whose day is over (recorded as QUEUED on it first); idempotent."""
    from .services import solve

    return solve(deal_id)


@shared_task(name="daily.queue_solves", soft_time_limit=30, time_limit=40)
def queue_solves() -> str:
    """From the schedule: ask for the verdict of every deal whose day ended."""
    from .services import queue_solves as queue

    return f"asked {queue()}"


@shared_task(name="daily.draw_shared_seal", soft_time_limit=60, time_limit=75)
def draw_shared_seal(play_id: int) -> str:
    """Draw the seal of a reading its player chose to show (recorded in the outbox first)."""
    from .services import draw_shared_seal as draw

    return draw(play_id)

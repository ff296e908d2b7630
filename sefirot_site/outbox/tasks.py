"""Running a pending task, and the sweep that publishes what the broker lost."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import current_app, shared_task
from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from .models import PendingTask

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
SWEEP_BATCH = 500


def backoff(attempts: int) -> timedelta:
    """Pause before the next attempt: 30 s, 1, 2, 4 … minutes, at most half an hour."""
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 1800))


RUN_LIMIT_SECONDS = 150


@shared_task(soft_time_limit=120, time_limit=RUN_LIMIT_SECONDS, acks_late=True, ignore_result=True)
def run_pending(pending_id: int) -> str:
    """Run the recorded task once; a row already done, or being run elsewhere, is left alone.

    The row is claimed, run and marked in three short transactions rather than one long
    one, so a slow mail server never holds a lock (SQLite has one for the whole file).
    """
    now = timezone.now()
    open_rows = PendingTask.objects.filter(pk=pending_id, done_at__isnull=True, failed_at__isnull=True)
    claimed = open_rows.filter(Q(running_until__isnull=True) | Q(running_until__lt=now)).update(
        running_until=now + timedelta(seconds=settings.OUTBOX_CLAIM_SECONDS), attempts=F("attempts") + 1)
    if not claimed:
        return "nothing to do"
    row = PendingTask.objects.get(pk=pending_id)
    task = current_app.tasks.get(row.task)
    if task is None:
        _close(row, failed=True, error=f"no task named {row.task}")
        return "unknown task"
    try:
        result = task(*row.args)
    except Exception as error:  # noqa: BLE001 - recorded, and retried by the sweep
        _close(row, failed=row.attempts >= MAX_ATTEMPTS, error=f"{type(error).__name__}: {error}")
        return "failed"
    _close(row, result=str(result))
    return str(result)[:200]


def _close(row: PendingTask, *, failed: bool = False, error: str = "", result: str = "") -> None:
    now = timezone.now()
    fields = {"running_until": None}
    if error:
        fields["last_error"] = error[:2000]
        if failed:
            fields["failed_at"] = now
            log.error("outbox: %s gave up after %s attempts: %s", row, row.attempts, error)
        else:
            fields["due_at"] = now + backoff(row.attempts)
            log.warning("outbox: %s failed (%s); again from %s", row, error, fields["due_at"])
    else:
        fields.update(done_at=now, result=result[:200])
    PendingTask.objects.filter(pk=row.pk).update(**fields)


def sweep() -> int:
    """Publish every pending task whose time has come; returns how many were handed over."""
    now = timezone.now()
    due = list(PendingTask.objects.filter(done_at__isnull=True, failed_at__isnull=True, due_at__lte=now)
               .order_by("due_at").values_list("pk", "task")[:SWEEP_BATCH])
    handed = 0
    for pending_id, task in due:
        # Pushed on by a lease before publishing, so two sweeps in a row do not publish
        # it twice while the first copy waits in the queue.
        PendingTask.objects.filter(pk=pending_id).update(
            due_at=now + timedelta(seconds=settings.OUTBOX_LEASE_SECONDS))
        if not publish(pending_id, task=task):
            # The broker is away: put it back so the next sweep tries straight away.
            PendingTask.objects.filter(pk=pending_id).update(due_at=now)
            break
        handed += 1
    return handed


@shared_task(soft_time_limit=120, time_limit=150, ignore_result=True)
def sweep_outbox() -> int:
    return sweep()


def route_of(task: str) -> dict:
    """Where ``task`` is routed: every pending task runs inside ``run_pending``, so Celery's
    own routing by task name would send them all to the default queue."""
    return dict((current_app.conf.task_routes or {}).get(task, {}))


def publish(pending_id: int, countdown: float = 0, task: str = "") -> bool:
    """Hand one pending task to the broker (to run ``countdown`` seconds from now), on the
    queue its ``task`` is routed to (``CELERY_TASK_ROUTES``: seals have one of their own);
    False (and logged) when the broker is away."""
    try:
        # retry=False: a broker that is down must cost the caller milliseconds, not the
        # publish retry policy's seconds; the sweep is the retry.
        run_pending.apply_async((pending_id,), countdown=countdown or None, retry=False, **route_of(task))
    except Exception as error:  # noqa: BLE001 - kombu/redis raise many kinds; all mean "not now"
        log.warning("outbox: task %s not handed to the broker (%s); the sweep will", pending_id, error)
        return False
    PendingTask.objects.filter(pk=pending_id, published_at__isnull=True).update(published_at=timezone.now())
    return True

"""Writing pending tasks and handing them to the broker without letting it fail a request."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import PendingTask

log = logging.getLogger(__name__)


def task_name(task) -> str:
    return task if isinstance(task, str) else task.name


def enqueue(task, *args, delay: float = 0) -> PendingTask:
    """Record ``task(*args)`` as still to do, in the caller's transaction, and publish it
    once that transaction commits (with ``delay``, the sweep publishes it once that many
    seconds passed). Arguments must be JSON (ids, numbers, strings)."""
    now = timezone.now()
    if delay:
        return PendingTask.objects.create(task=task_name(task), args=list(args),
                                          due_at=now + timedelta(seconds=delay))
    row = PendingTask.objects.create(
        task=task_name(task), args=list(args),
        # If the publish after commit is lost (broker down, process killed), the sweep
        # takes it up once this lease has passed.
        due_at=now + timedelta(seconds=settings.OUTBOX_LEASE_SECONDS),
    )
    transaction.on_commit(lambda: publish(row.pk))
    return row


def publish(pending_id: int) -> bool:
    """Hand one pending task to the broker; False (and logged) when the broker is away."""
    from .tasks import run_pending

    try:
        # retry=False: a broker that is down must cost the caller milliseconds, not the
        # publish retry policy's seconds; the sweep is the retry.
        run_pending.apply_async((pending_id,), retry=False)
    except Exception as error:  # noqa: BLE001 - kombu/redis raise many kinds; all mean "not now"
        log.warning("outbox: task %s not handed to the broker (%s); the sweep will", pending_id, error)
        return False
    PendingTask.objects.filter(pk=pending_id, published_at__isnull=True).update(published_at=timezone.now())
    return True

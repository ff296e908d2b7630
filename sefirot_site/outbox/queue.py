"""Writing pending tasks, handed to the broker after commit (``tasks.publish``) without
letting a broker that is down fail the request."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sefirot_site.prepared import insert

from .models import PendingTask
from .tasks import publish


def task_name(task) -> str:
    return task if isinstance(task, str) else task.name


def enqueue(task, *args, delay: float = 0) -> PendingTask:
    """Record ``task(*args)`` as still to do, in the caller's transaction, and publish it
    once that transaction commits; with ``delay``, published with that countdown, so it
    runs once that many seconds passed. Arguments must be JSON (ids, numbers, strings)."""
    now = timezone.now()
    # Through SQL made once (sefirot_site.prepared): every turn of a game of two or more
    # writes one, and the ORM's create built its INSERT anew each time.
    row = insert(PendingTask(
        task=task_name(task), args=list(args),
        # If the publish after commit is lost (broker down, process killed), the sweep
        # takes it up once this lease has passed (after the delay: a delayed task waits in
        # the worker until its time, and the sweep must not run it early or twice).
        due_at=now + timedelta(seconds=delay + settings.OUTBOX_LEASE_SECONDS),
    ))
    transaction.on_commit(lambda: publish(row.pk, countdown=delay, task=row.task))
    return row

"""Durable consequences: what a committed change still has to set off (a mail, a render,
a bot's move) is written as a ``PendingTask`` row in the same transaction as the change,
handed to Celery after commit, and swept up again by beat if the broker lost it.

    from sefirot_site.outbox import enqueue
    enqueue(send_turn_mail, seat_id, version)   # inside the transaction that caused it

A broker that is down never reaches the person who made the change: the publish after
commit fails quietly (logged), the row stays pending, and ``sweep_outbox`` (every
``OUTBOX_SWEEP_SECONDS``) publishes it again once the broker answers. The task itself
must be idempotent, since a row may run twice (published again while a slow worker still
had it); each attempt that raises is retried with growing pauses, ``MAX_ATTEMPTS`` times.
"""

default_app_config = "sefirot_site.outbox.apps.OutboxConfig"


def enqueue(task, *args, delay: float = 0):
    from .queue import enqueue as _enqueue

    return _enqueue(task, *args, delay=delay)

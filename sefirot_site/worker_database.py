"""The worker's database connection, kept from one task to the next.

Celery's Django fix-up closes every connection before and after each task, so a worker
working through a backlog of turn mails opened a new PostgreSQL connection for every
mail (connect, authenticate, set up: about as long as the whole task's queries).
``CELERY_DB_REUSE_MAX`` (settings) makes the fix-up close them only every that many
tasks; in between, this module applies Django's own rules, as a web request does:

- before a task, a connection past ``CONN_MAX_AGE`` or left broken by an error is closed
  (``close_old_connections``), and one that no longer answers (the server restarted, a
  proxy dropped it while the worker was idle) is closed too, so the task opens a fresh
  one instead of failing on a dead socket.  Only a connection that sat idle since the
  last task is asked (a backlog's tasks follow each other within milliseconds, and
  "SELECT 1" before each would be another round trip per mail);
- after a task, the same rules again, so a broken connection is not kept while idle.

Tasks run eagerly inside a test's transaction are left alone: closing there would end
the test's transaction.
"""

from __future__ import annotations

import time

from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections, connections

# A connection used less than this many seconds ago is taken as alive without asking.
IDLE_CHECK_SECONDS = 1.0
_last_task_ended = 0.0


def _eager(task) -> bool:
    return bool(getattr(getattr(task, "request", None), "is_eager", False))


@task_prerun.connect
def fresh_connection_for_task(sender=None, **kwargs) -> None:
    if _eager(sender):
        return
    close_old_connections()
    if time.monotonic() - _last_task_ended < IDLE_CHECK_SECONDS:
        return
    for connection in connections.all(initialized_only=True):
        # One "SELECT 1" on a connection kept from an earlier task: much cheaper than the
        # connect it saves, and a dead one is replaced here rather than failing the task.
        if connection.connection is not None and not connection.is_usable():
            connection.close()


@task_postrun.connect
def tidy_connection_after_task(sender=None, **kwargs) -> None:
    global _last_task_ended
    if _eager(sender):
        return
    close_old_connections()
    _last_task_ended = time.monotonic()

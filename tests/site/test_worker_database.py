"""The worker keeps its database connection between tasks, and never starts a task on a
dead one (sefirot_site.worker_database)."""

from types import SimpleNamespace

import pytest

from sefirot_site import worker_database


class FakeConnection:
    def __init__(self, *, alive: bool):
        self.connection = object()  # opened
        self.alive = alive
        self.asked = 0

    def is_usable(self) -> bool:
        self.asked += 1
        return self.alive

    def close(self) -> None:
        self.connection = None


def task(*, eager: bool = False):
    return SimpleNamespace(request=SimpleNamespace(is_eager=eager))


@pytest.fixture
def kept(monkeypatch):
    """One kept connection, and Django's own age and error rules recorded, not applied."""
    calls = []
    monkeypatch.setattr(worker_database, "close_old_connections", lambda: calls.append("close_old_connections"))

    def use(connection):
        monkeypatch.setattr(worker_database.connections, "all", lambda initialized_only=False: [connection])
        return calls

    return use


def test_a_connection_that_died_while_the_worker_was_idle_is_replaced_before_the_task(kept, monkeypatch):
    dead = FakeConnection(alive=False)
    calls = kept(dead)
    monkeypatch.setattr(worker_database, "_last_task_ended", 0.0)  # idle since long ago

    worker_database.fresh_connection_for_task(sender=task())

    assert calls == ["close_old_connections"]
    assert dead.asked == 1 and dead.connection is None


def test_a_live_connection_is_kept_and_a_backlog_pays_no_check_per_task(kept, monkeypatch):
    alive = FakeConnection(alive=True)
    calls = kept(alive)
    monkeypatch.setattr(worker_database, "_last_task_ended", 0.0)

    worker_database.fresh_connection_for_task(sender=task())
    worker_database.tidy_connection_after_task(sender=task())
    worker_database.fresh_connection_for_task(sender=task())  # the next task at once

    assert alive.connection is not None
    assert alive.asked == 1, "asked after the idle spell only, not again right after a task"
    assert calls == ["close_old_connections"] * 3


def test_a_task_run_eagerly_leaves_the_connection_alone(kept):
    connection = FakeConnection(alive=False)
    calls = kept(connection)

    worker_database.fresh_connection_for_task(sender=task(eager=True))
    worker_database.tidy_connection_after_task(sender=task(eager=True))

    assert calls == [] and connection.asked == 0 and connection.connection is not None


def test_celery_no_longer_closes_the_connection_around_every_task(settings):
    from sefirot_site.celery import app

    assert app.conf.get("CELERY_DB_REUSE_MAX") == settings.CELERY_DB_REUSE_MAX > 1

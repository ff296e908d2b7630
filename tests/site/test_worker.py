"""Tasks run in a separate worker process, over Redis and over the embedded broker."""

import pytest

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("broker", ["redis", "filesystem"])
def test_a_task_makes_the_round_trip_through_a_real_worker(start_celery_worker, broker):
    worker = start_celery_worker(broker)

    # To this worker's own queue: another worker on the same broker must not answer for it.
    result = worker.app.send_task("sefirot_site.ping", queue=worker.own_queue)

    assert result.get(timeout=30) == "pong"
    assert worker.process.poll() is None, "the worker is still running after the task"


def test_the_worker_stops_cleanly_on_sigterm(start_celery_worker):
    worker = start_celery_worker("filesystem")

    assert worker.stop() == 0


def test_site_tasks_queued_as_usual_reach_the_session_worker(celery_worker_process):
    from sefirot_site.tasks import ping

    # .delay() goes to the site's queue, as the site's own code does; .ping() to the worker's own.
    assert ping.delay().get(timeout=30) == "pong"
    assert celery_worker_process.ping() < 30


def test_tasks_are_discovered_in_every_app():
    from sefirot_site.celery import app

    app.loader.import_default_modules()

    assert {"sefirot_site.ping", "sefirot_site.sweep_file_stores"} <= set(app.tasks)
    assert any(name.startswith("games.") for name in app.tasks)
    assert any(name.startswith("journal.") for name in app.tasks)

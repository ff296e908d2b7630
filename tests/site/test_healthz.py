"""/healthz: database, broker and the workers' heartbeats, as JSON; fast whatever is down."""

import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def beat_process(django_db_setup, _smtp_collector, settings):
    """A real Celery beat on the test database and the site's broker, as runsite starts it."""
    from tests.conftest import _worker_env
    from tests.site.test_scheduler import Beat

    beat = Beat("healthz", _worker_env("redis" if settings.REDIS_URL else "filesystem", _smtp_collector))
    yield beat
    beat.kill()


def healthz_until(client, condition, timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        response = client.get("/healthz")
        if condition(response) or time.monotonic() > deadline:
            return response
        time.sleep(0.5)


@pytest.mark.worker
def test_healthz_is_ok_while_a_worker_beats(client, celery_worker_process, beat_process):
    from sefirot_site.models import WorkerHeartbeat

    # A transactional test's flush may have wiped the row a moment ago: the worker writes
    # it again within a period (a second for test workers).
    deadline = time.monotonic() + 10
    while not WorkerHeartbeat.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    response = healthz_until(client, lambda response: response.status_code == 200)

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] and body["broker"]["ok"] and body["worker"]["ok"] and body["schedule"]["ok"]
    assert body["worker"]["workers"] >= 1


@pytest.mark.worker
def test_healthz_answers_503_with_the_reason_when_the_schedule_stopped(client, settings, beat_process):
    # Issue 38, item 14: beat had died and /healthz still answered 200 while nothing swept
    # the outbox.  A few of beat's loops, shortened (the site allows a standby beat's
    # take-over on top).
    settings.SCHEDULE_LATE_SECONDS = 15  # three of beat's loops of 5 s
    running = healthz_until(client, lambda response: response.json()["schedule"]["ok"])
    assert running.json()["schedule"]["ok"], running.json()

    beat_process.kill()
    response = healthz_until(client, lambda response: not response.json()["schedule"]["ok"])

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert "the schedule last ran " in body["schedule"]["error"]
    assert "celery beat is stopped or cannot reach the broker" in body["schedule"]["error"]


def test_healthz_says_so_when_the_schedule_never_ran(client):
    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["schedule"] == {
        "ok": False, "ms": response.json()["schedule"]["ms"],
        "error": "RuntimeError: the schedule has not run since the site started: is celery beat running?"}


@pytest.mark.worker
def test_a_worker_that_stops_takes_its_heartbeat_with_it(start_celery_worker, client):
    from sefirot_site.models import WorkerHeartbeat

    worker = start_celery_worker("redis" if os.environ.get("REDIS_URL") else "filesystem")
    mine = WorkerHeartbeat.objects.filter(hostname__startswith=f"{worker.name}@")
    assert mine.exists()  # written when it was ready, before the first period
    worker.stop()
    assert not mine.exists()


# Inside the test's own transaction, not a transactional test: a Celery worker an earlier
# test of this process started beats every second, and its next beat, landing between the
# delete and the health check, made the check see a live worker (fresh-clone CI, once).
# The delete, uncommitted, holds the worker's row, so its beat waits for the test's end.
@pytest.mark.django_db(transaction=False)
def test_healthz_answers_503_fast_and_queues_nothing_when_no_worker_beats(client, settings):
    from sefirot_site.models import WorkerHeartbeat
    from sefirot_site.outbox.models import PendingTask

    WorkerHeartbeat.objects.all().delete()
    WorkerHeartbeat.objects.create(hostname="gone@somewhere",
                                   seen_at=timezone_now() - timedelta(seconds=10 * settings.WORKER_HEARTBEAT_SECONDS))
    client.get("/healthz")  # warm: the first request loads the URLconf and templates
    started = time.perf_counter()
    response = client.get("/healthz")
    elapsed = time.perf_counter() - started

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["database"]["ok"] and body["broker"]["ok"]
    assert body["worker"]["ok"] is False and "no worker has reported for" in body["worker"]["error"]
    # Issue 11: it tied up a web worker 5 s waiting for a ping. A generous bound (a
    # shared CI machine), far below that.
    assert elapsed < 1.0
    assert not PendingTask.objects.exists()


def timezone_now():
    from django.utils import timezone

    return timezone.now()


def test_healthz_is_never_cached(client):
    response = client.get("/healthz")

    assert "no-cache" in response["Cache-Control"]


@pytest.fixture
def unreachable_broker():
    """Point the site's Celery app at a Redis port where nothing listens, as when the
    broker is down, and put it back afterwards."""
    from sefirot_site.celery import app
    from tests.support.net import free_port

    before = app.conf.broker_url
    app.conf.broker_url = f"redis://127.0.0.1:{free_port()}/0"
    yield
    app.conf.broker_url = before


def test_healthz_answers_503_when_the_broker_is_down(client, unreachable_broker):
    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is False and "Connection refused" in body["broker"]["error"]
    # The workers are reported by their own heartbeats, whatever this process's broker.
    assert "ok" in body["worker"]


def test_healthz_answers_503_when_the_database_is_down(tmp_path):
    # A process of its own, since this test's database connection must stay intact.
    script = ("import json, django; django.setup(); from django.test import Client; "
              "response = Client().get('/healthz'); print(json.dumps([response.status_code, response.json()]))")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "sefirot_site.settings", "DATA_DIR": str(tmp_path),
           "DATABASE_URL": f"sqlite:///{tmp_path}/no/such/folder/db.sqlite3"}
    env.pop("REDIS_URL", None)
    result = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).parents[2], env=env,
                            capture_output=True, text=True, timeout=120)

    status, body = json.loads(result.stdout.splitlines()[-1])
    assert status == 503
    assert body["status"] == "down"
    assert body["database"]["ok"] is False and "unable to open database file" in body["database"]["error"]

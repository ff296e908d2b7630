"""/healthz: database, broker and a live worker round trip, as JSON."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.worker
def test_healthz_is_ok_when_a_worker_answers(client, celery_worker_process):
    response = client.get("/healthz")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] and body["broker"]["ok"] and body["worker"]["ok"]
    assert body["worker"]["ms"] > 0


def test_healthz_answers_503_when_no_worker_listens(client, settings):
    # A queue nobody consumes: the broker takes the ping, no worker answers it.
    settings.CELERY_TASK_DEFAULT_QUEUE = "nobody-listens-here"
    settings.HEALTHZ_WORKER_TIMEOUT = 1

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["database"]["ok"] and body["broker"]["ok"]
    assert body["worker"]["ok"] is False
    assert "Timeout" in body["worker"]["error"]


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
    assert body["worker"] == {"ok": False, "error": "not tried: the broker is down"}


def test_healthz_answers_503_when_the_database_is_down(tmp_path):
    # A process of its own, since this test's database connection must stay intact.
    script = ("import json, django; django.setup(); from django.test import Client; "
              "response = Client().get('/healthz'); print(json.dumps([response.status_code, response.json()]))")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "sefirot_site.settings", "DATA_DIR": str(tmp_path),
           "DATABASE_URL": f"sqlite:///{tmp_path}/no/such/folder/db.sqlite3", "HEALTHZ_WORKER_TIMEOUT": "1"}
    env.pop("REDIS_URL", None)
    result = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).parents[2], env=env,
                            capture_output=True, text=True, timeout=120)

    status, body = json.loads(result.stdout.splitlines()[-1])
    assert status == 503
    assert body["status"] == "down"
    assert body["database"]["ok"] is False and "unable to open database file" in body["database"]["error"]

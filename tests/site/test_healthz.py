"""/healthz: database, broker and a live worker round trip, as JSON."""

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

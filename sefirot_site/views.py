import contextlib
import time

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .celery import app as celery_app
from .tasks import ping


def home(request):
    # "Welcome back" only for someone who has played or written here before.
    returning = request.user.is_authenticated and (
        request.user.seats.exists() or request.user.journal_entries.exists())
    return render(request, "home.html", {"returning": returning})


def _timed(check) -> dict:
    started = time.monotonic()
    try:
        detail = check() or {}
    except Exception as error:  # noqa: BLE001 - a health check reports any failure
        return {"ok": False, "error": f"{type(error).__name__}: {error}"[:300], "ms": _ms_since(started)}
    return {"ok": True, "ms": _ms_since(started), **detail}


def _ms_since(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 1)


def _check_database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"vendor": connection.vendor}


def _check_broker():
    with celery_app.connection_for_write() as broker:
        # One quick attempt: a health check must answer, not wait for a broker to return.
        broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=3)
        return {"transport": broker.transport_cls}


def _check_worker():
    # Sent to the queue the site's tasks use, so "alive" means "someone will run our tasks".
    # expires: a ping nobody took in time is dropped rather than run later.
    timeout = settings.HEALTHZ_WORKER_TIMEOUT
    result = ping.apply_async(queue=settings.CELERY_TASK_DEFAULT_QUEUE, expires=timeout, retry=False)
    try:
        answer = result.get(timeout=timeout, interval=0.05)
    finally:
        # Nothing to keep; the file backend has no expiry. A ping never answered has no
        # result file to delete.
        with contextlib.suppress(FileNotFoundError):
            result.forget()
    if answer != "pong":
        raise RuntimeError(f"the worker answered {answer!r}")


@never_cache
@require_GET
def healthz(request):
    """Database, broker and a live worker round trip, as JSON; 503 when any is down."""
    checks = {"database": _timed(_check_database), "broker": _timed(_check_broker)}
    if checks["broker"]["ok"]:
        checks["worker"] = _timed(_check_worker)
    else:
        checks["worker"] = {"ok": False, "error": "not tried: the broker is down"}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "down", **checks}, status=200 if healthy else 503)

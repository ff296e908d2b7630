import time
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.utils import timezone
from django.views.decorators.http import require_GET

from games.catalogue import modes
from games.rules_views import has_rules_page

from .celery import app as celery_app
from .models import ScheduleHeartbeat, WorkerHeartbeat


def home(request):
    # "Welcome back" only for someone who has played or written here before.
    returning = request.user.is_authenticated and (
        request.user.seats.exists() or request.user.journal_entries.exists())
    # Every game of the registry, so a new one is on the front page by itself; another
    # edition of a game (the 2021 prototype) is named under that game, as the new-game
    # page offers it.
    games = [dict(mode, rules_page=has_rules_page(mode["slug"]),
                  editions=[dict(e, rules_page=has_rules_page(e["slug"])) for e in mode["editions"]])
             for mode in modes() if not mode["edition_of"]]
    return render(request, "home.html", {"returning": returning, "games": games})


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
        broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=1)
        return {"transport": broker.transport_cls}


def _check_worker():
    # The workers' own heartbeats (sefirot_site.heartbeat): reading them costs one query
    # and queues nothing, so a load balancer may ask as often as it likes.
    newest = WorkerHeartbeat.objects.order_by("-seen_at").first()
    if newest is None:
        raise RuntimeError("no worker has reported since the site started")
    age = (timezone.now() - newest.seen_at).total_seconds()
    if age > 3 * settings.WORKER_HEARTBEAT_SECONDS:
        raise RuntimeError(f"no worker has reported for {age:.0f} s")
    alive = WorkerHeartbeat.objects.filter(
        seen_at__gte=timezone.now() - timedelta(seconds=3 * settings.WORKER_HEARTBEAT_SECONDS)).count()
    return {"workers": alive, "last_seen_s": round(age, 1)}


def _check_schedule():
    # Beat records each tick (sefirot_site.beat). Without it nothing sweeps the outbox,
    # sends reminders or digests, though every process answers: say so.
    last = ScheduleHeartbeat.objects.filter(pk=ScheduleHeartbeat.THE_SCHEDULE).first()
    if last is None:
        raise RuntimeError("the schedule has not run since the site started: is celery beat running?")
    age = (timezone.now() - last.ticked_at).total_seconds()
    if age > settings.SCHEDULE_LATE_SECONDS:
        raise RuntimeError(f"the schedule last ran {age:.0f} s ago (beat {last.by}): "
                           "celery beat is stopped or cannot reach the broker")
    return {"last_tick_s": round(age, 1)}


@never_cache
@require_GET
def healthz(request):
    """Database, broker, the workers' heartbeats and the schedule's last tick, as JSON; 503
    when any is down."""
    checks = {"database": _timed(_check_database), "broker": _timed(_check_broker)}
    if checks["database"]["ok"]:
        checks["worker"] = _timed(_check_worker)
        checks["schedule"] = _timed(_check_schedule)
    else:
        checks["worker"] = {"ok": False, "error": "not known: the database is down"}
        checks["schedule"] = {"ok": False, "error": "not known: the database is down"}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "down", **checks}, status=200 if healthy else 503)

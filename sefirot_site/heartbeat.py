"""The worker's heartbeat: a thread in each Celery worker process that writes its
``WorkerHeartbeat`` row every ``WORKER_HEARTBEAT_SECONDS``, and removes it at a clean
shutdown. Connected in sefirot_site.celery; /healthz reads the rows."""

from __future__ import annotations

import logging
import threading

from celery.signals import worker_ready, worker_shutdown
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

log = logging.getLogger(__name__)
_stop = threading.Event()


def beat_once(hostname: str) -> None:
    from .models import WorkerHeartbeat

    WorkerHeartbeat.objects.update_or_create(hostname=hostname, defaults={"seen_at": timezone.now()})


def _beat_forever(hostname: str) -> None:
    while not _stop.is_set():
        try:
            close_old_connections()
            beat_once(hostname)
        except Exception as error:  # noqa: BLE001 - a missed beat only ages the row
            log.warning("heartbeat of %s not written: %s", hostname, error)
        _stop.wait(settings.WORKER_HEARTBEAT_SECONDS)
    connection.close()


@worker_ready.connect
def start_heartbeat(sender, **kwargs):
    hostname = sender.hostname
    beat_once(hostname)  # at once, so a fresh worker shows up without waiting a period
    connection.close()  # the thread has its own; the worker's tasks open theirs
    threading.Thread(target=_beat_forever, args=(hostname,), name="heartbeat", daemon=True).start()


@worker_shutdown.connect
def stop_heartbeat(sender, **kwargs):
    from .models import WorkerHeartbeat

    _stop.set()
    try:
        close_old_connections()
        WorkerHeartbeat.objects.filter(hostname=getattr(sender, "hostname", "")).delete()
    except Exception as error:  # noqa: BLE001 - the row then ages out instead
        log.warning("heartbeat row not removed: %s", error)

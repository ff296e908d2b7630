"""The site's own background tasks: the health ping and housekeeping."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlparse

from celery import shared_task
from django.conf import settings


@shared_task(name="sefirot_site.ping", soft_time_limit=5, time_limit=10, ignore_result=False)
def ping() -> str:
    """Answered by any live worker; /healthz and the tests wait for its result."""
    return "pong"


@shared_task(name="sefirot_site.sweep_result_files", soft_time_limit=100, time_limit=120)
def sweep_result_files() -> int:
    """Delete task results older than CELERY_RESULT_EXPIRES from the file result backend.

    Redis expires results by itself; Celery's file backend keeps them forever, so beat runs
    this hourly. Safe to run twice or concurrently: a file already gone is skipped.
    """
    backend = settings.CELERY_RESULT_BACKEND
    if not backend.startswith("file://"):
        return 0
    folder = Path(urlparse(backend).path)
    cutoff = time.time() - settings.CELERY_RESULT_EXPIRES
    removed = 0
    for path in folder.iterdir():
        try:
            if path.is_file() and path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except FileNotFoundError:
            continue
    return removed

"""The site's own background tasks: the health ping and housekeeping."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import unquote, urlparse

from celery import shared_task
from django.conf import settings


@shared_task(name="sefirot_site.ping", soft_time_limit=5, time_limit=10, ignore_result=False)
def ping() -> str:
    """Answered by any live worker; /healthz and the tests wait for its result."""
    return "pong"


def file_stores() -> list[Path]:
    """The folders where the embedded broker and the file result backend leave files behind."""
    folders = []
    if settings.CELERY_RESULT_BACKEND.startswith("file://"):
        folders.append(Path(unquote(urlparse(settings.CELERY_RESULT_BACKEND).path)))
    processed = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}).get("processed_folder")
    if settings.CELERY_BROKER_URL.startswith("filesystem://") and processed:
        folders.append(Path(processed))
    return folders


@shared_task(name="sefirot_site.sweep_file_stores", soft_time_limit=100, time_limit=120)
def sweep_file_stores() -> int:
    """Delete task results and delivered broker messages older than CELERY_RESULT_EXPIRES.

    Redis expires its keys by itself; the file stores keep everything, so beat runs this
    hourly. Safe to run twice or at once: a file already gone is skipped.
    """
    cutoff = time.time() - settings.CELERY_RESULT_EXPIRES
    removed = 0
    for folder in file_stores():
        for path in folder.iterdir():
            try:
                if path.is_file() and path.stat().st_mtime < cutoff:
                    path.unlink()
                    removed += 1
            except FileNotFoundError:
                continue
    return removed

"""Rendering a seal's files in the worker.

The task takes a seal id and is safe to run any number of times: every file's name derives
from the seal's input (``journal.seals.seal_filename``), a file already on disk is never
drawn again, and each file is stored whole (journal.seal_files), so a killed worker leaves
no half-written file behind.  Transient trouble (a full disk, the
database going away) is retried a few times with growing pauses; a bad input or a last
failed try marks the seal failed with a message the page shows beside a retry button.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import DatabaseError, transaction

from .models import Seal
from . import seal_files

log = logging.getLogger(__name__)

MAX_RETRIES = 3


def seal_outputs() -> list[tuple[str, str]]:
    """Every (format, size) a seal is rendered in, in the order the page lists them: PNG
    and PDF on each paper size, and one SVG (it scales to any size by nature)."""
    from .seals import SIZES

    return [("png", size) for size in SIZES] + [("pdf", size) for size in SIZES] + [("svg", "10cm")]


def retry_countdown(retries: int) -> int:
    """Seconds to wait before the next try: 5, 10, 20, ... never more than a minute."""
    return min(60, 5 * 2 ** retries)


def _fail(seal_id: int, message: str) -> None:
    Seal.objects.filter(pk=seal_id).update(status=Seal.Status.FAILED, error=message[:500])


@shared_task(
    bind=True,
    acks_late=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=150,
    time_limit=180,
)
def render_seal_task(self, seal_id: int) -> int:
    """Render whatever files of the seal are missing; return how many were drawn now."""
    from .seals import render_seal, seal_filename

    with transaction.atomic():
        seal = Seal.objects.select_for_update().select_related("entry").filter(pk=seal_id).first()
        if seal is None:  # deleted while queued
            return 0
        if seal.status == Seal.Status.DONE and all(
            seal_files.exists(seal_files.key(seal.entry.owner_id, p)) for p in seal.files.values()
        ) and len(seal.files) == len(seal_outputs()):
            return 0
        seal.status = Seal.Status.RENDERING
        seal.attempts += 1
        seal.error = ""
        seal.save(update_fields=["status", "attempts", "error", "updated"])
        cards, words, owner_id = list(seal.cards), list(seal.words), seal.entry.owner_id
        # Tries so far, counted by the seal itself: Celery's own count is 0 when the task
        # runs from the outbox (sefirot_site.outbox), which retries it after a pause.
        retries = seal.attempts - 1

    drawn = 0
    try:
        for fmt, size in seal_outputs():
            # Through the storage (journal.seal_files): local disk or a shared bucket, each
            # file written whole.
            target = seal_files.key(owner_id, seal_filename(cards, words, fmt, size))
            if not seal_files.exists(target):
                seal_files.save(target, render_seal(cards, words, fmt, size))
                drawn += 1
            # Each finished file shows on the page at once: that is the progress bar.
            with transaction.atomic():
                seal = Seal.objects.select_for_update().get(pk=seal_id)
                seal.files = {**seal.files, f"{fmt}-{size}": target}
                seal.save(update_fields=["files", "updated"])
    except SoftTimeLimitExceeded:
        _fail(seal_id, "Rendering took too long and was stopped. Try again; if it keeps happening, use fewer or shorter words.")
        return drawn
    except (ValueError, KeyError) as exc:
        # The renderer refused the input: trying again cannot help.
        _fail(seal_id, f"This seal cannot be drawn: {exc}")
        return drawn
    except (OSError, DatabaseError) as exc:
        if retries < MAX_RETRIES:
            log.warning("seal %s: %s; retrying", seal_id, exc)
            Seal.objects.filter(pk=seal_id).update(status=Seal.Status.QUEUED)
            raise self.retry(exc=exc, countdown=retry_countdown(retries))
        _fail(seal_id, "The seal could not be saved after several tries. Please try again later.")
        return drawn
    except Exception:
        # Never leave a seal "rendering" for ever: the page must offer the retry button.
        _fail(seal_id, "Something went wrong while drawing this seal. Please try again.")
        raise
    Seal.objects.filter(pk=seal_id).update(status=Seal.Status.DONE, error="")
    log.info("seal %s: %d file(s) drawn", seal_id, drawn)
    return drawn

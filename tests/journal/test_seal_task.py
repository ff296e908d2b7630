"""The seal task in a real Celery worker over Redis: every file once, never twice."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from PIL import Image

from journal import services
from journal.models import Seal
from journal.tasks import seal_outputs

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

TASK = "journal.tasks.render_seal_task"
CARDS, WORDS = ["M0", "M19", "9p"], ["beginning", "joy", "freedom"]


def make_seal(entry, cards=CARDS, words=WORDS, input_hash=None) -> Seal:
    # Made directly rather than through request_seal, so the only task sent is the one
    # the test sends to the Redis worker.
    return Seal.objects.create(entry=entry, cards=cards, words=words,
                               input_hash=input_hash or services.seal_input_hash(cards, words))


def run(worker, seal: Seal) -> int:
    return worker.app.send_task(TASK, args=[seal.pk]).get(timeout=180)


def file_times(seal: Seal) -> dict[str, int]:
    from journal.exports import seal_file_path

    return {kind: seal_file_path(seal, kind).stat().st_mtime_ns for kind in seal.files}


def test_the_worker_renders_every_file_and_a_second_run_renders_none(start_celery_worker, drawn_entry):
    worker = start_celery_worker("redis")
    seal = make_seal(drawn_entry)

    first = run(worker, seal)
    seal.refresh_from_db()
    times = file_times(seal)
    second = run(worker, seal)
    seal.refresh_from_db()

    assert first == len(seal_outputs()) == 9
    assert second == 0
    assert seal.status == Seal.Status.DONE and seal.error == ""
    assert file_times(seal) == times, "no file was written again"
    # The file names derive from the input, so another entry's seal of the same cards and
    # words finds its files already drawn.
    from journal.services import record_drawn

    twin = make_seal(record_drawn(drawn_entry.owner, spread="one", reversals=False))
    assert run(worker, twin) == 0
    twin.refresh_from_db()
    assert twin.status == Seal.Status.DONE and twin.files == seal.files


def test_the_rendered_files_are_served_to_the_owner_with_the_right_sizes(start_celery_worker, drawn_entry,
                                                                        alice_client):
    worker = start_celery_worker("redis")
    seal = make_seal(drawn_entry)
    run(worker, seal)

    png = alice_client.get(reverse("journal:seal_file", args=[drawn_entry.pk, seal.pk, "png-a5"]))
    pdf = alice_client.get(reverse("journal:seal_file", args=[drawn_entry.pk, seal.pk, "pdf-a4"]))
    svg = alice_client.get(reverse("journal:seal_file", args=[drawn_entry.pk, seal.pk, "svg-10cm"]))

    image = Image.open(io.BytesIO(b"".join(png.streaming_content)))
    assert image.size == (1748, 2480)  # A5 at 300 dpi
    assert round(image.info["dpi"][0]) == 300
    assert pdf["Content-Type"] == "application/pdf" and b"".join(pdf.streaming_content).startswith(b"%PDF")
    assert svg["Content-Type"] == "image/svg+xml" and "attachment" in svg["Content-Disposition"]
    assert b"".join(svg.streaming_content).lstrip().startswith((b"<?xml", b"<svg"))
    page = alice_client.get(seal.get_absolute_url()).content.decode()
    assert page.count("data-kind=") == 9 and "every 1s" not in page
    # The page shows the seal itself, not only the links to its files.
    svg_url = reverse("journal:seal_file", args=[drawn_entry.pk, seal.pk, "svg-10cm"])
    assert f'class="seal-picture"><img src="{svg_url}"' in page


def test_a_seal_the_renderer_refuses_fails_with_a_message_and_a_retry_button(start_celery_worker, drawn_entry,
                                                                            alice_client):
    worker = start_celery_worker("redis")
    # Words are checked by the form; this one slipped past it (say an old import), and the
    # seal's font has no glyph for it.
    seal = make_seal(drawn_entry, words=["beginning", "joy", "\u5922"], input_hash="not-drawable")

    assert run(worker, seal) == 0
    seal.refresh_from_db()
    assert seal.status == Seal.Status.FAILED
    assert "cannot letter" in seal.error

    page = alice_client.get(seal.get_absolute_url()).content.decode()
    assert "could not be drawn" in page and "cannot letter" in page and "Try again" in page

    response = alice_client.post(reverse("journal:seal_retry", args=[drawn_entry.pk, seal.pk]),
                                 HTTP_HX_REQUEST="true")
    seal.refresh_from_db()
    assert response.status_code == 200 and 'hx-trigger="every 1s"' in response.content.decode()
    # Queued again; the running worker may already have taken it (rendering) or failed it
    # once more by the time the row is read.
    assert seal.status in (Seal.Status.QUEUED, Seal.Status.RENDERING, Seal.Status.FAILED)


def test_a_seal_whose_worker_was_killed_may_be_asked_for_again_after_a_minute_and_is_drawn_once(
        celery_worker_process, drawn_entry, alice_client):
    import datetime as dt
    import time

    from django.utils import timezone

    from journal.exports import seal_file_path
    from sefirot_site.outbox.models import PendingTask
    from sefirot_site.outbox.tasks import sweep

    # What a worker killed (kill -9) mid-drawing leaves behind (tests/site/test_nothing_lost.py
    # kills one for real): the seal "rendering", and its outbox row claimed by the dead run
    # until OUTBOX_CLAIM_SECONDS have passed, minutes before the sweep may hand it on.
    now = timezone.now()
    seal = make_seal(drawn_entry)
    Seal.objects.filter(pk=seal.pk).update(status=Seal.Status.RENDERING, attempts=1)
    lost = PendingTask.objects.create(task=TASK, args=[seal.pk], due_at=now + dt.timedelta(minutes=2),
                                      published_at=now, running_until=now + dt.timedelta(minutes=2), attempts=1)
    page_url, retry_url = seal.get_absolute_url(), reverse("journal:seal_retry", args=[drawn_entry.pk, seal.pk])

    # Within the minute: still drawing as far as anyone knows, and asking changes nothing.
    assert "Drawing the seal" in alice_client.get(page_url).content.decode()
    alice_client.post(retry_url)
    assert PendingTask.objects.filter(task=TASK).count() == 1

    # A minute with no news (the task touches the seal at each file): its owner may ask again.
    Seal.objects.filter(pk=seal.pk).update(updated=timezone.now() - dt.timedelta(seconds=61))
    page = alice_client.get(page_url).content.decode()
    assert "longer than it should" in page and "Try again" in page

    assert alice_client.post(retry_url).status_code == 302
    alice_client.post(retry_url)  # a double click asks once
    deadline = time.monotonic() + 60
    while Seal.objects.get(pk=seal.pk).status != Seal.Status.DONE:
        assert time.monotonic() < deadline, "the seal asked for again was not drawn"
        time.sleep(0.2)

    # Drawn through the outbox by one new run, with no sweep and the lost run still claimed.
    seal.refresh_from_db()
    assert len(seal.files) == len(seal_outputs())
    runs = PendingTask.objects.filter(task=TASK).exclude(pk=lost.pk)
    assert runs.count() == 1 and runs.get().done_at is not None
    assert "Your seal is ready" in alice_client.get(page_url).content.decode()

    # When the sweep hands the lost run on at last, it finds the files drawn and draws none.
    times = file_times(seal)
    PendingTask.objects.filter(pk=lost.pk).update(due_at=timezone.now(), running_until=None)
    sweep()
    deadline = time.monotonic() + 60
    while PendingTask.objects.get(pk=lost.pk).done_at is None:
        assert time.monotonic() < deadline, "the lost run was not run again"
        time.sleep(0.2)
    assert PendingTask.objects.get(pk=lost.pk).result == "0"
    assert file_times(seal) == times and all(seal_file_path(seal, kind) for kind in seal.files)

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
    assert seal.status in (Seal.Status.QUEUED, Seal.Status.FAILED)

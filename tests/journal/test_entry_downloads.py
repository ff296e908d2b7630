"""What an entry's downloads hold and what they are called: the PDF shows each drawn seal's
picture, and every seal file downloads under a name of its own."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from journal import services
from journal.models import Seal
from journal.tasks import render_seal_task

pytestmark = pytest.mark.django_db


def drawn_seal(entry, cards, words) -> Seal:
    """A seal requested as the form does and drawn by the worker's task (run here, in
    process, rather than through a broker: what is tested is what the files become)."""
    seal = services.request_seal(entry, cards, words)
    render_seal_task.apply(args=[seal.pk])
    seal.refresh_from_db()
    assert seal.status == Seal.Status.DONE
    return seal


def pdf_of(client, entry) -> PdfReader:
    response = client.get(reverse("journal:pdf", args=[entry.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return PdfReader(io.BytesIO(response.content))


def test_an_entrys_pdf_shows_the_picture_of_its_drawn_seal_beside_its_words(alice_client, drawn_entry):
    drawn_seal(drawn_entry, ["M0", "M19"], ["beginning", "joy"])

    pdf = pdf_of(alice_client, drawn_entry)

    images = [image for page in pdf.pages for image in page.images]
    assert len(images) == 1
    assert images[0].image.size == (1181, 1181)  # the worker's 10 cm PNG at 300 dpi, as drawn
    text = " ".join(page.extract_text() for page in pdf.pages)
    assert "The Fool: beginning, XIX The Sun: joy" in " ".join(text.split())


def test_a_seal_not_drawn_yet_is_listed_in_the_pdf_and_said_to_be_on_its_way(alice_client, drawn_entry):
    services.request_seal(drawn_entry, ["M0", "M19"], ["beginning", "joy"])  # queued, no worker here

    pdf = pdf_of(alice_client, drawn_entry)

    assert [image for page in pdf.pages for image in page.images] == []
    text = " ".join(" ".join(page.extract_text() for page in pdf.pages).split())
    assert "The Fool: beginning, XIX The Sun: joy (its picture is not drawn yet)" in text


def download_name(client, entry, seal, kind: str) -> str:
    response = client.get(reverse("journal:seal_file", args=[entry.pk, seal.pk, kind]))
    assert response.status_code == 200
    return re.search(r'filename="([^"]+)"', response["Content-Disposition"]).group(1)


def test_two_seals_of_one_day_download_under_names_of_their_own(alice, alice_client, drawn_entry):
    evening = services.record_drawn(alice, spread="three", reversals=False, title="Évening draw: the lake")
    first = drawn_seal(drawn_entry, ["M0", "M19"], ["beginning", "joy"])
    second = drawn_seal(drawn_entry, ["M0", "M19"], ["leap", "light"])
    other = drawn_seal(evening, ["M0", "M19"], ["beginning", "joy"])
    assert drawn_entry.date == evening.date

    names = {seal.pk: download_name(alice_client, entry, seal, "png-a5")
             for entry, seal in ((drawn_entry, first), (drawn_entry, second), (evening, other))}

    assert len(set(names.values())) == 3
    day = drawn_entry.date.isoformat()
    assert names[first.pk] == f"seal-{day}-morning-draw-{first.pk}-a5.png"
    assert names[other.pk] == f"seal-{day}-evening-draw-the-lake-{other.pk}-a5.png"
    assert download_name(alice_client, drawn_entry, first, "svg-10cm") == f"seal-{day}-morning-draw-{first.pk}-10cm.svg"

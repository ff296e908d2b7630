"""Choosing a seal's cards and words, the preview, and taking the journal out and back."""

from __future__ import annotations

import base64
import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.engine import cards as deck
from journal import exports, readings, services
from journal.models import Entry, Mode, Seal

pytestmark = pytest.mark.django_db


@pytest.fixture
def game_entry(finished_game, alice):
    return Entry.objects.get(owner=alice, source_game=finished_game)


# --- choosing a seal --------------------------------------------------------------------------


def test_a_know_thyself_seal_offers_every_reading_card_with_its_keyword(alice_client, game_entry):
    response = alice_client.get(reverse("journal:seal_new", args=[game_entry.pk]))

    form = response.context["form"]
    reading_cards = readings.position_cards(game_entry.reading)
    assert len(reading_cards) == 5  # four Sefira and the obstacle
    # The suggestion (all five) is marked, three of it ticked: a full form would refuse the next tick.
    assert [c for c in form.choices if form[f"use_{c}"].initial] == reading_cards[:3]
    assert form.suggested == reading_cards
    assert all(form[f"word_{c}"].initial == deck.keyword(c) for c in form.choices)
    assert response.context["preview"].startswith("data:image/svg+xml;base64,")


def know_thyself_entry(owner, minors_on_foundation: list[str], obstacle: str | None):
    positions = [{"id": space, "label": space, "question": "?", "card": card,
                  "minors": minors_on_foundation if space == "foundation" else []}
                 for space, card in (("crown", "M9"), ("knowledge", "M4"), ("spirit", "M3"), ("foundation", "M12"))]
    sections = [{"id": "central", "positions": positions}]
    if obstacle:
        sections.append({"id": "obstacle", "positions": [{"id": "obstacle", "label": "Obstacle", "card": obstacle}]})
    return services.create_entry(owner, title="Tree", mode=Mode.KNOW_THYSELF,
                                 reading={"layout": "tree", "sections": sections})


def test_a_know_thyself_reading_that_fits_the_seal_suggests_it_whole_minors_included(alice, alice_client):
    entry = know_thyself_entry(alice, ["8c"], obstacle=None)

    form = alice_client.get(reverse("journal:seal_new", args=[entry.pk])).context["form"]

    assert [c for c in form.choices if form[f"use_{c}"].initial] == ["M9", "M4", "M3"]
    assert form.suggested == ["M9", "M4", "M3", "M12", "8c"]


def test_a_know_thyself_reading_too_big_for_a_seal_defaults_to_its_majors_and_obstacle(alice, alice_client):
    entry = know_thyself_entry(alice, ["8c", "4c"], obstacle="Pp")

    form = alice_client.get(reverse("journal:seal_new", args=[entry.pk])).context["form"]

    # Seven cards, five places: the Minors resting on the Foundation stay offered, unticked.
    assert form.choices == ["M9", "M4", "M3", "M12", "8c", "4c", "Pp"]
    assert [c for c in form.choices if form[f"use_{c}"].initial] == ["M9", "M4", "M3"]
    assert form.suggested == ["M9", "M4", "M3", "M12", "Pp"]


def _seal_rows(html: str) -> list[tuple[str, bool, bool]]:
    """(card name, ticked, marked suggested) for each row of the seal form as the page shows it."""
    import re

    rows = re.findall(r"<li>\s*<label>(.*?)</label>", html.split('class="seal-rows"')[1].split("</ul>")[0], re.S)
    return [(re.sub(r"<[^>]+>|\(suggested\)", "", row).strip(), " checked" in row, "(suggested)" in row)
            for row in rows]


def test_the_cards_ticked_on_the_seal_form_are_among_those_it_marks_suggested(alice, alice_client):
    entry = know_thyself_entry(alice, ["8c", "4c"], obstacle="Pp")

    html = alice_client.get(reverse("journal:seal_new", args=[entry.pk])).content.decode()

    rows = _seal_rows(html)
    ticked = [name for name, is_ticked, _ in rows if is_ticked]
    marked = [name for name, _, is_marked in rows if is_marked]
    assert ticked == ["IX The Hermit", "IV The Emperor", "III The Empress"]
    assert marked == ticked + ["XII The Hanged Man", "Page of Pentacles"]
    assert "three of the five marked \u201csuggested\u201d are ticked" in html


def test_the_live_preview_is_the_renderers_svg_of_the_chosen_cards_and_words(alice_client, drawn_entry):
    cards = [p["card"] for p in drawn_entry.reading["sections"][0]["positions"]]
    data = {f"use_{cards[0]}": "on", f"use_{cards[1]}": "on", f"word_{cards[0]}": "Dawn", f"word_{cards[1]}": ""}

    response = alice_client.post(reverse("journal:seal_preview", args=[drawn_entry.pk]), data,
                                 HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="preview"')
    svg = base64.b64decode(html.split("data:image/svg+xml;base64,")[1].split('"')[0]).decode()
    assert svg.lstrip().startswith(("<?xml", "<svg")) and "DAWN" in svg.upper()


def test_the_preview_says_why_when_the_choice_cannot_make_a_seal(alice_client, drawn_entry):
    card = drawn_entry.reading["sections"][0]["positions"][0]["card"]

    response = alice_client.post(reverse("journal:seal_preview", args=[drawn_entry.pk]), {f"use_{card}": "on"},
                                 HTTP_HX_REQUEST="true")

    assert "2 to 5 cards" in response.content.decode()


def test_render_queues_one_seal_and_pressing_it_twice_makes_no_second(alice_client, drawn_entry,
                                                                      django_capture_on_commit_callbacks):
    cards = [p["card"] for p in drawn_entry.reading["sections"][0]["positions"]]
    data = {f"use_{c}": "on" for c in cards} | {f"word_{cards[0]}": "dawn"}
    url = reverse("journal:seal_new", args=[drawn_entry.pk])

    with django_capture_on_commit_callbacks() as queued:
        first = alice_client.post(url, data)
        second = alice_client.post(url, data)

    seal = Seal.objects.get(entry=drawn_entry)
    assert first["Location"] == second["Location"] == seal.get_absolute_url()
    assert len(queued) == 1, "one task for one input"
    assert seal.cards == cards and seal.words == ["dawn"] + [deck.keyword(c) for c in cards[1:]]
    page = alice_client.get(seal.get_absolute_url()).content.decode()
    assert 'hx-trigger="every 1s"' in page and "0 of 9 files" in page


def test_a_word_the_seal_cannot_letter_is_refused_before_anything_is_queued(alice_client, drawn_entry):
    cards = [p["card"] for p in drawn_entry.reading["sections"][0]["positions"]]
    data = {f"use_{c}": "on" for c in cards} | {f"word_{cards[0]}": "\u5922"}

    response = alice_client.post(reverse("journal:seal_new", args=[drawn_entry.pk]), data)

    assert response.status_code == 400 and "cannot letter" in response.content.decode()
    assert not Seal.objects.exists()


def test_six_cards_are_too_many_for_a_seal(alice, alice_client):
    entry = services.create_entry(alice, title="Big", mode=Mode.PHYSICAL, reading=readings.manual_reading(
        "free", [{"card": c} for c in ("M1", "M2", "M3", "M4", "M5", "M6")]))

    response = alice_client.post(reverse("journal:seal_new", args=[entry.pk]),
                                 {f"use_M{n}": "on" for n in range(1, 7)})

    assert response.status_code == 400 and "2 to 5 cards" in response.content.decode()


# --- export and import ---------------------------------------------------------------------------


def export_of(client) -> zipfile.ZipFile:
    response = client.get(reverse("journal:export"))
    assert response["Content-Type"] == "application/zip"
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def test_the_export_holds_json_and_markdown_for_every_entry(alice_client, game_entry, drawn_entry):
    services.update_entry(drawn_entry, title="Morning draw", date=drawn_entry.date, reflections="Slow *day*.",
                          reflections_format="markdown", tags=["morning"])

    with export_of(alice_client) as zf:
        doc = json.loads(zf.read("journal.json"))
        markdown_files = [n for n in zf.namelist() if n.startswith("entries/") and n.endswith(".md")]
        morning = zf.read(next(n for n in markdown_files if "morning-draw" in n)).decode()

    assert doc["format"] == "sefirot-journal" and len(doc["entries"]) == 2
    assert len(markdown_files) == 2
    assert "# Morning draw" in morning and "Slow *day*." in morning and "Tags: morning" in morning
    first = drawn_entry.reading["sections"][0]["positions"][0]
    assert deck.label(first["card"]) in morning and first["question"] in morning


def test_an_export_imported_by_someone_else_rebuilds_the_journal(alice_client, bob, bob_client, game_entry,
                                                                 drawn_entry):
    services.request_seal(drawn_entry, ["M0", "M19"], ["a", "b"])
    with export_of(alice_client) as zf:
        raw = zf.read("journal.json")

    response = bob_client.post(reverse("journal:import"),
                               {"file": SimpleUploadedFile("journal.json", raw, "application/json")})

    assert response.status_code == 302
    mine = {e.title: e for e in Entry.objects.filter(owner=bob)}
    assert set(mine) == {game_entry.title, "Morning draw"}
    assert mine["Morning draw"].reading == drawn_entry.reading
    assert [t.name for t in mine["Morning draw"].tags.all()] == ["morning"]
    assert mine[game_entry.title].source_game is None  # the game was alice's
    assert list(mine["Morning draw"].seals.values_list("cards", "words")) == [(["M0", "M19"], ["a", "b"])]
    # The card rows for search and statistics come back too.
    card = drawn_entry.reading["sections"][0]["positions"][0]["card"]
    assert services.search(bob, card=card).count() == services.search(drawn_entry.owner, card=card).count() >= 1


def test_importing_the_same_zip_twice_adds_nothing_the_second_time(alice_client, alice, drawn_entry):
    raw = io.BytesIO()
    exports.export_zip(alice, raw)

    response = alice_client.post(reverse("journal:import"),
                                 {"file": SimpleUploadedFile("export.zip", raw.getvalue(), "application/zip")})

    assert response.status_code == 302
    assert Entry.objects.filter(owner=alice).count() == 1


@pytest.mark.parametrize("payload, message", [
    (b"not json at all", "not valid JSON"),
    (json.dumps({"format": "something-else"}).encode(), "not a Sefirot journal export"),
    (json.dumps({"format": "sefirot-journal", "version": 1, "entries": [
        {"uid": "x", "date": "2026-01-01", "title": "Fine", "mode": "physical",
         "reading": {"sections": [{"positions": [{"card": "M1"}]}]}},
        {"uid": "y", "date": "2026-01-02", "title": "Broken", "mode": "physical",
         "reading": {"sections": [{"positions": [{"card": "Z9"}]}]}},
    ]}).encode(), "is not a card code"),
])
def test_a_bad_import_says_why_and_imports_nothing(alice_client, alice, payload, message):
    response = alice_client.post(reverse("journal:import"),
                                 {"file": SimpleUploadedFile("journal.json", payload, "application/json")})

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Entry.objects.filter(owner=alice).exists()


# --- one entry as PDF ------------------------------------------------------------------------------


def test_one_entry_downloads_as_a_pdf_with_its_reading_and_reflections(alice_client, game_entry):
    services.update_entry(game_entry, title=game_entry.title, date=game_entry.date,
                          reflections="Ünïcode & <b>tags</b> stay text.", reflections_format="text", tags=[])

    response = alice_client.get(reverse("journal:pdf", args=[game_entry.pk]))

    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    from pypdf import PdfReader

    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    crown = game_entry.reading["sections"][0]["positions"][0]
    assert game_entry.title in text and deck.CARDS[crown["card"]].name in text
    assert "<b>tags</b> stay text." in text


def test_a_reflection_of_many_short_lines_keeps_every_line_and_paragraph_in_the_pdf(alice_client, game_entry):
    # Laid out in pieces of a few lines (bench/journal_pdf.py measures why), nothing lost
    # between pieces or paragraphs.
    lines = [f"line {n:04}" for n in range(300)]
    reflections = "\n".join(lines[:150]) + "\n\n" + "\n".join(lines[150:])
    services.update_entry(game_entry, title=game_entry.title, date=game_entry.date,
                          reflections=reflections, reflections_format="text", tags=[])

    response = alice_client.get(reverse("journal:pdf", args=[game_entry.pk]))

    from pypdf import PdfReader

    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    found = [line for line in text.splitlines() if line.startswith("line ")]
    assert found == lines


def test_a_seal_whose_task_was_lost_offers_a_retry(alice_client, drawn_entry, django_capture_on_commit_callbacks):
    import datetime as dt

    from django.utils import timezone

    seal = Seal.objects.create(entry=drawn_entry, cards=["M0", "M19"], words=["a", "b"], input_hash="lost")
    Seal.objects.filter(pk=seal.pk).update(updated=timezone.now() - dt.timedelta(minutes=30))

    page = alice_client.get(seal.get_absolute_url()).content.decode()
    with django_capture_on_commit_callbacks() as queued:
        alice_client.post(reverse("journal:seal_retry", args=[drawn_entry.pk, seal.pk]))

    assert "longer than it should" in page and "Try again" in page and "every 1s" not in page
    assert len(queued) == 1


def test_a_seal_that_cannot_be_stored_is_retried_a_few_times_then_fails_with_a_message(drawn_entry, settings,
                                                                                       tmp_path):
    from journal.tasks import MAX_RETRIES, render_seal_task

    # The seal folder cannot be made (a file stands in its way): the kind of trouble worth
    # trying again, here the same on every try.  apply() runs the task and its retries in
    # this process, one after the other, without the pauses between them.
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "seals").write_bytes(b"in the way")
    seal = Seal.objects.create(entry=drawn_entry, cards=["M0", "M19"], words=["a", "b"], input_hash="blocked")

    result = render_seal_task.apply(args=[seal.pk])

    seal.refresh_from_db()
    assert result.get() == 0
    assert seal.attempts == 1 + MAX_RETRIES  # bounded: the first try and MAX_RETRIES more
    assert seal.status == Seal.Status.FAILED and "could not be saved after several tries" in seal.error


def test_the_seal_task_pauses_longer_before_each_retry_and_has_a_time_limit():
    from journal.tasks import MAX_RETRIES, render_seal_task, retry_countdown

    assert [retry_countdown(n) for n in range(MAX_RETRIES)] == [5, 10, 20]
    assert retry_countdown(10) == 60  # never more than a minute
    assert render_seal_task.max_retries == MAX_RETRIES == 3
    assert render_seal_task.soft_time_limit < render_seal_task.time_limit <= 180


def test_the_sacred_columns_are_drawn_where_the_spaces_lie_on_the_starfield(alice, alice_client):
    reading = {"layout": "starfield", "sections": [
        {"id": "three_cards", "title": "Spread", "positions": [{"id": "first_contact", "label": "First contact",
                                                                 "question": "?", "card": "M6"}]},
        {"id": "sacred_columns", "title": "Columns", "positions": [
            {"id": "C2", "label": "The central Sefira", "question": "?", "card": "M6"},
            {"id": "L3", "label": "Emotional", "question": "?", "card": "M2"}]}]}
    entry = services.create_entry(alice, title="Us", mode=Mode.LOVERS_DISCOURSE, reading=reading)

    html = alice_client.get(entry.get_absolute_url()).content.decode()

    assert 'data-position="C2" style="grid-row: 4; grid-column: 2"' in html
    assert 'data-position="L3" style="grid-row: 1; grid-column: 1"' in html

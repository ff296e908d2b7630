"""A journal import keeps every limit the journal's forms keep (a title's, the reflections',
the tags', an entry's number of seals, an import's number of entries) and takes no NUL
character anywhere: either way it says why with a 400 and stores nothing, on SQLite and
on PostgreSQL (which refuses NUL in text and in JSON)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from journal import exports, services
from journal.models import Entry, Seal, Tag
from sefirot_site.outbox.models import PendingTask

pytestmark = pytest.mark.django_db

READING = {"layout": "spread", "sections": [{"id": "s", "title": "Three cards", "positions": [
    {"id": "p1", "label": "Past", "card": "M1"}, {"id": "p2", "label": "Present", "card": "M2"}]}],
    "story": ["The cards were laid."]}


def entry(n: int = 1, **fields) -> dict:
    return {"uid": f"00000000-0000-4000-8000-{n:012d}", "date": "2026-01-01", "title": f"Reading {n}",
            "mode": "physical", "reading": READING, "reflections": "", "reflections_format": "text",
            "tags": ["dreams"], "seals": [], **fields}


def seals(count: int) -> list[dict]:
    # Distinct seals: each a different pair of Majors.
    return [{"cards": [f"M{n}", f"M{n + 1}"], "words": ["one", "two"]} for n in range(count)]


def post_import(client, *entries: dict):
    raw = json.dumps({"format": "sefirot-journal", "version": 1, "entries": list(entries)}).encode()
    return client.post(reverse("journal:import"), {"file": SimpleUploadedFile("journal.json", raw, "application/json")})


def assert_nothing_stored(owner) -> None:
    assert not Entry.objects.filter(owner=owner).exists()
    assert not Tag.objects.filter(owner=owner).exists()
    assert not Seal.objects.exists() and not PendingTask.objects.exists()


def test_an_entry_at_every_limit_is_imported(alice, alice_client):
    at_limits = entry(title="T" * 200, reflections="r" * 50_000,
                      tags=[f"{n:02d}" + "t" * 38 for n in range(12)], seals=seals(12))

    response = post_import(alice_client, at_limits)

    assert response.status_code == 302
    imported = Entry.objects.get(owner=alice)
    assert len(imported.title) == 200 and len(imported.reflections) == 50_000
    assert imported.tags.count() == 12 and imported.seals.count() == 12


@pytest.mark.parametrize("fields, message", [
    ({"reflections": "x" * 3_000_000}, "its reflections are longer than 50,000 characters"),
    ({"reflections": "x" * 50_001}, "its reflections are longer than 50,000 characters"),
    ({"title": "T" * 201}, "its title is longer than 200 characters"),
    ({"tags": ["t" * 41]}, "is longer than 40 characters"),
    ({"tags": [f"tag {n}" for n in range(13)]}, "At most 12 tags per entry"),
    ({"tags": [f"tag {n}" for n in range(20_000)]}, "At most 12 tags per entry"),
    ({"tags": "dreams"}, "its tags must be a list of words"),
    ({"seals": seals(500)}, "has 500 seals; an entry holds at most 12"),
    ({"seals": seals(13)}, "has 13 seals; an entry holds at most 12"),
], ids=["reflections-3M", "reflections-50001", "title-201", "tag-41", "tags-13", "tags-20000", "tags-text",
        "seals-500", "seals-13"])
def test_an_import_beyond_a_limit_the_forms_keep_is_refused_and_stores_nothing(alice, alice_client, fields, message):
    response = post_import(alice_client, entry(1), entry(2, **fields))

    assert response.status_code == 400
    assert message in response.content.decode()
    assert "Entry 2" in response.content.decode()
    assert_nothing_stored(alice)


def test_an_import_of_more_entries_than_one_import_takes_is_refused(alice, alice_client):
    response = post_import(alice_client, *(entry(n) for n in range(exports.MAX_IMPORT_ENTRIES + 1)))

    assert response.status_code == 400
    assert f"At most {exports.MAX_IMPORT_ENTRIES} entries" in response.content.decode()
    assert_nothing_stored(alice)


NUL = "\u0000"


@pytest.mark.parametrize("fields, where", [
    ({"title": f"Night{NUL}mare"}, "its title"),
    ({"reflections": f"A dream{NUL}"}, "its reflections"),
    ({"reading": {**READING, "story": [f"The cards{NUL} were laid."]}}, "its reading"),
    ({"reading": {**READING, "sections": [{**READING["sections"][0], "positions": [
        {"id": "p1", "label": f"Past{NUL}", "card": "M1"}]}]}}, "its reading"),
    ({"tags": ["dreams", f"night{NUL}"]}, "its tags"),
    ({"seals": [{"cards": ["M0", "M1"], "words": [f"one{NUL}", "two"]}]}, "its seals"),
], ids=["title", "reflections", "story", "position", "tag", "seal-word"])
def test_an_import_with_a_nul_character_is_refused_with_a_400_and_stores_nothing(alice, alice_client, fields, where):
    response = post_import(alice_client, entry(1), entry(2, **fields))

    assert response.status_code == 400
    assert f"Entry 2: {where} contains a NUL character" in response.content.decode()
    assert_nothing_stored(alice)


def test_the_seal_form_refuses_a_seal_beyond_an_entrys_limit_with_a_message(alice, alice_client, drawn_entry):
    for pair in seals(services.MAX_SEALS_PER_ENTRY):
        services.request_seal(drawn_entry, pair["cards"], pair["words"])
    cards = [p["card"] for p in drawn_entry.reading["sections"][0]["positions"]]

    response = alice_client.post(reverse("journal:seal_new", args=[drawn_entry.pk]),
                                 {f"use_{cards[0]}": "on", f"use_{cards[1]}": "on"})

    assert response.status_code == 400
    assert "An entry holds at most 12 seals" in response.content.decode()
    assert drawn_entry.seals.count() == services.MAX_SEALS_PER_ENTRY
    # Asking again for a seal it already has is no new seal, and still answers.
    again = seals(1)[0]
    assert services.request_seal(drawn_entry, again["cards"], again["words"]).entry == drawn_entry

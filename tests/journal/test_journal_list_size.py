"""The journal's list and search at any size (issue 38, item 26): no DISTINCT over every
column of the entries, the same few queries for a short journal as for a long one, the
text search answered from indexes on PostgreSQL, and the same entries found as before."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from journal import readings, services
from journal.models import Entry, Mode

pytestmark = pytest.mark.django_db


def fill(owner, count: int, *, word_every: int = 3) -> None:
    for n in range(count):
        services.create_entry(owner, title=f"Evening {n}", mode=Mode.PHYSICAL, date=dt.date(2026, 1, 1) + dt.timedelta(n),
                              reading=readings.manual_reading("three", [{"card": "M19"}, {"card": "9p"}, {"card": "Kc"}]),
                              reflections="A lantern by the river" if n % word_every == 0 else "Quiet",
                              tags=["lamps"] if n % 2 else ["river"])


def queries(client, params: dict) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("journal:list"), params).status_code == 200
    return [q["sql"] for q in captured]


SEARCHES = [{}, {"q": "lantern"}, {"q": "lamp"}, {"card": "M19"}, {"tag": "river"}, {"q": "evening river", "card": "9p"}]


@pytest.mark.parametrize("params", SEARCHES)
def test_the_list_and_its_count_never_fold_duplicate_entries_with_distinct(alice, alice_client, params):
    fill(alice, 3)

    asked = [sql for sql in queries(alice_client, params) if "journal_entry" in sql]

    assert asked and not [sql for sql in asked if "DISTINCT" in sql.upper()]
    # The page's rows: the columns a line of the list shows, not the readings and reflections.
    columns = next(sql.split(" FROM ")[0] for sql in asked if sql.startswith('SELECT "journal_entry"."id"'))
    assert '"journal_entry"."title"' in columns
    assert '"journal_entry"."reflections"' not in columns and '"journal_entry"."reading"' not in columns


@pytest.mark.parametrize("params", SEARCHES)
def test_the_list_asks_as_many_queries_for_five_entries_as_for_fifty(alice, bob, alice_client, bob_client, params):
    fill(alice, 5)
    fill(bob, 50)
    queries(alice_client, params), queries(bob_client, params)  # each session's first read

    assert len(queries(alice_client, params)) == len(queries(bob_client, params))


def titles(client, params) -> list[str]:
    return [entry.title for entry in client.get(reverse("journal:list"), params).context["page"].object_list]


def test_an_entry_found_by_its_title_its_tags_and_its_cards_at_once_is_listed_once(alice, alice_client):
    services.create_entry(alice, title="River crossing", mode=Mode.PHYSICAL,
                          reading=readings.manual_reading("three", [{"card": "M19"}, {"card": "M19"}, {"card": "2c"}]),
                          reflections="The river was high", tags=["river", "rivers"])

    assert titles(alice_client, {"q": "river"}) == ["River crossing"]
    assert titles(alice_client, {"q": "river", "card": "M19"}) == ["River crossing"]
    assert titles(alice_client, {"tag": "river", "card": "M19"}) == ["River crossing"]


def test_every_word_of_a_search_must_be_found_in_a_title_a_reflection_or_a_tag(alice, alice_client):
    fill(alice, 6)  # lantern in 0 and 3; tag lamps on the odd ones, river on the even ones

    assert titles(alice_client, {"q": "LANTERN lamps"}) == ["Evening 3"]
    assert titles(alice_client, {"q": "lantern riv"}) == ["Evening 3", "Evening 0"]  # "river" in both
    assert titles(alice_client, {"q": "quiet lamps"}) == ["Evening 5", "Evening 1"]
    assert titles(alice_client, {"q": "nowhere"}) == []


def test_a_search_counts_its_pages_of_matches(alice, alice_client):
    fill(alice, 50, word_every=1)

    first = alice_client.get(reverse("journal:list"), {"q": "lantern"})
    last = alice_client.get(reverse("journal:list"), {"q": "lantern", "page": 3})

    assert first.context["page"].paginator.count == 50 and "Page 1 of 3" in first.content.decode()
    assert [e.title for e in last.context["page"].object_list] == [f"Evening {n}" for n in range(9, -1, -1)]


def test_another_owners_entries_never_match(alice, bob, alice_client):
    fill(bob, 4)

    assert titles(alice_client, {"q": "lantern"}) == [] and titles(alice_client, {"tag": "river"}) == []
    assert titles(alice_client, {}) == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="trigram indexes are PostgreSQL's")
def test_on_postgresql_a_text_search_can_be_read_from_the_trigram_indexes(alice):
    with connection.cursor() as cursor:
        # How the planner weighs a small table against its indexes varies; what must hold
        # is that the search's form lets the trigram indexes answer it at all (an EXISTS
        # ORed in made that impossible). So, in this test's transaction only, the owner's
        # indexes go and reading the whole table is made the last resort.
        cursor.execute("SELECT indexname, EXISTS(SELECT 1 FROM pg_constraint WHERE conname = indexname) "
                       "FROM pg_indexes WHERE tablename = 'journal_entry' AND indexdef LIKE '%%(owner_id%%'")
        for name, is_constraint in cursor.fetchall():
            cursor.execute(f'ALTER TABLE journal_entry DROP CONSTRAINT "{name}"' if is_constraint
                           else f'DROP INDEX "{name}"')
    Entry.objects.bulk_create([
        Entry(owner=alice, title=f"Evening {n}", mode=Mode.PHYSICAL, reading={"sections": []},
              reflections="A lantern by the river" if n % 200 == 0 else "Quiet water, a long road")
        for n in range(3000)])
    matches = services.search(alice, text="lantern")
    sql, params = matches.order_by().query.sql_with_params()  # as the paginator counts
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE journal_entry")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN SELECT COUNT(*) FROM ({sql}) AS found", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert "journal_entry_reflections_trgm" in plan and "journal_entry_title_trgm" in plan, plan
    assert matches.count() == 15 and all("lantern" in e.reflections for e in matches)

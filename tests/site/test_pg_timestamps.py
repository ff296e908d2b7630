"""PostgreSQL's timestamps, parsed in C (sefirot_site.pg_timestamps), read as Django's own
loader reads them: the same instant, in the same time zone, and the same refusal of what
neither can read."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection, transaction

from sefirot_site.pg_timestamps import loader_for

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="the loader is PostgreSQL's (CI runs this there)")

# As PostgreSQL writes them (DateStyle ISO): whole seconds, a few digits of a second, six,
# offsets of hours, minutes and seconds (local mean time before 1900), far past and future.
WRITTEN = [
    "2026-11-26 12:00:00+00", "2026-11-26 12:00:00.5+00", "2026-11-26 12:00:00.123456+00",
    "2026-11-26 17:30:00.000001+05:30", "1883-11-18 12:00:00-04:56:02", "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59.999999+00", "2026-03-29 01:59:59-11",
]


class SlowLoader:
    """Stands for Django's loader class where there is no connection: it must not be asked
    for what the fast path reads."""
    timezone = dt.timezone.utc

    def __init__(self, oid, context=None):
        raise AssertionError("the fast path fell back")


@pytest.mark.parametrize("text", WRITTEN)
def test_it_reads_each_way_postgresql_writes_a_timestamp(text):
    loader = loader_for(SlowLoader)(1184)
    value = loader.load(text.encode())
    assert value.tzinfo is dt.timezone.utc
    assert value == dt.datetime.fromisoformat(text)


def test_it_gives_naive_times_where_django_asks_for_no_time_zone():
    class NaiveSlowLoader(SlowLoader):  # Django's with USE_TZ off
        timezone = None

    loader = loader_for(NaiveSlowLoader)(1184)
    assert loader.load(b"2026-11-26 17:30:00+05:30") == dt.datetime(2026, 11, 26, 17, 30)


@postgres_only
@pytest.mark.django_db
def test_the_connection_uses_it_and_no_cursor_puts_djangos_back():
    connection.ensure_connection()
    with connection.cursor() as cursor:
        assert cursor.cursor.adapters.get_loader(1184, 0).__name__ == "FastTimestamptzLoader"


def read(sql, params=(), *, djangos=False):
    """What one query reads through the connection, or through Django's own loader."""
    from django.db.backends.postgresql.psycopg_any import register_tzloader

    with connection.cursor() as cursor:
        if djangos:
            register_tzloader(connection.timezone, cursor.cursor)  # on this cursor only
        return cursor.execute(sql, params).fetchall()


@postgres_only
@pytest.mark.django_db
def test_it_reads_what_djangos_loader_reads():
    sql = "SELECT now(), %s::timestamptz, %s::timestamptz, %s::timestamptz, NULL::timestamptz"
    params = ["2026-11-26 12:00:00.123456+00", "1883-11-18 12:00:00+00", "0001-01-01 00:00:00+00"]
    fast, slow = read(sql, params), read(sql, params, djangos=True)
    assert fast == slow
    assert all(value.tzinfo is dt.timezone.utc for value in fast[0] if value is not None)


@postgres_only
@pytest.mark.django_db
@pytest.mark.parametrize("session_zone", ["Asia/Kolkata", "America/St_Johns"])
def test_it_reads_the_instant_written_whatever_the_sessions_time_zone(session_zone):
    # Django sets every session to its own zone (UTC here); its loader reads wall times as
    # UTC under any other, this one reads the instant.
    written = ["2026-11-26 12:00:00.123456+00", "1883-11-18 12:00:00+00"]
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL TIME ZONE %s", [session_zone])
        [read_back] = read("SELECT %s::timestamptz, %s::timestamptz", written)
    assert list(read_back) == [dt.datetime.fromisoformat(text) for text in written]
    assert all(value.tzinfo is dt.timezone.utc for value in read_back)


@postgres_only
@pytest.mark.django_db
@pytest.mark.parametrize("value", ["0044-03-15 12:00:00+00 BC", "infinity"])
def test_what_it_cannot_read_is_refused_as_django_refuses_it(value):
    outcomes = []
    for djangos in (False, True):
        try:
            with transaction.atomic():
                outcomes.append(read("SELECT %s::timestamptz", [value], djangos=djangos))
        except Exception as error:  # noqa: BLE001 - what is compared is the refusal itself
            outcomes.append((type(error), str(error)))
    assert outcomes[0] == outcomes[1]

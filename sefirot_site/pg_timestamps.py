"""PostgreSQL's timestamps read by Python's C parser, not psycopg's Python one.

Django registers on every connection a ``timestamptz`` loader built on psycopg's pure
Python ``TimestamptzLoader`` (its C twin cannot be subclassed), so that values come back
in the connection's time zone.  A move's answer reads a couple of dozen timestamps (the
game, its seats and users, the log's window, the session), and profiling showed that
parsing them cost about half a millisecond: more than the queries took in the database.
``datetime.fromisoformat`` parses PostgreSQL's ISO output ("2026-11-26 12:00:00.5+00")
in C.  What it cannot read (a date before the common era, "infinity") goes to Django's
own loader, which refuses it as before; every other value reads as Django's loader reads
it under the session time zone Django sets (and as the instant written under any other).
"""

from __future__ import annotations

from datetime import datetime

from django.db.backends.signals import connection_created
from django.dispatch import receiver


def loader_for(slow_loader):
    """A loader class in place of ``slow_loader``, the class Django registered: values in
    its time zone, and what the fast path cannot read left to it."""
    from psycopg.adapt import Loader

    timezone = slow_loader.timezone

    class FastTimestamptzLoader(Loader):
        # Django's create_cursor compares this with the connection's time zone and
        # registers its own loader again, on every cursor, when they differ.
        timezone = slow_loader.timezone

        def __init__(self, oid, context=None):
            super().__init__(oid, context)
            self._context = context
            self._slow = None

        def load(self, data):
            try:
                value = datetime.fromisoformat(bytes(data).decode())
            except ValueError:
                value = None
            if value is None or value.tzinfo is None:
                if self._slow is None:
                    self._slow = slow_loader(self.oid, self._context)
                return self._slow.load(data)
            # As Django's loader gives them: in its time zone, or naive in the
            # connection's when it asks for none (USE_TZ off).
            return value.astimezone(timezone) if timezone is not None else value.replace(tzinfo=None)

    FastTimestamptzLoader.__qualname__ = f"FastTimestamptzLoader[{timezone}]"
    return FastTimestamptzLoader


_LOADERS = {}  # Django's loader class -> ours: one class per time zone, as Django makes them


@receiver(connection_created, dispatch_uid="sefirot_site.pg_timestamps")
def use_the_fast_loader(sender, connection, **kwargs):
    if connection.vendor != "postgresql":
        return
    from psycopg.pq import Format
    from psycopg.postgres import types

    adapters = connection.connection.adapters
    oid = types["timestamptz"].oid
    slow = adapters.get_loader(oid, Format.TEXT)
    if slow is None or getattr(slow, "__qualname__", "").startswith("FastTimestamptzLoader"):
        return
    if not hasattr(slow, "timezone"):
        return  # not Django's loader: leave whatever registered it alone
    fast = _LOADERS.get(slow)
    if fast is None:
        fast = _LOADERS[slow] = loader_for(slow)
    adapters.register_loader("timestamptz", fast)

"""Querysets compiled to SQL once per connection and run again with new values; the hot
writes (``update_where``, ``insert``) and reads of plain rows (``fetch_one``) through SQL
made once.

Django builds and compiles a queryset's SQL anew on every evaluation.  For the few
queries that every move, page, poll and turn mail runs (a game joined to its seats and
their users, with subqueries for the newest chat line and clock event), that compiling
cost more than the database did: about 1.8 ms of Python against 0.25 ms for the query
itself.  A ``PreparedQuery`` is built once from a function that makes the queryset with
stand-in values, compiled on first use on each connection (a connection's vendor decides
the SQL: SQLite drops FOR UPDATE), and then only executed, its rows turned into model
instances as the queryset would (``select_related`` objects and annotations included,
the fields' converters applied).

django-prepared-queries does this for plain querysets through RawQuerySet, which has no
``select_related``, and has not followed Django since 2019; this is the part we need.

On PostgreSQL these statements are also prepared on the server, once per connection
(``PREPARED_STATEMENTS``, on unless a pooler in transaction mode stands in between).
PostgreSQL plans a statement before each run: for the game joined to its seats and
users that planning cost the database 0.6-0.9 ms of CPU a run against 0.2-0.3 ms once
prepared, and the client's CPU fell by a quarter, since the values no longer go into the
SQL text.  Django sends everything else as before: the values merged into the text on
the client (its default), nothing prepared.  A rollback makes psycopg forget what it
prepared (it deallocates it all), so the next run after a refused move prepares again.
"""

from __future__ import annotations

import functools
import weakref
from typing import Callable

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.query import ModelIterable, get_related_populators
from django.db.transaction import TransactionManagementError

# Stand-ins for the values of a query, found again among the compiled query's parameters.
# Small and positive: Django compiles a lookup with a value outside the field's range
# (a negative version) to a constant condition, where the value would be lost.  The query
# is compiled with two sets, which must give the same SQL and the same places, so a
# constant of the query that happens to equal a stand-in cannot be taken for one.
STAND_INS = ((30_011, 30_013, 30_017), (30_019, 30_023, 30_029))


class PreparedQuery:
    """``build(*values)`` returns the queryset of ``values`` (whole numbers, each used as a
    parameter of the query: an id, a version); calling the prepared query with them runs
    it with those values in their place and returns its objects as a list (a
    ``values_list()`` queryset's rows as tuples)."""

    def __init__(self, build: Callable[..., QuerySet], values: int, *, locks: bool = False):
        self._build = build
        self._values = values
        self._locks = locks

    def _compile(self, connection) -> dict:
        compiled = []
        for stand_ins in STAND_INS:
            stand_ins = stand_ins[: self._values]
            queryset = self._build(*stand_ins)
            compiler = queryset.query.get_compiler(connection=connection)
            sql, params = compiler.as_sql()
            # A stand-in may come back wrapped (psycopg's Int4 in a PostgreSQL subquery):
            # its value takes the same wrapper.
            slots = [(stand_ins.index(p), type(p)) if isinstance(p, int) and not isinstance(p, bool)
                     and int(p) in stand_ins else None for p in params]
            compiled.append((sql, slots, compiler, params))
        (sql, slots, compiler, params), (other_sql, other_slots, _, _) = compiled
        missing = set(range(self._values)) - {slot[0] for slot in slots if slot is not None}
        if missing or sql != other_sql or slots != other_slots:
            raise ValueError(f"the query does not take each of its {self._values} values as a parameter")
        select, klass_info = compiler.select, compiler.klass_info
        prepared = {
            "sql": sql, "params": list(params), "slots": slots, "compiler": compiler,
            "converters": compiler.get_converters([column[0] for column in select[: compiler.col_count]]),
            "model": None,
        }
        if queryset._iterable_class is ModelIterable:  # else values_list(): its rows are the answer
            start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
            prepared.update({
                "model": klass_info["model"], "start": start, "end": end,
                "init_list": [column[0].target.attname for column in select[start:end]],
                "populators_from": (klass_info, select),
                "annotations": list((compiler.annotation_col_map or {}).items()),
            })
        # Kept on the connection: what is compiled refers to it (its converters, its
        # compiler), so a table beside it, even a weak one, would keep every thread's
        # connection alive; on it, it goes with its connection.
        connection.__dict__.setdefault("prepared_queries", {})[self] = prepared
        return prepared

    def __call__(self, *values, using: str = DEFAULT_DB_ALIAS) -> list:
        if len(values) != self._values:
            raise TypeError(f"expected {self._values} values, got {len(values)}")
        connection = connections[using]
        if self._locks and connection.get_autocommit():
            # What the queryset would say: a lock outside a transaction is released at once.
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        compiled = connection.__dict__.get("prepared_queries", {}).get(self) or self._compile(connection)
        params = [value if slot is None else slot[1](values[slot[0]])
                  for value, slot in zip(compiled["params"], compiled["slots"])]
        with _cursor(connection) as cursor:
            cursor.execute(compiled["sql"], params)
            rows = cursor.fetchall()
        if compiled["converters"]:
            rows = compiled["compiler"].apply_converters(rows, compiled["converters"])
        if compiled["model"] is None:
            return [tuple(row) for row in rows]
        model, start, end, init_list = compiled["model"], compiled["start"], compiled["end"], compiled["init_list"]
        # Populators hold the related objects' field lists; made per call, as the queryset
        # does, since they are cheap and keep nothing between rows of different calls.
        populators = get_related_populators(*compiled["populators_from"], using)
        objects = []
        for row in rows:
            obj = model.from_db(using, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, obj)
            for name, position in compiled["annotations"]:
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects


# psycopg prepares only on a connection with a threshold (Django leaves it None: none at
# all) and only what a cursor asks for or what ran this many times: a threshold never
# reached lets the statements below ask while leaving every other query as Django sends it.
NEVER_BY_ITSELF = 2**31 - 1


@functools.cache
def _preparing_cursor_class():
    # Imported when first asked: the backend module is PostgreSQL's, of no use on SQLite.
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparingCursor(ServerBindingCursor):
        """Values bound on the server, and the statement prepared there on its first run
        on a connection (psycopg keeps the name per connection and runs it after that)."""

        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True, binary=binary)

        def _convert_query(self, query, params=None):
            # Django's query log reads the query from here, which psycopg leaves unset
            # when it runs a prepared statement: the log would hold None.  It holds the
            # statement as sent ($1, $2 for the values; its debug log gives the values).
            self._query = super()._convert_query(query, params)
            return self._query

    return PreparingCursor


def _cursor(connection):
    """A cursor for the statements of this module: on PostgreSQL one that prepares them,
    wrapped as Django wraps its own (queries counted and logged, errors translated);
    elsewhere, or with ``PREPARED_STATEMENTS`` off, Django's own."""
    if connection.vendor != "postgresql" or not settings.PREPARED_STATEMENTS:
        return connection.cursor()
    # What connection.cursor() does, with our cursor in place of the connection's own.
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = connection.connection
        if raw.prepare_threshold is None:
            raw.prepare_threshold = NEVER_BY_ITSELF
        return connection._prepare_cursor(_preparing_cursor_class()(raw))


def fetch_one(key: tuple, make: Callable, params: list, *, using: str = DEFAULT_DB_ALIAS) -> tuple | None:
    """The first row of the SQL ``make(quote_name)`` returns (its values as ``%s``), made once
    per connection under ``key`` as the writes below are, and run as the statements of this
    module are: prepared on PostgreSQL."""
    connection = connections[using]
    with _cursor(connection) as cursor:
        cursor.execute(_statement(connection, key, make), params)
        return cursor.fetchone()


# --- the writes of every move, turn mail and outbox row ---------------------------------
# A move updates its game and adds its record, a turn mail adds its mark, a consequence its
# outbox row; through the ORM each statement was built and compiled again (a twentieth of
# a move, a tenth of a mail).  These write the same rows with SQL made once per connection
# from the models' fields, the values prepared by those fields as the ORM prepares them.
# Like ``QuerySet.update`` and ``bulk_create``, they send no ``pre_save``/``post_save``
# signals (nothing here listens to them for these models).

_statements: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _statement(connection, key: tuple, make: Callable) -> str:
    made = _statements.setdefault(connection, {})
    if key not in made:
        made[key] = make(connection.ops.quote_name)
    return made[key]


def update_where(model, where: dict, values: dict, *, using: str = DEFAULT_DB_ALIAS) -> int:
    """``model.objects.filter(**where).update(**values)`` for plain fields named by their
    field names (``id`` for the key), each compared by equality: the count of rows updated."""
    connection = connections[using]
    sql, params = _update_sql(connection, model, where, values)
    with _cursor(connection) as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def _update_sql(connection, model, where: dict, values: dict) -> tuple[str, list]:
    meta = model._meta
    set_fields = [meta.get_field(name) for name in values]
    where_fields = [meta.get_field(name) for name in where]
    sql = _statement(connection, ("update", meta.label, tuple(values), tuple(where)), lambda qn: (
        f"UPDATE {qn(meta.db_table)} SET " + ", ".join(f"{qn(field.column)} = %s" for field in set_fields)
        + " WHERE " + " AND ".join(f"{qn(field.column)} = %s" for field in where_fields)))
    params = [field.get_db_prep_save(values[field.name], connection) for field in set_fields]
    params += [field.get_db_prep_value(where[field.name], connection) for field in where_fields]
    return sql, params


def update_then_insert(model, where: dict, values: dict, instance, *, read_back: tuple | None = None,
                       using: str = DEFAULT_DB_ALIAS):
    """``update_where(model, where, values)`` and, if it updated a row, ``insert(instance)``:
    the instance saved, or None (nothing written) when no row matched.  A move writes its
    game and its record so.  On PostgreSQL it is one statement, the insert reading the
    update's row (a data-modifying WITH): one round trip to the database fewer per move.

    With ``read_back`` (the field the rows share with the instance, the field that orders
    them, the fields to read with that one among them, how many), the saved instance's
    ``read_back`` holds the rows of
    its model written before it with the same value of that field: at most that many, the
    greatest first, as tuples of those fields (a move's answer shows the newest moves of
    its game, and on PostgreSQL they come in the same statement)."""
    connection = connections[using]
    meta = instance._meta
    if connection.vendor != "postgresql":
        if update_where(model, where, values, using=using) != 1:
            return None
        insert(instance, using=using)
        if read_back is not None:
            group, order, names, count = read_back
            instance.read_back = list(
                meta.model._default_manager.using(using).filter(**{group: getattr(instance, group)})
                .exclude(pk=instance.pk).order_by(f"-{order}").values_list(*names)[:count])
        return instance
    update_sql, update_params = _update_sql(connection, model, where, values)
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    params = update_params + [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]

    def make(qn):
        # Each value cast to its column's type: in a SELECT's list the database would not infer it.
        sql = (f"WITH updated AS ({update_sql} RETURNING 1), "
               f"inserted AS (INSERT INTO {qn(meta.db_table)} ({', '.join(qn(field.column) for field in fields)}) "
               f"SELECT {', '.join(f'%s::{field.cast_db_type(connection)}' for field in fields)} FROM updated "
               f"RETURNING {qn(meta.pk.column)}) ")
        if read_back is None:
            return sql + f"SELECT {qn(meta.pk.column)} FROM inserted"
        group, order, names, count = read_back
        # The rows before it: the statement's snapshot does not hold the row it inserts.
        return sql + (
            f"SELECT inserted.{qn(meta.pk.column)}, {', '.join(f'earlier.{qn(meta.get_field(n).column)}' for n in names)} "
            f"FROM inserted LEFT JOIN LATERAL (SELECT * FROM {qn(meta.db_table)} "
            f"WHERE {qn(meta.get_field(group).column)} = %s ORDER BY {qn(meta.get_field(order).column)} DESC "
            f"LIMIT {int(count)}) AS earlier ON true")

    sql = _statement(connection, ("update_then_insert", update_sql, meta.label, read_back), make)
    if read_back is not None:
        group_field = meta.get_field(read_back[0])
        params.append(group_field.get_db_prep_value(getattr(instance, group_field.attname), connection))
    with _cursor(connection) as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if not rows:
        return None
    instance.pk = rows[0][0]
    instance._state.adding, instance._state.db = False, using
    if read_back is not None:
        position = 1 + list(read_back[2]).index(read_back[1])
        # A game's first move has no earlier rows: its one row is the join's NULLs.
        instance.read_back = sorted((tuple(row[1:]) for row in rows if row[position] is not None),
                                    key=lambda row: row[position - 1], reverse=True)
    return instance


def insert(instance, *, using: str = DEFAULT_DB_ALIAS):
    """Save a new ``instance`` (its model's key made by the database) as
    ``model.objects.create`` would, ``auto_now_add`` fields included; returns it."""
    connection = connections[using]
    meta = instance._meta
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    returning = connection.features.can_return_columns_from_insert
    sql = _statement(connection, ("insert", meta.label), lambda qn: (
        f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(field.column) for field in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})" + (f" RETURNING {qn(meta.pk.column)}" if returning else "")))
    params = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    with _cursor(connection) as cursor:
        cursor.execute(sql, params)
        key = cursor.fetchone()[0] if returning else connection.ops.last_insert_id(cursor, meta.db_table,
                                                                                     meta.pk.column)
    instance.pk = key
    instance._state.adding, instance._state.db = False, using
    return instance

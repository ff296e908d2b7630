"""A game's state is rewritten at every move, and past about 2 kB PostgreSQL compresses it
on every write.  With its default (pglz), the state of move 200 of bench/web.py's long
game (8.5 kB) costs the database 0.105 ms of CPU per write, and a 34 kB one 0.46 ms; with
lz4, 0.054 and 0.14 ms, and lz4 also unpacks faster on every read.  Only PostgreSQL has
the setting; a server built without lz4 keeps pglz (the game is the same either way).
Existing states take lz4 when their game next moves."""

from django.db import DatabaseError, migrations, transaction

TABLE_COLUMN = ("games_game", "state")


def _set_compression(connection, method: str) -> None:
    table, column = (connection.ops.quote_name(name) for name in TABLE_COLUMN)
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}")


def use_lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    try:
        with transaction.atomic(using=connection.alias):  # a savepoint: a refusal undoes nothing else
            _set_compression(connection, "lz4")
    except DatabaseError:
        pass  # no lz4 in this server's build: pglz stays, as before


def use_default(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        _set_compression(schema_editor.connection, "DEFAULT")


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_taken_over_events"),
    ]

    operations = [
        migrations.RunPython(use_lz4, use_default, elidable=True),
    ]

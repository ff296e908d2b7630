"""Trigram indexes for the journal's text search, on PostgreSQL only.

The search asks ``title``/``reflections`` ``icontains`` a word, which Django writes as
``UPPER(col::text) LIKE UPPER('%word%')``; without an index that reads every entry of
the owner, so a search slowed with the journal's size (issue 38: 6.5x at 10,000 entries
against 100). A GIN index of pg_trgm on the same expression answers such a LIKE from
the index. pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may
create it. SQLite, the development default, has no such index and scans.
"""

from django.db import migrations

INDEXES = {
    "journal_entry_title_trgm": "title",
    "journal_entry_reflections_trgm": "reflections",
}


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, column in INDEXES.items():
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{name}" ON "journal_entry" '
            f'USING gin ((UPPER("{column}"::text)) gin_trgm_ops)')


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')


class Migration(migrations.Migration):

    dependencies = [
        ("journal", "0002_mode_is_any_game"),
    ]

    operations = [
        migrations.RunPython(create, drop),
    ]

"""Full-text index over askapp_chunk, maintained by the database itself on every write path.

SQLite: an external-content FTS5 table with insert/update/delete triggers, plus a change log
(also trigger-fed) from which the embedded search accelerator catches up; see
docs/adr/ on full-text search. PostgreSQL: a stored generated tsvector column with a GIN index.
"""

from django.db import migrations

SQLITE_FORWARD = [
    """
    CREATE VIRTUAL TABLE askapp_chunk_fts USING fts5(
        text,
        content='askapp_chunk',
        content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2'
    )
    """,
    "INSERT INTO askapp_chunk_fts(askapp_chunk_fts) VALUES ('rebuild')",
    """
    CREATE TRIGGER askapp_chunk_fts_insert AFTER INSERT ON askapp_chunk BEGIN
        INSERT INTO askapp_chunk_fts(rowid, text) VALUES (new.id, new.text);
    END
    """,
    """
    CREATE TRIGGER askapp_chunk_fts_delete AFTER DELETE ON askapp_chunk BEGIN
        INSERT INTO askapp_chunk_fts(askapp_chunk_fts, rowid, text)
        VALUES ('delete', old.id, old.text);
    END
    """,
    """
    CREATE TRIGGER askapp_chunk_fts_update AFTER UPDATE OF id, text ON askapp_chunk BEGIN
        INSERT INTO askapp_chunk_fts(askapp_chunk_fts, rowid, text)
        VALUES ('delete', old.id, old.text);
        INSERT INTO askapp_chunk_fts(rowid, text) VALUES (new.id, new.text);
    END
    """,
    # The accelerator's feed: every chunk whose indexed text or filters may have changed.
    """
    CREATE TABLE askapp_chunk_change (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        chunk_id INTEGER NOT NULL
    )
    """,
    """
    CREATE TABLE askapp_search_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        generation TEXT NOT NULL
    )
    """,
    "INSERT INTO askapp_search_state (id, generation) VALUES (1, lower(hex(randomblob(16))))",
    """
    CREATE TRIGGER askapp_chunk_change_insert AFTER INSERT ON askapp_chunk BEGIN
        INSERT INTO askapp_chunk_change (chunk_id) VALUES (new.id);
    END
    """,
    """
    CREATE TRIGGER askapp_chunk_change_delete AFTER DELETE ON askapp_chunk BEGIN
        INSERT INTO askapp_chunk_change (chunk_id) VALUES (old.id);
    END
    """,
    """
    CREATE TRIGGER askapp_chunk_change_update
    AFTER UPDATE OF id, text, document_id ON askapp_chunk BEGIN
        INSERT INTO askapp_chunk_change (chunk_id) VALUES (old.id);
        INSERT INTO askapp_chunk_change (chunk_id) SELECT new.id WHERE new.id != old.id;
    END
    """,
    """
    CREATE TRIGGER askapp_document_change_update
    AFTER UPDATE OF classification, entity_id ON askapp_document
    WHEN old.classification IS NOT new.classification OR old.entity_id IS NOT new.entity_id
    BEGIN
        INSERT INTO askapp_chunk_change (chunk_id)
        SELECT id FROM askapp_chunk WHERE document_id = new.id;
    END
    """,
]

SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS askapp_document_change_update",
    "DROP TRIGGER IF EXISTS askapp_chunk_change_update",
    "DROP TRIGGER IF EXISTS askapp_chunk_change_delete",
    "DROP TRIGGER IF EXISTS askapp_chunk_change_insert",
    "DROP TABLE IF EXISTS askapp_search_state",
    "DROP TABLE IF EXISTS askapp_chunk_change",
    "DROP TRIGGER IF EXISTS askapp_chunk_fts_update",
    "DROP TRIGGER IF EXISTS askapp_chunk_fts_delete",
    "DROP TRIGGER IF EXISTS askapp_chunk_fts_insert",
    "DROP TABLE IF EXISTS askapp_chunk_fts",
]

POSTGRES_FORWARD = [
    """
    ALTER TABLE askapp_chunk ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(text, ''))) STORED
    """,
    "CREATE INDEX askapp_chunk_search_gin ON askapp_chunk USING gin (search_vector)",
]

POSTGRES_REVERSE = [
    "DROP INDEX IF EXISTS askapp_chunk_search_gin",
    "ALTER TABLE askapp_chunk DROP COLUMN IF EXISTS search_vector",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        statements = statements_by_vendor.get(schema_editor.connection.vendor)
        if statements is None:
            raise NotImplementedError(
                f"no full-text index for the {schema_editor.connection.vendor} database"
            )
        for statement in statements:
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("askapp", "0001_knowledge_base"),
    ]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE_FORWARD, "postgresql": POSTGRES_FORWARD}),
            _run({"sqlite": SQLITE_REVERSE, "postgresql": POSTGRES_REVERSE}),
            elidable=False,
        ),
    ]

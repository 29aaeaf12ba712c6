"""The knowledge base's version: one row the database bumps on every write to entities,
metrics, facts and documents, so an ask learns whether its cached vocabulary is current by
reading one row instead of counting four tables (askapp/store.py, docs/adr/0034).

The table is not a Django model on purpose: Django's flush (between transactional tests)
leaves it alone. Each write sets a number not used before (see BUMP), so a rollback, which
restores the old number with the old data, never leads to a number that named other data. The triggers bump it
in the writing transaction, so the new number becomes visible with the data it counts:
SQLite fires them per row (one writer at a time there), PostgreSQL per statement, TRUNCATE
included.
"""

from django.db import migrations

TABLE = "askapp_knowledge_version"
WATCHED = ("askapp_entity", "askapp_metric", "askapp_fact", "askapp_document")
OPERATIONS = ("INSERT", "UPDATE", "DELETE")
# A write sets a number never used before, even one a rolled-back transaction held (a
# process that read its own uncommitted writes may have cached under it): a sequence on
# PostgreSQL (sequences ignore rollbacks), a random 63-bit number on SQLite.
SEQUENCE = "askapp_knowledge_version_seq"
BUMP = {
    "sqlite": f"UPDATE {TABLE} SET version = abs(random()) WHERE id = 1",
    "postgresql": f"UPDATE {TABLE} SET version = nextval('{SEQUENCE}') WHERE id = 1",
}
PG_FUNCTION = "askapp_knowledge_changed"


def sqlite_trigger(table: str, operation: str) -> str:
    return f"askapp_knowledge_changed_{table}_{operation.lower()}"


def create(apps, schema_editor):
    run = schema_editor.execute
    run(f"CREATE TABLE {TABLE} (id integer PRIMARY KEY, version bigint NOT NULL)")
    run(f"INSERT INTO {TABLE} (id, version) VALUES (1, 1)")
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        for table in WATCHED:
            for operation in OPERATIONS:
                run(f"CREATE TRIGGER {sqlite_trigger(table, operation)} AFTER {operation} "
                    f"ON {table} BEGIN {BUMP[vendor]}; END")  # fmt: skip
    elif vendor == "postgresql":
        run(f"CREATE SEQUENCE {SEQUENCE} START 2")
        run(f"CREATE FUNCTION {PG_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN {BUMP[vendor]}; RETURN NULL; END $$")  # fmt: skip
        for table in WATCHED:
            run(f"CREATE TRIGGER {PG_FUNCTION} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE "
                f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION {PG_FUNCTION}()")  # fmt: skip
    # Any other database keeps the row at 1; the store then counts the tables instead.


def drop(apps, schema_editor):
    run = schema_editor.execute
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        for table in WATCHED:
            for operation in OPERATIONS:
                run(f"DROP TRIGGER IF EXISTS {sqlite_trigger(table, operation)}")
    elif vendor == "postgresql":
        for table in WATCHED:
            run(f"DROP TRIGGER IF EXISTS {PG_FUNCTION} ON {table}")
        run(f"DROP FUNCTION IF EXISTS {PG_FUNCTION}()")
        run(f"DROP SEQUENCE IF EXISTS {SEQUENCE}")
    run(f"DROP TABLE {TABLE}")


class Migration(migrations.Migration):
    dependencies = [("askapp", "0006_anonymous_visitors")]

    operations = [migrations.RunPython(create, drop)]

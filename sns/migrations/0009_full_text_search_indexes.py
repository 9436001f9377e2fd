"""Full-text search indexes (sns/search/engine.py, docs/api.md "Search").

PostgreSQL: pg_trgm and trigram GIN indexes on post content, user nicknames and
introductions, which serve `ILIKE '%term%'` for terms of three characters or more.
SQLite: an FTS5 table with the trigram tokenizer holding each post's content under the
post's id, kept in step with sns_post by triggers, so every write path (services,
admin, fixtures, raw SQL) updates it.
"""

from django.db import migrations

_PG_FORWARD = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS post_content_trgm_idx ON sns_post USING gin (content gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS user_nickname_trgm_idx ON sns_user USING gin (nickname gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS user_introduction_trgm_idx ON sns_user USING gin (introduction gin_trgm_ops)",
]
_PG_BACKWARD = [
    "DROP INDEX IF EXISTS post_content_trgm_idx",
    "DROP INDEX IF EXISTS user_nickname_trgm_idx",
    "DROP INDEX IF EXISTS user_introduction_trgm_idx",
]
_SQLITE_FORWARD = [
    "CREATE VIRTUAL TABLE IF NOT EXISTS sns_post_fts USING fts5(content, tokenize = 'trigram')",
    "INSERT INTO sns_post_fts (rowid, content) SELECT id, content FROM sns_post",
    """CREATE TRIGGER IF NOT EXISTS sns_post_fts_insert AFTER INSERT ON sns_post BEGIN
         INSERT INTO sns_post_fts (rowid, content) VALUES (new.id, new.content);
       END""",
    """CREATE TRIGGER IF NOT EXISTS sns_post_fts_update AFTER UPDATE OF id, content ON sns_post BEGIN
         DELETE FROM sns_post_fts WHERE rowid = old.id;
         INSERT INTO sns_post_fts (rowid, content) VALUES (new.id, new.content);
       END""",
    """CREATE TRIGGER IF NOT EXISTS sns_post_fts_delete AFTER DELETE ON sns_post BEGIN
         DELETE FROM sns_post_fts WHERE rowid = old.id;
       END""",
]
_SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS sns_post_fts_insert",
    "DROP TRIGGER IF EXISTS sns_post_fts_update",
    "DROP TRIGGER IF EXISTS sns_post_fts_delete",
    "DROP TABLE IF EXISTS sns_post_fts",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, ()):
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ("sns", "0008_publication_sites_and_views"),
    ]

    operations = [
        migrations.RunPython(
            _run({"postgresql": _PG_FORWARD, "sqlite": _SQLITE_FORWARD}),
            _run({"postgresql": _PG_BACKWARD, "sqlite": _SQLITE_BACKWARD}),
        ),
    ]

"""Keep only what the game needs (services/retention.py): an incoming mail's
raw text and a sent mail's bodies are blanked after their windows, and the
time they were is kept, so pages can say so and a moderator's retry never
sends an empty mail.  Partial indexes find what is still to purge without
reading what was purged already (both SQLite and PostgreSQL have them); a
purged row leaves them, so they stay small."""

from peewee import DateTimeField

INDEXES = (
    "CREATE INDEX IF NOT EXISTS outbox_body_kept ON outbox (sent_at)"
    " WHERE body_purged_at IS NULL AND sent_at IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS outbox_notice_age ON outbox (created_at)"
    " WHERE channel_id IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS inbound_mail_raw_kept ON inbound_mail (received_at)"
    " WHERE raw_purged_at IS NULL",
)


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("outbox", "body_purged_at", DateTimeField(null=True)),
        migrator.add_column("inbound_mail", "raw_purged_at", DateTimeField(null=True)),
    )
    for sql in INDEXES:
        db.execute_sql(sql)


def down(migrator, db):
    for name in ("outbox_body_kept", "outbox_notice_age", "inbound_mail_raw_kept"):
        db.execute_sql(f"DROP INDEX IF EXISTS {name}")
    migrator.migrate(
        migrator.drop_column("outbox", "body_purged_at"),
        migrator.drop_column("inbound_mail", "raw_purged_at"),
    )

"""Invitations held back by an address's daily limit: kept with the time
their one coalesced mail may go, and when it went (or they were dropped).
A partial index finds the ones still waiting without reading the others."""

from peewee import DateTimeField

INDEX = (
    "CREATE INDEX IF NOT EXISTS invitation_held ON invitation (held_until)"
    " WHERE held_until IS NOT NULL AND held_settled_at IS NULL"
)


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("invitation", "held_until", DateTimeField(null=True)),
        migrator.add_column("invitation", "held_settled_at", DateTimeField(null=True)),
    )
    db.execute_sql(INDEX)


def down(migrator, db):
    db.execute_sql("DROP INDEX IF EXISTS invitation_held")
    migrator.migrate(
        migrator.drop_column("invitation", "held_until"),
        migrator.drop_column("invitation", "held_settled_at"),
    )

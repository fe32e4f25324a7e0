"""A calendar address per player (revoked by bumping its version), what each
seat has seen of the moves played for it while away, and when a lobby's host
was reminded to start it."""

from peewee import DateTimeField, IntegerField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("account", "calendar_version", IntegerField(default=1)),
        migrator.add_column("seat", "away_seen_seq", IntegerField(default=0)),
        migrator.add_column("game", "lobby_reminded_at", DateTimeField(null=True)),
        migrator.add_column("game", "closed_at", DateTimeField(null=True)),
    )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_column("account", "calendar_version"),
        migrator.drop_column("seat", "away_seen_seq"),
        migrator.drop_column("game", "lobby_reminded_at"),
        migrator.drop_column("game", "closed_at"),
    )

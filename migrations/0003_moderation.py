"""Moderation: site moderators, pause time, withdrawn seats, and event rows
that are notes or undone moves (replay skips both)."""

from peewee import BooleanField, CharField, DateTimeField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("account", "is_moderator", BooleanField(default=False)),
        migrator.add_column("game", "paused_at", DateTimeField(null=True)),
        migrator.add_column("seat", "withdrawn", BooleanField(default=False)),
        migrator.add_column("event", "kind", CharField(default="move")),
        migrator.add_column("event", "undone", BooleanField(default=False)),
    )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_column("account", "is_moderator"),
        migrator.drop_column("game", "paused_at"),
        migrator.drop_column("seat", "withdrawn"),
        migrator.drop_column("event", "kind"),
        migrator.drop_column("event", "undone"),
    )

"""Bots at the table: the bot playing a seat, if any."""

from peewee import CharField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("seat", "bot", CharField(null=True, max_length=20)),
    )


def down(migrator, db):
    migrator.migrate(migrator.drop_column("seat", "bot"))

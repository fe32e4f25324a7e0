"""The language a player reads pbem in."""

from peewee import CharField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("account", "language", CharField(default="", max_length=8)),
    )


def down(migrator, db):
    migrator.migrate(migrator.drop_column("account", "language"))

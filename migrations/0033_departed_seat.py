"""What a game does with the seat of a player who deletes their account:
a bot plays it (the default) or it passes on each turn; the host's choice."""

from peewee import CharField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("game", "departed_seat", CharField(default="bot", max_length=10))
    )


def down(migrator, db):
    migrator.migrate(migrator.drop_column("game", "departed_seat"))

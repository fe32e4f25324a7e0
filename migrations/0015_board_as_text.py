"""A player may see the board as text only, without the drawing."""

from peewee import BooleanField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("account", "board_as_text", BooleanField(default=False)),
    )


def down(migrator, db):
    migrator.migrate(migrator.drop_column("account", "board_as_text"))

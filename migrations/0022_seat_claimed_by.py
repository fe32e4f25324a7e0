"""Who holds a seat's claim (host:pid:nonce): a scheduler that starts frees
the claims of its dead predecessors on the same host at once."""

from peewee import CharField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("seat", "claimed_by", CharField(default="", max_length=120)),
    )


def down(migrator, db):
    migrator.migrate(migrator.drop_column("seat", "claimed_by"))

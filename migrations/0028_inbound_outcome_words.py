"""What became of an incoming mail, kept as words as well as in English, so
that each moderator reads it in their own language."""

from peewee import TextField


def up(migrator, db):
    migrator.migrate(migrator.add_column("inbound_mail", "outcome_words", TextField(null=True)))


def down(migrator, db):
    migrator.migrate(migrator.drop_column("inbound_mail", "outcome_words"))

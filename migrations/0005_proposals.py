"""Proposals: a moderation action a host who plays asks the other players to
agree to (undo, another player's default move, removal, abandoning)."""

from peewee import CharField, DateTimeField, ForeignKeyField, IntegerField, Model, TextField


def up(migrator, db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class Game(Model):
        class Meta:
            database = db
            table_name = "game"

    class Proposal(Model):
        game = ForeignKeyField(Game, on_delete="CASCADE")
        action = CharField()
        params = TextField(default="{}")
        reason = TextField()
        proposer = ForeignKeyField(Account)
        seq = IntegerField()
        agreed = TextField(default="[]")
        status = CharField(default="open")
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "proposal"

    db.create_tables([Proposal])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("proposal"))

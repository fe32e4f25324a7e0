"""Replies held until their sender's own address confirms them."""

from peewee import DateTimeField, ForeignKeyField, IntegerField, Model, TextField


def up(migrator, db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class Game(Model):
        class Meta:
            database = db
            table_name = "game"

    class InboundMail(Model):
        class Meta:
            database = db
            table_name = "inbound_mail"

    class ReplyConfirmation(Model):
        game = ForeignKeyField(Game, on_delete="CASCADE")
        user = ForeignKeyField(Account, on_delete="CASCADE")
        kind = IntegerField()
        seat = IntegerField(default=-1)
        version = IntegerField()
        seq = IntegerField(default=-1)
        lines = TextField(default="[]")
        inbound = ForeignKeyField(InboundMail, null=True, on_delete="SET NULL")
        created_at = DateTimeField()
        used_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "reply_confirmation"
            indexes = ((("user", "created_at"), False),)

    db.create_tables([ReplyConfirmation])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("reply_confirmation"))

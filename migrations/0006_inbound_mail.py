"""Inbound mail: every reply that came in, raw, with what became of it."""

from peewee import CharField, DateTimeField, ForeignKeyField, Model, TextField


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
        message_id = CharField(unique=True)
        raw = TextField()
        from_addr = CharField(default="")
        to_addr = CharField(default="")
        subject = CharField(default="")
        via = CharField(default="")
        game = ForeignKeyField(Game, null=True, on_delete="SET NULL")
        user = ForeignKeyField(Account, null=True, on_delete="SET NULL")
        status = CharField(default="received")
        outcome = TextField(default="")
        received_at = DateTimeField(index=True)

        class Meta:
            database = db
            table_name = "inbound_mail"

    db.create_tables([InboundMail])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("inbound_mail"))

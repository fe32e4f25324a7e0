"""Chat and push notifications beside mail: a player's own
channels and a game's table channel; an outbox row may go to a channel
instead of an address, and a seat may let the table channel replace its turn
mails."""

from peewee import (
    BooleanField,
    CharField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    Model,
    TextField,
)


def _tables(db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class Game(Model):
        class Meta:
            database = db
            table_name = "game"

    class NotifyChannel(Model):
        user = ForeignKeyField(Account, on_delete="CASCADE")
        game = ForeignKeyField(Game, null=True, on_delete="CASCADE")
        scheme = CharField(max_length=20)
        masked = CharField(max_length=300)
        sealed_url = TextField()
        sealed_signing_key = TextField(default="")
        destination = CharField(max_length=64, index=True)
        events = TextField(default="[]")
        quiet_from = IntegerField(null=True)
        quiet_until = IntegerField(null=True)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "notify_channel"

    return Account, NotifyChannel


def up(migrator, db):
    Account, NotifyChannel = _tables(db)
    db.create_tables([NotifyChannel])
    migrator.migrate(
        migrator.add_column("seat", "table_channel_only", BooleanField(default=False)),
        migrator.add_column(
            "outbox",
            "channel_id",
            ForeignKeyField(NotifyChannel, null=True, on_delete="CASCADE", field=NotifyChannel.id),
        ),
        migrator.add_column(
            "outbox",
            "recipient_id",
            ForeignKeyField(Account, null=True, on_delete="SET NULL", field=Account.id),
        ),
    )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_index("outbox", "outbox_recipient_id"),
        migrator.drop_index("outbox", "outbox_channel_id"),
        migrator.drop_column("outbox", "recipient_id"),
        migrator.drop_column("outbox", "channel_id"),
        migrator.drop_column("seat", "table_channel_only"),
        migrator.drop_table("notify_channel"),
    )

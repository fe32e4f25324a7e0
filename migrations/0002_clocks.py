"""Clocks: turn start, claims, timeouts and absence on seats; time zone and mail
preferences on accounts; extra mail headers; vacations."""

from peewee import (
    BooleanField,
    CharField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    Model,
    TextField,
)


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("account", "timezone", CharField(default="UTC")),
        migrator.add_column("account", "mail_mode", CharField(default="every")),
        migrator.add_column("account", "optional_mail", BooleanField(default=True)),
        migrator.add_column("account", "next_digest_at", DateTimeField(null=True)),
        migrator.add_index("account", ("next_digest_at",), False),
        migrator.add_column("seat", "turn_started_at", DateTimeField(null=True)),
        migrator.add_column("seat", "claimed_until", DateTimeField(null=True)),
        migrator.add_column("seat", "timeouts_in_row", IntegerField(default=0)),
        migrator.add_column("seat", "absent", BooleanField(default=False)),
        migrator.add_column("outbox", "headers", TextField(default="{}")),
    )

    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class Vacation(Model):
        user = ForeignKeyField(Account, on_delete="CASCADE")
        starts_at = DateTimeField(index=True)
        ends_at = DateTimeField()
        started = BooleanField(default=False)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "vacation"

    db.create_tables([Vacation])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("vacation"))
    migrator.migrate(
        migrator.drop_index("account", "account_next_digest_at"),
        migrator.drop_column("account", "timezone"),
        migrator.drop_column("account", "mail_mode"),
        migrator.drop_column("account", "optional_mail"),
        migrator.drop_column("account", "next_digest_at"),
        migrator.drop_column("seat", "turn_started_at"),
        migrator.drop_column("seat", "claimed_until"),
        migrator.drop_column("seat", "timeouts_in_row"),
        migrator.drop_column("seat", "absent"),
        migrator.drop_column("outbox", "headers"),
    )

"""Mail you can trust: an outbox row knows the turn it tells its
player about and whether the seat's clock waits for it, and on whose behalf
it goes out; what one address got lately is counted by an index."""

from peewee import BooleanField, DateTimeField, ForeignKeyField, Model


def up(migrator, db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    migrator.migrate(
        migrator.add_column("outbox", "turn_of", DateTimeField(null=True)),
        migrator.add_column("outbox", "holds_clock", BooleanField(default=False)),
        migrator.add_column(
            "outbox",
            "author_id",
            ForeignKeyField(Account, null=True, on_delete="SET NULL", field=Account.id),
        ),
        migrator.add_index("outbox", ("to_addr", "created_at"), False),
    )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_index("outbox", "outbox_to_addr_created_at"),
        migrator.drop_index("outbox", "outbox_author_id"),
        migrator.drop_column("outbox", "author_id"),
        migrator.drop_column("outbox", "holds_clock"),
        migrator.drop_column("outbox", "turn_of"),
    )

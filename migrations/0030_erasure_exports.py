"""Leaving with one's data: when an account was deleted (its row stays,
under a pseudonym, for the records that point to it), and the archives of
a player's data built in the background and fetched through a signed link."""

from peewee import BlobField, CharField, DateTimeField, ForeignKeyField, IntegerField, Model


def _tables(db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class DataExport(Model):
        user = ForeignKeyField(Account, on_delete="CASCADE")
        status = CharField(default="queued", max_length=12)
        requested_at = DateTimeField(index=True)
        ready_at = DateTimeField(null=True)
        archive = BlobField(null=True)
        size = IntegerField(default=0)

        class Meta:
            database = db
            table_name = "data_export"

    return (DataExport,)


def up(migrator, db):
    migrator.migrate(migrator.add_column("account", "erased_at", DateTimeField(null=True)))
    db.create_tables(_tables(db))


def down(migrator, db):
    migrator.migrate(
        migrator.drop_table("data_export"),
        migrator.drop_column("account", "erased_at"),
    )

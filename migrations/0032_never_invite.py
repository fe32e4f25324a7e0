"""Addresses that asked never to be invited here again: only a
hash of the address is kept, so the list names nobody."""

from peewee import CharField, DateTimeField, Model


def _table(db):
    class NeverInvite(Model):
        address_hash = CharField(max_length=64, unique=True)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "never_invite"

    return NeverInvite


def up(migrator, db):
    db.create_tables([_table(db)])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("never_invite"))

"""Verified addresses: when an account's address was confirmed.

Accounts made before this migration signed up when no confirmation existed;
they keep working (their address counts as confirmed when they were made),
or every player of a running game would stop getting turn mails at once."""

from peewee import DateTimeField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("account", "email_verified_at", DateTimeField(null=True)),
    )
    db.execute_sql("UPDATE account SET email_verified_at = created_at")


def down(migrator, db):
    migrator.migrate(migrator.drop_column("account", "email_verified_at"))

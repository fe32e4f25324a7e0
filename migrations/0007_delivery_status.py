"""Delivery you can see: outbox rows are queued, deferred, sent, bounced or
failed, with the SMTP server's answer; claims are short leases with a holder;
a seat's clock can stand still while its turn mail does not get through."""

from peewee import BooleanField, CharField, DateTimeField, TextField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("outbox", "claimed_by", CharField(default="")),
        migrator.add_column("outbox", "smtp_reply", TextField(default="")),
        migrator.add_column("outbox", "bounced_at", DateTimeField(null=True)),
        migrator.add_column("outbox", "permanent", BooleanField(default=False)),
        migrator.add_column("seat", "mail_hold_since", DateTimeField(null=True)),
    )
    db.execute_sql("UPDATE outbox SET status = 'queued' WHERE status = 'pending'")


def down(migrator, db):
    db.execute_sql("UPDATE outbox SET status = 'pending' WHERE status IN ('queued', 'deferred')")
    db.execute_sql("UPDATE outbox SET status = 'failed' WHERE status = 'bounced'")
    migrator.migrate(
        migrator.drop_column("outbox", "claimed_by"),
        migrator.drop_column("outbox", "smtp_reply"),
        migrator.drop_column("outbox", "bounced_at"),
        migrator.drop_column("outbox", "permanent"),
        migrator.drop_column("seat", "mail_hold_since"),
    )

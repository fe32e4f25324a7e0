"""The clock guard: a heartbeat per kind of process (the outage guard reads
it), and per seat when its player was last reminded of the pending turn
(no timeout without a warning)."""

from peewee import CharField, DateTimeField, Model


def up(migrator, db):
    class Heartbeat(Model):
        name = CharField(unique=True)
        beat_at = DateTimeField()

        class Meta:
            database = db
            table_name = "heartbeat"

    db.create_tables([Heartbeat])
    migrator.migrate(migrator.add_column("seat", "reminded_at", DateTimeField(null=True)))


def down(migrator, db):
    migrator.migrate(migrator.drop_column("seat", "reminded_at"))
    migrator.migrate(migrator.drop_table("heartbeat"))

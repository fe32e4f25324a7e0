"""First schema: accounts, games, seats, invitations, event log, snapshots, outbox.

Tables are declared here as frozen copies, independent of server/models.py,
so that this file keeps creating the same schema whatever the models become.
"""

from peewee import (
    BigIntegerField,
    BooleanField,
    CharField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    Model,
    TextField,
)


def up(migrator, db):
    class Account(Model):
        email = CharField(unique=True)
        name = CharField()
        password_hash = CharField()
        session_token = CharField()
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "account"

    class Game(Model):
        kind = CharField()
        name = CharField()
        host = ForeignKeyField(Account)
        status = CharField(index=True, default="open")
        seat_count = IntegerField()
        options = TextField()
        seed = BigIntegerField()
        seq = IntegerField(default=0)
        to_move = IntegerField(null=True)
        prompt = CharField(default="")
        move_hours = IntegerField()
        reminder_hours = TextField()
        paused = BooleanField(default=False)
        join_version = IntegerField(default=1)
        thread_id = CharField()
        outcome = TextField(null=True)
        created_at = DateTimeField()
        started_at = DateTimeField(null=True)
        finished_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "game"

    class Seat(Model):
        game = ForeignKeyField(Game, on_delete="CASCADE")
        index = IntegerField()
        user = ForeignKeyField(Account, null=True)
        link_version = IntegerField(default=1)
        last_move_seq = IntegerField(default=0)
        deadline = DateTimeField(index=True, null=True)
        next_reminder_at = DateTimeField(index=True, null=True)
        joined_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "seat"
            indexes = ((("game", "index"), True), (("game", "user"), True))

    class Invitation(Model):
        game = ForeignKeyField(Game, on_delete="CASCADE")
        email = CharField()
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "invitation"

    class Event(Model):
        game = ForeignKeyField(Game, on_delete="CASCADE")
        seq = IntegerField()
        seat = IntegerField(null=True)
        action = TextField()
        actor = CharField()
        user = ForeignKeyField(Account, null=True)
        events = TextField()
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "event"
            indexes = ((("game", "seq"), True),)

    class Snapshot(Model):
        game = ForeignKeyField(Game, primary_key=True, on_delete="CASCADE")
        seq = IntegerField()
        state_version = IntegerField()
        state = TextField()
        updated_at = DateTimeField()

        class Meta:
            database = db
            table_name = "snapshot"

    class Outbox(Model):
        game = ForeignKeyField(Game, null=True, on_delete="SET NULL")
        kind = CharField()
        to_addr = CharField()
        subject = CharField()
        body_text = TextField()
        body_html = TextField()
        message_id = CharField(unique=True)
        in_reply_to = CharField(default="")
        references = CharField(default="")
        status = CharField(default="pending")
        attempts = IntegerField(default=0)
        next_attempt_at = DateTimeField()
        claimed_until = DateTimeField(null=True)
        last_error = TextField(default="")
        created_at = DateTimeField()
        sent_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "outbox"
            indexes = ((("status", "next_attempt_at"), False),)

    db.create_tables([Account, Game, Seat, Invitation, Event, Snapshot, Outbox])


def down(migrator, db):
    for table in ("outbox", "snapshot", "event", "invitation", "seat", "game", "account"):
        migrator.migrate(migrator.drop_table(table))

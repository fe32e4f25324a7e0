"""Table talk: players' messages to the table, and per seat the newest one
that rode along in a mail."""

from peewee import BooleanField, DateTimeField, ForeignKeyField, IntegerField, Model, TextField


def up(migrator, db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class Game(Model):
        class Meta:
            database = db
            table_name = "game"

    class TableMessage(Model):
        game = ForeignKeyField(Game, on_delete="CASCADE")
        user = ForeignKeyField(Account)
        seat = IntegerField()
        text = TextField()
        created_at = DateTimeField()
        hidden = BooleanField(default=False)
        hidden_reason = TextField(default="")

        class Meta:
            database = db
            table_name = "table_message"
            indexes = ((("game", "id"), False),)

    db.create_tables([TableMessage])
    migrator.migrate(migrator.add_column("seat", "talk_seen_id", IntegerField(default=0)))


def down(migrator, db):
    migrator.migrate(migrator.drop_column("seat", "talk_seen_id"))
    migrator.migrate(migrator.drop_table("table_message"))

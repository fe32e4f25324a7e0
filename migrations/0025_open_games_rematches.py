"""Finding a game: a lobby may be listed among the open games, and says the
language its table speaks; players of a finished game may agree to a rematch.

Games made before are not listed (their hosts invited people) and speak
their host's language."""

from peewee import BooleanField, CharField, DateTimeField, ForeignKeyField, Model, TextField


def _tables(db):
    class Account(Model):
        language = CharField()

        class Meta:
            database = db
            table_name = "account"

    class Game(Model):
        host = ForeignKeyField(Account)
        language = CharField()

        class Meta:
            database = db
            table_name = "game"

    class Rematch(Model):
        game = ForeignKeyField(Game, on_delete="CASCADE")
        proposer = ForeignKeyField(Account)
        asked = TextField(default="[]")
        agreed = TextField(default="[]")
        status = CharField(default="open")
        new_game = ForeignKeyField(Game, null=True, backref="+", on_delete="SET NULL")
        created_at = DateTimeField()
        expires_at = DateTimeField(index=True)
        ended_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "rematch"

    return Account, Game, Rematch


def up(migrator, db):
    Account, Game, Rematch = _tables(db)
    migrator.migrate(
        migrator.add_column("game", "public", BooleanField(default=False)),
        migrator.add_column("game", "language", CharField(default="", max_length=8)),
    )
    db.create_tables([Rematch])
    for host in Account.select(Account.id, Account.language).where(Account.language != ""):
        Game.update(language=host.language).where(Game.host == host.id).execute()


def down(migrator, db):
    migrator.migrate(
        migrator.drop_table("rematch"),
        migrator.drop_column("game", "language"),
        migrator.drop_column("game", "public"),
    )

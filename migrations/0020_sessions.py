"""Sessions kept on the server (a copied cookie dies with its sign-out) and
the rate-limit counters every web worker shares."""

from peewee import CharField, DateTimeField, FloatField, ForeignKeyField, IntegerField, Model


def up(migrator, db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class BrowserSession(Model):
        key = CharField(unique=True, max_length=64)
        user = ForeignKeyField(Account, null=True, on_delete="CASCADE")
        created_at = DateTimeField(index=True)

        class Meta:
            database = db
            table_name = "browser_session"

    class RateCount(Model):
        key = CharField(unique=True, max_length=255)
        count = IntegerField(default=0)
        expires_at = FloatField(index=True)

        class Meta:
            database = db
            table_name = "rate_count"

    db.create_tables([BrowserSession, RateCount])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("rate_count"), migrator.drop_table("browser_session"))

"""Sign-ups for an unconfirmed address after the first: each waits in its own
row until its link is confirmed, so the account is never changed by someone
who only typed the address."""

from peewee import CharField, DateTimeField, ForeignKeyField, Model


def _table(db, account):
    class SignUpAttempt(Model):
        user = ForeignKeyField(account, on_delete="CASCADE")
        name = CharField()
        password_hash = CharField()
        language = CharField(default="", max_length=8)
        timezone = CharField(default="UTC")
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "sign_up_attempt"

    return SignUpAttempt


def _account(db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    return Account


def up(migrator, db):
    db.create_tables([_table(db, _account(db))])


def down(migrator, db):
    migrator.migrate(migrator.drop_table("sign_up_attempt"))

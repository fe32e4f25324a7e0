"""The open API: personal access tokens (stored as hashes, with scopes, an
expiry and a last-used time), accounts marked as bots, and the record of
moderators' actions on accounts (who marked a bot, when, why)."""

from peewee import (
    BooleanField,
    CharField,
    DateTimeField,
    ForeignKeyField,
    Model,
    TextField,
)


def _tables(db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class ApiToken(Model):
        user = ForeignKeyField(Account, on_delete="CASCADE")
        name = CharField(max_length=60)
        token_hash = CharField(unique=True, max_length=64)
        scopes = TextField(default="[]")
        created_at = DateTimeField()
        expires_at = DateTimeField()
        last_used_at = DateTimeField(null=True)
        revoked_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "api_token"

    class AccountNote(Model):
        user = ForeignKeyField(Account, on_delete="CASCADE")
        moderator = ForeignKeyField(Account, null=True, on_delete="SET NULL")
        action = CharField(max_length=20)
        reason = TextField(default="")
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "account_note"

    return ApiToken, AccountNote


def up(migrator, db):
    migrator.migrate(migrator.add_column("account", "is_bot", BooleanField(default=False)))
    db.create_tables(_tables(db))


def down(migrator, db):
    migrator.migrate(
        migrator.drop_table("account_note"),
        migrator.drop_table("api_token"),
        migrator.drop_column("account", "is_bot"),
    )

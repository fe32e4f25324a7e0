"""Clubs: a club with its members, their requests to join and
the record of who joined, left or was removed; a game may be made for a club."""

from peewee import (
    BooleanField,
    CharField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    Model,
    TextField,
)


def _tables(db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class Club(Model):
        name = CharField(max_length=60)
        name_key = CharField(max_length=60, unique=True)
        slug = CharField(max_length=64, unique=True)
        description = TextField(default="")
        languages = TextField(default="[]")
        invite_only = BooleanField(default=False)
        founder = ForeignKeyField(Account, null=True, on_delete="SET NULL")
        invite_version = IntegerField(default=1)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "club"

    class ClubMember(Model):
        club = ForeignKeyField(Club, on_delete="CASCADE")
        user = ForeignKeyField(Account, on_delete="CASCADE")
        role = CharField(default="member", max_length=10)
        joined_at = DateTimeField()

        class Meta:
            database = db
            table_name = "club_member"
            indexes = ((("club", "user"), True),)

    class ClubRequest(Model):
        club = ForeignKeyField(Club, on_delete="CASCADE")
        user = ForeignKeyField(Account, on_delete="CASCADE")
        status = CharField(default="open", max_length=10)
        created_at = DateTimeField()
        decided_by = ForeignKeyField(Account, null=True, backref="+", on_delete="SET NULL")
        decided_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "club_request"
            indexes = ((("club", "status"), False),)

    class ClubRecord(Model):
        club = ForeignKeyField(Club, on_delete="CASCADE")
        user = ForeignKeyField(Account, null=True, backref="+", on_delete="SET NULL")
        actor = ForeignKeyField(Account, null=True, backref="+", on_delete="SET NULL")
        action = CharField(max_length=12)
        how = CharField(default="", max_length=12)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "club_record"
            indexes = ((("club", "id"), False),)

    return Club, ClubMember, ClubRequest, ClubRecord


def up(migrator, db):
    tables = _tables(db)
    db.create_tables(tables)
    club = tables[0]
    migrator.migrate(
        migrator.add_column(
            "game", "club_id", ForeignKeyField(club, null=True, field=club.id, on_delete="SET NULL")
        ),
    )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_index("game", "game_club_id"),
        migrator.drop_column("game", "club_id"),
        migrator.drop_table("club_record"),
        migrator.drop_table("club_request"),
        migrator.drop_table("club_member"),
        migrator.drop_table("club"),
    )

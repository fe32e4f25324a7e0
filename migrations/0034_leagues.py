"""Leagues: a series of rounds of one game, its players split into tables
each round (services/leagues.py); each table of a round is a game."""

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


def _tables(db):
    class Account(Model):
        class Meta:
            database = db
            table_name = "account"

    class Club(Model):
        class Meta:
            database = db
            table_name = "club"

    class Game(Model):
        class Meta:
            database = db
            table_name = "game"

    class League(Model):
        name = CharField(max_length=60)
        name_key = CharField(max_length=60, unique=True)
        club = ForeignKeyField(Club, null=True, on_delete="SET NULL")
        club_only = BooleanField(default=False)
        creator = ForeignKeyField(Account, null=True, on_delete="SET NULL")
        kind = CharField()
        options = TextField(default="{}")
        move_hours = IntegerField()
        clock_policy = CharField(default="always")
        format = CharField(default="round_robin", max_length=12)
        rounds = IntegerField()
        max_players = IntegerField()
        table_min = IntegerField()
        table_max = IntegerField()
        starts_at = DateTimeField()
        round_start = CharField(default="all_at_once", max_length=12)
        same_deal = BooleanField(default=False)
        dropout = CharField(default="autopass", max_length=10)
        seed = BigIntegerField()
        state = CharField(default="open", max_length=10)
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "league"

    class LeagueMember(Model):
        league = ForeignKeyField(League, on_delete="CASCADE")
        user = ForeignKeyField(Account, on_delete="CASCADE")
        joined_at = DateTimeField()
        dropped_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "league_member"
            indexes = ((("league", "user"), True),)

    class LeagueRound(Model):
        league = ForeignKeyField(League, on_delete="CASCADE")
        number = IntegerField()
        seed = BigIntegerField()
        state = CharField(default="playing", max_length=10)
        started_at = DateTimeField()
        ended_at = DateTimeField(null=True)

        class Meta:
            database = db
            table_name = "league_round"
            indexes = ((("league", "number"), True),)

    class LeagueTable(Model):
        round = ForeignKeyField(LeagueRound, on_delete="CASCADE")
        number = IntegerField()
        players = TextField(default="[]")
        game = ForeignKeyField(Game, null=True, unique=True, on_delete="SET NULL")

        class Meta:
            database = db
            table_name = "league_table"
            indexes = ((("round", "number"), True),)

    return League, LeagueMember, LeagueRound, LeagueTable


def up(migrator, db):
    db.create_tables(_tables(db))


def down(migrator, db):
    migrator.migrate(
        migrator.drop_table("league_table"),
        migrator.drop_table("league_round"),
        migrator.drop_table("league_member"),
        migrator.drop_table("league"),
    )

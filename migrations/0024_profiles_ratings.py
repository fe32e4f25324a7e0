"""Profiles and ratings: what a player's profile shows (their choice), the
languages they play in, a host's private games, and a rating per player and
game kind with the change each rated game made.

Games that ended before are not rated here: `pbem ratings-rebuild` rates
every finished game in order (README, Ratings)."""

from peewee import (
    BooleanField,
    CharField,
    DateTimeField,
    FloatField,
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

    class Game(Model):
        class Meta:
            database = db
            table_name = "game"

    class PlayerRating(Model):
        user = ForeignKeyField(Account, on_delete="CASCADE")
        kind = CharField(max_length=40)
        mu = FloatField()
        sigma = FloatField()
        games = IntegerField(default=0)
        updated_at = DateTimeField()

        class Meta:
            database = db
            table_name = "player_rating"
            indexes = ((("user", "kind"), True), (("kind", "games"), False))

    class RatingChange(Model):
        game = ForeignKeyField(Game, on_delete="CASCADE")
        user = ForeignKeyField(Account, on_delete="CASCADE")
        kind = CharField(max_length=40)
        rank = IntegerField()
        mu_before = FloatField()
        sigma_before = FloatField()
        mu_after = FloatField()
        sigma_after = FloatField()
        created_at = DateTimeField()

        class Meta:
            database = db
            table_name = "rating_change"
            indexes = ((("game", "user"), True), (("user", "kind"), False))

    return PlayerRating, RatingChange


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("account", "languages", TextField(default="[]")),
        migrator.add_column("account", "show_languages", BooleanField(default=True)),
        migrator.add_column("account", "show_playing", BooleanField(default=True)),
        migrator.add_column("account", "show_finished", BooleanField(default=True)),
        migrator.add_column("account", "show_ratings", BooleanField(default=True)),
        migrator.add_column("game", "private", BooleanField(default=False)),
        migrator.add_column("game", "rating", CharField(default="", max_length=12)),
    )
    db.create_tables(list(_tables(db)))


def down(migrator, db):
    migrator.migrate(
        migrator.drop_table("rating_change"),
        migrator.drop_table("player_rating"),
        *(
            migrator.drop_column("account", c)
            for c in (
                "languages",
                "show_languages",
                "show_playing",
                "show_finished",
                "show_ratings",
            )
        ),
        migrator.drop_column("game", "private"),
        migrator.drop_column("game", "rating"),
    )

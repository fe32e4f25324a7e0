"""Clocks on the players' own time: per game, when its clock stops (weekends,
a night window, in each seat's zone); per player, when reminders come, quiet
hours and the hour of the digest."""

from peewee import CharField, IntegerField, TextField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("game", "clock_policy", CharField(default="always")),
        migrator.add_column("game", "night_from", IntegerField(default=23)),
        migrator.add_column("game", "night_until", IntegerField(default=7)),
        migrator.add_column("account", "reminder_hours", TextField(null=True)),
        migrator.add_column("account", "quiet_from", IntegerField(null=True)),
        migrator.add_column("account", "quiet_until", IntegerField(null=True)),
        migrator.add_column("account", "digest_hour", IntegerField(null=True)),
    )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_column("game", "clock_policy"),
        migrator.drop_column("game", "night_from"),
        migrator.drop_column("game", "night_until"),
        migrator.drop_column("account", "reminder_hours"),
        migrator.drop_column("account", "quiet_from"),
        migrator.drop_column("account", "quiet_until"),
        migrator.drop_column("account", "digest_hour"),
    )

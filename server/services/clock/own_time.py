"""One seat's clock on its player's own time: the game's clock policy
(running_hours) judged in the seat's time zone, and the player's own mail
schedule (mail_hours).  clocks, moderation and the game page ask here so
that deadlines, reminders and "time left" agree.

``game_hours`` is the game's reminder schedule (deadlines.reminder_hours),
passed in so this module needs nothing from clocks.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from engine.words import Words, msg, nmsg
from server.models import Game, User
from server.services.clock import mail_hours
from server.services.clock import running_hours as cal

HOUR = dt.timedelta(hours=1)


def game_policy(game: Game) -> cal.Policy:
    try:
        return cal.policy(game.clock_policy, game.night_from, game.night_until)
    except ValueError:  # only the form and create_game write it, both checked
        return cal.Policy()


def policy_text(game: Game) -> Words:
    return cal.describe(game_policy(game))


def seat_zone(user: User | None) -> ZoneInfo:
    return cal.zone(user.timezone if user is not None else "UTC")


def deadline_from(game: Game, user: User | None, begins: dt.datetime, hours: float) -> dt.datetime:
    """When ``hours`` of this seat's clock time have run from ``begins``."""
    return cal.advance(begins, hours * HOUR, game_policy(game), seat_zone(user))


def time_left(
    game: Game, user: User | None, deadline: dt.datetime | None, now: dt.datetime
) -> dt.timedelta | None:
    if deadline is None:
        return None
    return cal.running_between(now, deadline, game_policy(game), seat_zone(user))


def left_text(left: dt.timedelta) -> Words:
    """ "1 day 4 h 05 min": clock time left, to the minute (rounded down)."""
    minutes = int(left.total_seconds() // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    text = msg("%(hours)s h %(minutes)s min", hours=hours, minutes=f"{minutes:02d}")
    if not days:
        return text
    return nmsg("%(n)s day %(time)s", "%(n)s days %(time)s", days, time=text)


def status_text(
    game: Game, user: User | None, deadline: dt.datetime | None, now: dt.datetime
) -> Words | str:
    """For the game page: the clock time the seat to move has left."""
    left = time_left(game, user, deadline, now)
    if left is None:
        return ""
    if left and not clock_runs(game, user, now):
        return msg(
            "%(left)s of clock time left (the clock stands still now: it is night or "
            "weekend for this player)",
            left=left_text(left),
        )
    return msg("%(left)s of clock time left", left=left_text(left))


def rezoned(
    game: Game, old_zone: str, user: User, deadline: dt.datetime, now: dt.datetime
) -> dt.datetime:
    """The deadline of a seat whose player moved to another zone: the clock
    time left stays, the nights and weekends to come are the new zone's."""
    p = game_policy(game)
    left = cal.running_between(now, deadline, p, cal.zone(old_zone))
    return cal.advance(now, left, p, seat_zone(user))


def clock_runs(game: Game, user: User | None, now: dt.datetime) -> bool:
    return cal.runs_at(now, game_policy(game), seat_zone(user))


def after_stop(
    game: Game,
    user: User | None,
    deadline: dt.datetime,
    stopped_from: dt.datetime,
    stopped_to: dt.datetime,
) -> dt.datetime:
    """The deadline once the clock stood still from ``stopped_from`` to
    ``stopped_to``: the same clock time left (running_hours.after_stop)."""
    return cal.after_stop(deadline, stopped_from, stopped_to, game_policy(game), seat_zone(user))


def reminders(
    game: Game,
    user: User | None,
    deadline: dt.datetime,
    floor: dt.datetime,
    game_hours: list[float],
) -> list[dt.datetime]:
    """The seat's reminder times from ``floor`` on, earliest first: the
    player's own hours (else the game's), moved out of their quiet hours."""
    own = user.reminder_hours if user is not None else None
    hours = mail_hours.seat_hours(own, game_hours, game.move_hours)
    quiet = quiet_of(user)
    return mail_hours.reminder_times(
        deadline, hours, floor, game_policy(game), seat_zone(user), quiet
    )


def first_reminder(
    game: Game,
    user: User | None,
    deadline: dt.datetime,
    floor: dt.datetime,
    game_hours: list[float],
) -> dt.datetime | None:
    """The first reminder of a clock that (re)starts at ``floor``."""
    upcoming = reminders(game, user, deadline, floor, game_hours)
    return upcoming[0] if upcoming else None


def next_reminder(
    game: Game,
    user: User | None,
    deadline: dt.datetime | None,
    floor: dt.datetime,
    after: dt.datetime,
    game_hours: list[float],
) -> dt.datetime | None:
    """The first reminder due later than ``after``."""
    if deadline is None:
        return None
    return next((t for t in reminders(game, user, deadline, floor, game_hours) if t > after), None)


def quiet_of(user: User | None) -> cal.Policy | None:
    if user is None:
        return None
    try:
        return mail_hours.quiet_hours(user.quiet_from, user.quiet_until)
    except ValueError:  # only Settings writes it, checked there
        return None


def digest_hour(user: User, site_hour: int) -> int:
    return site_hour if user.digest_hour is None else user.digest_hour

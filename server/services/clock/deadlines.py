"""Turn clocks: deadlines, reminders, absence and vacations.

All times are naive UTC datetimes computed here in Python (never with the
database's now()), and every function takes ``now`` so tests can call it with
any time.
"""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo, available_timezones

from babel.dates import format_date, format_time

from engine.words import N_, msg
from server.db import Prepared
from server.i18n import DEFAULT, known, translate
from server.models import Game, Seat, User, Vacation
from server.services.clock import mail_hours, own_time, running_hours

HOUR = dt.timedelta(hours=1)
_REMINDER_ITEM = re.compile(r"^\s*(half|\d+(?:\.\d+)?)\s*$", re.IGNORECASE)


# -- reminder schedules ---------------------------------------------------
def parse_reminders(text: str, move_hours: int) -> list[float]:
    """ "half,6" -> hours before the deadline: halfway, and 6 hours before.

    Raises ValueError with a message for the form on anything else."""
    hours = set()
    for item in filter(str.strip, (text or "").split(",")):
        m = _REMINDER_ITEM.match(item)
        if not m:
            raise ValueError(
                msg("'%(item)s' is neither 'half' nor a number of hours", item=item.strip())
            )
        value = move_hours / 2 if m.group(1).lower() == "half" else float(m.group(1))
        if not 0 < value < move_hours:
            raise ValueError(
                msg(
                    "a reminder %(hours)s hours before the deadline does not fit in %(move)s hours",
                    hours=f"{value:g}",
                    move=move_hours,
                )
            )
        hours.add(int(value) if value == int(value) else value)
    return sorted(hours, reverse=True)


def reminder_hours(game: Game) -> list[float]:
    """The game's reminder schedule; a game made without one still reminds
    once, halfway: nobody times out without a warning."""
    return list(game.reminder_hours) or [game.move_hours / 2]


def reminder_times(
    deadline: dt.datetime, hours_before: list[float], now: dt.datetime
) -> list[dt.datetime]:
    """The reminders still to come, earliest first."""
    return sorted(t for t in (deadline - h * HOUR for h in hours_before) if t > now)


# -- time zones -------------------------------------------------------------
def zone(name: str) -> ZoneInfo:
    return running_hours.zone(name)


def zone_names() -> list[str]:
    return sorted(z for z in available_timezones() if "/" in z or z == "UTC")


def local_text(when: dt.datetime | None, tzname: str = "UTC", language: str | None = None) -> str:
    """A UTC time as the reader reads it: "2026-11-25 15:00 Europe/Amsterdam"."""
    if when is None:
        return translate(language, N_("no deadline"))
    local = when.replace(tzinfo=dt.UTC).astimezone(zone(tzname))
    # Babel says the day and month in the reader's language ("vrijdag 27
    # november 2026").
    locale = known(language) or DEFAULT
    day = format_date(local, "full", locale=locale)
    return translate(
        language,
        N_("%(day)s, %(time)s (%(zone)s)"),
        {"day": day, "time": format_time(local, "HH:mm", locale=locale), "zone": tzname},
    )


# -- vacations --------------------------------------------------------------
def vacation_at(user_id: int, when: dt.datetime) -> Vacation | None:
    return VACATION_AT.first(user_id, when)


# Asked at every turn that starts and on a player's game page.
VACATION_AT = Prepared(
    lambda user_id, when: (
        Vacation.select()
        .where(
            (Vacation.user == user_id) & (Vacation.starts_at <= when) & (Vacation.ends_at > when)
        )
        .limit(1)
    ),
    kinds=(int, dt.datetime),
)


def shift_pending(user_id: int, delta: dt.timedelta, now: dt.datetime) -> int:
    """Stop the clocks of a user's pending turns for ``delta`` from now (a
    vacation begins), or, with a negative ``delta``, end such a stop that
    was to last until ``now - delta`` now ("I'm back" early).  Each keeps
    the clock time it had left (running_hours.after_stop)."""
    stop = (now, now + delta) if delta >= dt.timedelta(0) else (now - delta, now)
    user = User.get_or_none(User.id == user_id)
    moved = 0
    pending = (
        Seat.select(Seat, Game)
        .join(Game)
        .where((Seat.user == user_id) & Seat.deadline.is_null(False))
    )
    for seat in pending:
        if seat.deadline is None:  # never: the query wants one
            continue
        game = seat.game
        seat.deadline = max(now, own_time.after_stop(game, user, seat.deadline, *stop))
        if seat.next_reminder_at is not None:  # None: all of this turn's went out
            seat.next_reminder_at = own_time.first_reminder(
                game, user, seat.deadline, max(now, stop[1]), reminder_hours(game)
            )
        seat.save(only=[Seat.deadline, Seat.next_reminder_at])
        moved += 1
    return moved


def next_reminder_after(game: Game, seat: Seat, now: dt.datetime) -> dt.datetime | None:
    user = seat.user if seat.user_id else None
    return own_time.next_reminder(
        game, user, seat.deadline, seat.turn_started_at or now, now, reminder_hours(game)
    )


# A move by the player themself: they are here, the timeout count restarts
# and a bot that played for them stops (services/bot_seats.py).
PLAYER_BACK = {"timeouts_in_row": 0, "absent": False, "bot": None}


def next_digest_time(user: User, now: dt.datetime, hour: int) -> dt.datetime:
    """The next digest in the user's zone, as naive UTC: at their own hour,
    else at ``hour`` (DIGEST_HOUR)."""
    return mail_hours.next_digest_time(
        now, zone(user.timezone), own_time.digest_hour(user, hour), own_time.quiet_of(user)
    )

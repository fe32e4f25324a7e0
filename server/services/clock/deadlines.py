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
from server.db import locked as db_locked
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


# -- the clock of one turn -------------------------------------------------
def start_turn(game: Game, seat: Seat, now: dt.datetime) -> None:
    """The seat's turn begins now: set its deadline and first reminder.

    An absent or withdrawn seat (moderation.is_autopass) or a bot's seat is
    due at once (the scheduler plays it); a
    player on vacation gets the full time after the vacation ends (the clock
    stands still meanwhile)."""
    seat.turn_started_at = now
    if seat.absent or seat.withdrawn or seat.bot:
        seat.deadline, seat.next_reminder_at = now, None
    else:
        vacation = vacation_at(seat.user_id, now) if seat.user_id else None
        begins = vacation.ends_at if vacation else now
        user = seat.user if seat.user_id else None
        seat.deadline = own_time.deadline_from(game, user, begins, game.move_hours)
        seat.next_reminder_at = own_time.first_reminder(
            game, user, seat.deadline, begins, reminder_hours(game)
        )
    seat.claimed_until = None
    seat.mail_hold_since = None
    seat.reminded_at = None
    TURN_STARTS.run(seat.id, seat.turn_started_at, seat.deadline, seat.next_reminder_at)
    seat._dirty.difference_update(TURN_STARTED_FIELDS)  # saved, as seat.save(only=…) leaves it


# The seat's clock starts (every move that passes the turn on): as
# seat.save(only=…) would write it, its SQL built once.
TURN_STARTS = Prepared(
    lambda seat_id, started, deadline, reminder: Seat.update(
        turn_started_at=started,
        deadline=deadline,
        next_reminder_at=reminder,
        claimed_until=None,
        mail_hold_since=None,
        reminded_at=None,
    ).where(Seat.id == seat_id),
    kinds=(int, dt.datetime, Seat.deadline, Seat.next_reminder_at),
)
TURN_STARTED_FIELDS = (
    "turn_started_at",
    "deadline",
    "next_reminder_at",
    "claimed_until",
    "mail_hold_since",
    "reminded_at",
)


# The seat's turn is over: its clock stops (moves.py writes these with the
# rest of the move's changes to the seat, in one UPDATE).
TURN_OVER = {
    "deadline": None,
    "next_reminder_at": None,
    "turn_started_at": None,
    "claimed_until": None,
    "mail_hold_since": None,
    "reminded_at": None,
}


# -- a turn mail that did not get through (services/outbox.py) ------------
def lock(seat_id: int) -> Seat | None:
    """The seat as it is now, locked until the transaction ends.

    Whoever stops a seat's clock because a mail of its turn has not gone
    out (the sweep), and whoever runs it again because that mail went out
    (the senders) or the player came (the game page), lock the seat before
    they look at its mails.  Otherwise a sweep could read the turn mail as
    waiting while a sender marked it sent and, finding no hold yet, let it
    be: the clock would stand still for good.  The seat comes first, then
    its mails, in every transaction that changes both, so none waits on
    another for ever."""
    return SEAT_LOCKED.first(seat_id)


# Read by every timeout, reminder and delivery of a turn mail: built once.
SEAT_LOCKED = Prepared(lambda seat_id: locked(Seat.select().where(Seat.id == seat_id).limit(1)))


def locked(query):
    """``query`` with FOR UPDATE of its seats (server/db.py ``locked``)."""
    return db_locked(query, of=Seat)


def hold(seat_id: int, now: dt.datetime, since: dt.datetime | None = None) -> bool:
    """Stop the seat's clock from ``since`` (when its player was last known
    to be reachable; ``now`` when not given, never later); False when it
    already stands still."""
    since = now if since is None else min(since, now)
    return HOLD.run(seat_id, since) == 1


HOLD = Prepared(
    lambda seat_id, since: Seat.update(mail_hold_since=since, claimed_until=None).where(
        (Seat.id == seat_id) & Seat.mail_hold_since.is_null() & Seat.deadline.is_null(False)
    ),
    kinds=(int, dt.datetime),
)


def release(seat_id: int, now: dt.datetime) -> bool:
    """Run the seat's clock again: its deadline and next reminder move on by
    the time it stood still.  False when it was running."""
    seat = Seat.get_or_none(Seat.id == seat_id)
    if seat is None or seat.mail_hold_since is None:
        return False
    stood = max(now - seat.mail_hold_since, dt.timedelta(0))
    changes: dict[str, dt.datetime | None] = {"mail_hold_since": None}
    if seat.deadline is not None:
        changes["deadline"] = seat.deadline + stood
    if seat.next_reminder_at is not None:
        changes["next_reminder_at"] = seat.next_reminder_at + stood
    return (
        Seat.update(**changes)
        .where((Seat.id == seat_id) & (Seat.mail_hold_since == seat.mail_hold_since))
        .execute()
    ) == 1


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

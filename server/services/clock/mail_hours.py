"""A player's own mail schedule: when reminders come (hours before the
deadline), quiet hours without reminders or digests, and the digest's hour,
all in the player's own time zone.  Pure functions, no database.

A reminder "6 hours before the deadline" is due when 6 hours of clock time
are left (running_hours.retreat): with a clock that stops at night it comes
the evening before a morning deadline, when the game page says "6 hours
left".  One that falls into quiet hours comes at the start of the quiet
hours instead: earlier, never later, so never after the deadline.
"""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

from engine.words import N_, msg
from server.services.clock import running_hours as cal

HOUR = dt.timedelta(hours=1)
MAX_REMINDERS = 6
MAX_HOURS = 24 * 30  # the longest time per move a game may have
_ITEM = re.compile(r"^\s*(half|\d{1,4}(?:\.\d{1,2})?)\s*$", re.IGNORECASE)


def reminder_item(text: str) -> str | float:
    """ "half" or a number of hours; ValueError with a message for the form."""
    m = _ITEM.match(text)
    if not m:
        raise ValueError(
            msg("'%(item)s' is neither 'half' nor a number of hours", item=text.strip())
        )
    return "half" if m.group(1).lower() == "half" else float(m.group(1))


def parse_own_reminders(text: str) -> list | None:
    """A player's "24, 6" -> [24, 6]; empty -> None: each game's schedule."""
    items = [reminder_item(part) for part in (text or "").split(",") if part.strip()]
    if not items:
        return None
    if len(items) > MAX_REMINDERS:
        raise ValueError(msg("At most %(n)s reminders per turn.", n=MAX_REMINDERS))
    for item in items:
        if not isinstance(item, str) and not 0 < item <= MAX_HOURS:  # str: "half"
            raise ValueError(
                msg(
                    "A reminder comes more than 0 and at most %(most)s hours "
                    "before the deadline; %(hours)s is not.",
                    most=MAX_HOURS,
                    hours=f"{item:g}",
                )
            )
    numbers = sorted({i for i in items if i != "half"}, reverse=True)
    return (["half"] if "half" in items else []) + [int(h) if h == int(h) else h for h in numbers]


def own_reminders_text(items: list | None) -> str:
    return ", ".join(i if i == "half" else f"{i:g}" for i in items or [])


def seat_hours(own: list | None, game_hours: list[float], move_hours: int) -> list[float]:
    """The player's own hours where they fit in this game's time per move,
    else the game's schedule (which always has one): nobody is left without
    a reminder because their list was made for longer games."""
    hours = {move_hours / 2 if i == "half" else float(i) for i in own or []}
    fitting = sorted((h for h in hours if 0 < h < move_hours), reverse=True)
    return fitting or list(game_hours)


# -- quiet hours ------------------------------------------------------------------
def quiet_hours(start: int | None, end: int | None) -> cal.Policy | None:
    """Quiet hours as a calendar whose "night" is when no mail comes."""
    if start is None and end is None:
        return None
    return cal.Policy(night=cal.checked_window(start, end, "quiet time"))


def out_of_quiet(when: dt.datetime, quiet: cal.Policy | None, tz: ZoneInfo) -> dt.datetime:
    """``when``, or the start of the quiet hours it falls into."""
    if quiet is None:
        return when
    return cal.stopped_since(when, quiet, tz) or when


def reminder_times(
    deadline: dt.datetime,
    hours: list[float],
    floor: dt.datetime,
    clock: cal.Policy,
    tz: ZoneInfo,
    quiet: cal.Policy | None,
) -> list[dt.datetime]:
    """When this seat's reminders are due, earliest first, none before
    ``floor`` (the turn's start) or at the deadline.  If quiet hours cover
    every one of them, one comes at ``floor``: nobody times out unwarned."""
    times = {out_of_quiet(cal.retreat(deadline, h * HOUR, clock, tz), quiet, tz) for h in hours}
    kept = sorted(t for t in times if floor <= t < deadline)
    if not kept and hours and floor < deadline:
        kept = [floor]
    return kept


# -- digests ----------------------------------------------------------------------
def check_digest_hour(hour: int | None) -> None:
    if hour is not None and (not isinstance(hour, int) or not 0 <= hour <= 23):
        raise ValueError(N_("The digest hour is a whole hour from 0 to 23."))


def quiet_digest_note(hour: int, quiet: cal.Policy | None) -> str:
    """What the player is told when their digest hour lies in their quiet
    hours (it then comes when they begin, like a reminder); "" otherwise."""
    if quiet is None or quiet.night is None:
        return ""
    start, end = quiet.night
    if (hour - start) % 24 >= (end - start) % 24:
        return ""
    return (
        f"Your digest hour {hour:02d}:00 falls in your quiet hours ({start:02d}:00 to "
        f"{end:02d}:00): the digest comes at {start:02d}:00, when they begin."
    )


def next_digest_time(
    now: dt.datetime, tz: ZoneInfo, hour: int, quiet: cal.Policy | None = None
) -> dt.datetime:
    """The next ``hour`` o'clock on the wall in ``tz`` after ``now``, as naive
    UTC (a skipped hour: the instant of the jump).  An hour in the player's
    quiet hours: the digest comes when they begin, like a reminder."""
    day = cal.local(now, tz).date()
    for offset in range(4):
        when = cal.wall_to_utc(
            dt.datetime.combine(day + dt.timedelta(days=offset), dt.time(hour)), tz
        )
        when = out_of_quiet(when, quiet, tz)
        if when > now:
            return when
    raise AssertionError("unreachable")

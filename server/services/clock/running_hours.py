"""When a turn clock runs: always, not on weekends, not at night, judged in
the seat's own time zone.  Pure functions, no database.

A clock hour is a real hour (60 minutes of UTC) during which the clock runs.
The stretches when it stands still are written in the player's wall time
(Saturday 00:00 to Monday 00:00; every night from 23:00 to 07:00) and turned
into UTC instants day by day, so across a daylight-saving change a night is
7 or 9 real hours long, and a weekend 47 or 49.

Wall times the clocks skip or show twice get one meaning each, used for
every boundary: a skipped time (spring forward) is the instant of the jump,
a repeated one (fall back) its first occurrence.  Everything below derives
from one list of running stretches (``_day_runs``), so the deadline, the
hours left and "does it run now" can never disagree.

All instants in and out are naive UTC datetimes, like the rest of the server.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.words import N_, Words, msg, term

UTC = dt.UTC
DAY = dt.timedelta(days=1)
ZERO = dt.timedelta(0)
MAX_DAYS = 20 * 366  # a walk this long means a bug, not a long game


# -- policies -------------------------------------------------------------
@dataclass(frozen=True)
class Policy:
    """When the clock stands still; ``night`` is (from hour, until hour) in
    local wall time, e.g. (23, 7): from 23:00 to 07:00 the next morning."""

    weekends: bool = False
    night: tuple[int, int] | None = None

    @property
    def always(self) -> bool:
        return not self.weekends and self.night is None


POLICIES = {
    "always": "The clock always runs",
    "no_weekends": "The clock stops on weekends",
    "no_nights": "The clock stops at night",
    "no_weekends_no_nights": "The clock stops on weekends and at night",
}


def policy(name: str, night_from: int | None = None, night_until: int | None = None) -> Policy:
    """The policy a game stores as a name and two hours; ValueError (for the
    form) on anything that is not one."""
    if name not in POLICIES:
        raise ValueError(f"{name!r} is not a clock policy; choose one of {', '.join(POLICIES)}.")
    if "no_nights" not in name:
        return Policy(weekends="no_weekends" in name)
    return Policy(weekends="no_weekends" in name, night=checked_window(night_from, night_until))


def choices(default_night: tuple[int, int]) -> list[tuple[str, str]]:
    """(value, label) for one select of the new-game form: each policy, and
    those that stop at night with a few nights ("no_nights/23-7").  One
    field whose every value is valid: nothing to combine wrongly."""
    nights = []
    for night in [default_night, (23, 7), (22, 6), (0, 8), (17, 9)]:
        try:
            if checked_window(*night) not in nights:
                nights.append(night)
        except ValueError:  # a NIGHT_* setting that is no night: left out
            pass
    found: list[tuple[str, str]] = []
    for name in POLICIES:
        for window in nights if "no_nights" in name else [None]:
            p = Policy(weekends="no_weekends" in name, night=window)
            value = name if window is None else f"{name}/{window[0]}-{window[1]}"
            found.append((value, describe(p, zone_note=False)))
    return found


def parse_choice(value: str) -> tuple[str, tuple[int, int]]:
    """ "no_nights/23-7" -> ("no_nights", (23, 7)); ValueError on anything else."""
    name, _, night = value.partition("/")
    if not night:
        return name, (23, 7)
    start, _, end = night.partition("-")
    if not (start.isascii() and start.isdigit() and end.isascii() and end.isdigit()):
        raise ValueError(f"{value!r} is not a clock policy.")
    return name, (int(start), int(end))


# What a window of hours is, as an error names it.
WINDOWS = {"night": N_("The night"), "quiet time": N_("The quiet time")}


def checked_window(start: int | None, end: int | None, what: str = "night") -> tuple[int, int]:
    if not (
        isinstance(start, int) and isinstance(end, int) and 0 <= start <= 23 and 0 <= end <= 23
    ):
        raise ValueError(
            msg(
                "%(what)s runs from a whole hour to a whole hour, 0 to 23.",
                what=term(WINDOWS[what]),
            )
        )
    # Any length from 1 to 23 hours: "office hours" are a night from 17:00
    # to 09:00, "mail me only between 18:00 and 19:00" quiet hours of 23.
    if start == end:
        raise ValueError(
            msg(
                "%(what)s cannot start and end at the same hour (%(hour)s).",
                what=term(WINDOWS[what]),
                hour=f"{start:02d}:00",
            )
        )
    return start, end


def describe(p: Policy, zone_note: bool = True) -> Words:
    """For pages: what the clock does and (``zone_note``) whose time zone decides."""
    if p.always:
        return msg("The clock always runs.")
    parts = []
    if p.weekends:
        parts.append(msg("on Saturdays and Sundays"))
    if p.night:
        parts.append(
            msg(
                "at night from %(start)s to %(end)s",
                start=f"{p.night[0]:02d}:00",
                end=f"{p.night[1]:02d}:00",
            )
        )
    when = (
        msg("%(first)s and %(last)s", first=parts[0], last=parts[1]) if len(parts) > 1 else parts[0]
    )
    if zone_note:
        return msg("The clock stops %(when)s, in each player's own time zone.", when=when)
    return msg("The clock stops %(when)s.", when=when)


# -- wall time -> UTC ---------------------------------------------------------
def zone(name: str) -> ZoneInfo:
    """The IANA zone of that name; UTC for an unknown or empty one."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        return ZoneInfo("UTC")


def local(when: dt.datetime, tz: ZoneInfo) -> dt.datetime:
    """A naive UTC instant as naive wall time in ``tz``."""
    return when.replace(tzinfo=UTC).astimezone(tz).replace(tzinfo=None)


def wall_to_utc(wall: dt.datetime, tz: ZoneInfo) -> dt.datetime:
    """The instant the clocks in ``tz`` show ``wall``: its first occurrence
    when shown twice, the instant of the jump when skipped."""
    first = wall.replace(tzinfo=tz, fold=0).astimezone(UTC).replace(tzinfo=None)
    if local(first, tz) == wall:
        return first
    # Skipped: the jump lies between the two readings; find it to the second.
    other = wall.replace(tzinfo=tz, fold=1).astimezone(UTC).replace(tzinfo=None)
    lo, hi = min(first, other), max(first, other)
    while hi - lo > dt.timedelta(seconds=1):
        mid = lo + (hi - lo) / 2
        lo, hi = (lo, mid) if local(mid, tz) >= wall else (mid, hi)
    return hi if local(lo, tz) < wall else lo


# -- the running stretches ------------------------------------------------------
def _day_runs(day: dt.date, p: Policy, tz: ZoneInfo) -> list[tuple[dt.datetime, dt.datetime]]:
    """The stretches of local ``day`` when the clock runs, in UTC, in order."""
    if p.weekends and day.weekday() >= 5:
        return []
    hours = [(0, 24)]
    if p.night:
        start, end = p.night
        hours = [(end, start)] if start > end else [(0, start), (end, 24)]
    midnight = dt.datetime.combine(day, dt.time(0))
    runs = [
        (
            wall_to_utc(midnight + dt.timedelta(hours=a), tz),
            wall_to_utc(midnight + dt.timedelta(hours=b), tz),
        )
        for a, b in hours
    ]
    return [(a, b) for a, b in runs if b > a]


def runs_forward(start: dt.datetime, p: Policy, tz: ZoneInfo) -> Iterator[tuple]:
    """Running stretches that end after ``start``, cut to begin no earlier."""
    day = local(start, tz).date() - DAY
    for _ in range(MAX_DAYS):
        for a, b in _day_runs(day, p, tz):
            if b > start:
                yield max(a, start), b
        day += DAY
    raise OverflowError("the clock never runs")


def runs_backward(end: dt.datetime, p: Policy, tz: ZoneInfo) -> Iterator[tuple]:
    """Running stretches that begin before ``end``, latest first, cut at ``end``."""
    day = local(end, tz).date() + DAY
    for _ in range(MAX_DAYS):
        for a, b in reversed(_day_runs(day, p, tz)):
            if a < end:
                yield a, min(b, end)
        day -= DAY
    raise OverflowError("the clock never runs")


# -- the questions the server asks ------------------------------------------------
def advance(start: dt.datetime, clock: dt.timedelta, p: Policy, tz: ZoneInfo) -> dt.datetime:
    """The instant when ``clock`` of clock time has run from ``start``: a
    deadline.  With no time to run, the first instant the clock runs."""
    if p.always:
        return start + clock
    left = max(clock, ZERO)
    for a, b in runs_forward(start, p, tz):
        if b - a >= left:
            return a + left
        left -= b - a
    raise AssertionError("unreachable")


def retreat(end: dt.datetime, clock: dt.timedelta, p: Policy, tz: ZoneInfo) -> dt.datetime:
    """The latest instant from which ``clock`` of clock time runs until
    ``end``: when a reminder "6 hours before the deadline" is due."""
    if p.always:
        return end - clock
    left = max(clock, ZERO)
    for a, b in runs_backward(end, p, tz):
        if b - a >= left:
            return b - left
        left -= b - a
    raise AssertionError("unreachable")


def running_between(start: dt.datetime, end: dt.datetime, p: Policy, tz: ZoneInfo) -> dt.timedelta:
    """Clock time that runs from ``start`` to ``end`` (zero if end <= start):
    the time left at ``start`` of a turn due at ``end``."""
    if end <= start:
        return ZERO
    if p.always:
        return end - start
    total = ZERO
    for a, b in runs_forward(start, p, tz):
        if a >= end:
            return total
        total += min(b, end) - a
    raise AssertionError("unreachable")


def runs_at(when: dt.datetime, p: Policy, tz: ZoneInfo) -> bool:
    return stopped_since(when, p, tz) is None


def stopped_since(when: dt.datetime, p: Policy, tz: ZoneInfo) -> dt.datetime | None:
    """When the clock stopped, if it stands still at ``when``; else None."""
    if p.always:
        return None
    for _start, b in runs_backward(when + dt.timedelta(microseconds=1), p, tz):
        return None if b > when else b
    raise AssertionError("unreachable")


def after_stop(
    deadline: dt.datetime,
    stopped_from: dt.datetime,
    stopped_to: dt.datetime,
    p: Policy,
    tz: ZoneInfo,
) -> dt.datetime:
    """The deadline after the clock stood still from ``stopped_from`` to
    ``stopped_to`` (a vacation, a pause, a held turn mail): the player has
    the same clock time left at the end of the stop as at its start.

    Why this is fair: the stop is a stretch of wall time, and turning it into
    "deadline + its length" would, for a game that stops on weekends, move a
    Friday deadline onto a weekend and take the weekend's time away from the
    player.  When the clock always runs it is exactly "deadline + length"; a
    stop from a local midnight to a local midnight (a vacation) keeps the
    deadline's local wall time even across a daylight-saving change.
    ``stopped_to`` before ``stopped_from`` undoes (part of) a stop: "I'm back"
    early, or a turn restarted while its game stands paused."""
    left = running_between(stopped_from, deadline, p, tz)
    return advance(stopped_to, left, p, tz)

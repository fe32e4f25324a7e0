"""Clocks on the players' own time, across daylight-saving
changes.  Pure functions: every expected instant is worked out by hand in
the test (UTC offsets from the IANA rules), never computed by the code."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.services.clock import running_hours as cal
from server.services.clock.running_hours import (
    Policy,
    advance,
    after_stop,
    retreat,
    running_between,
    runs_at,
    stopped_since,
    wall_to_utc,
    zone,
)

H = dt.timedelta(hours=1)
T = dt.datetime
AMS, NY = zone("Europe/Amsterdam"), zone("America/New_York")
KOLKATA, AUCKLAND = zone("Asia/Kolkata"), zone("Pacific/Auckland")
NIGHTS = Policy(night=(23, 7))
WEEKENDS = Policy(weekends=True)
BOTH = Policy(weekends=True, night=(23, 7))


# -- Europe/Amsterdam: CET (UTC+1) / CEST (UTC+2), switching at 01:00 UTC on the
# last Sunday of March (2026-03-29: 02:00 CET -> 03:00 CEST) and of October
# (2026-10-25: 03:00 CEST -> 02:00 CET).
def test_amsterdam_spring_night_is_seven_hours():
    # Sat 28 Mar 20:00 CET = 19:00 UTC; 6 clock hours, no clock at night.
    # 20:00-23:00 CET runs: 3 h, until 22:00 UTC.  The night runs from
    # 23:00 CET (22:00 UTC) to 07:00 CEST (05:00 UTC): 7 real hours, since
    # the clocks skip 02:00-03:00.  3 more hours: 05:00 -> 08:00 UTC, which
    # is 10:00 CEST on Sunday.
    start = T(2026, 3, 28, 19)
    assert advance(start, 6 * H, NIGHTS, AMS) == T(2026, 3, 29, 8)
    assert stopped_since(T(2026, 3, 29, 1, 30), NIGHTS, AMS) == T(2026, 3, 28, 22)
    assert not runs_at(T(2026, 3, 29, 4, 59), NIGHTS, AMS)
    assert runs_at(T(2026, 3, 29, 5), NIGHTS, AMS)


def test_amsterdam_autumn_night_is_nine_hours():
    # Sat 24 Oct 20:00 CEST = 18:00 UTC; 6 clock hours.  20:00-23:00 CEST is
    # 18:00-21:00 UTC (3 h).  Night: 23:00 CEST (21:00 UTC) to 07:00 CET
    # (06:00 UTC): 9 real hours, the clocks show 02:00-03:00 twice.  3 more
    # hours from 06:00 UTC: 09:00 UTC = 10:00 CET on Sunday 25 October.
    assert advance(T(2026, 10, 24, 18), 6 * H, NIGHTS, AMS) == T(2026, 10, 25, 9)
    # And the way back: 6 clock hours before 09:00 UTC is 18:00 UTC the day before.
    assert retreat(T(2026, 10, 25, 9), 6 * H, NIGHTS, AMS) == T(2026, 10, 24, 18)


def test_amsterdam_clock_that_always_runs_counts_real_hours_across_the_switch():
    # 24 clock hours from Sat 28 Mar 13:00 CET (12:00 UTC) end at 12:00 UTC
    # on Sunday, which the wall shows as 14:00 CEST: the day had 23 hours.
    assert advance(T(2026, 3, 28, 12), 24 * H, Policy(), AMS) == T(2026, 3, 29, 12)


# -- America/New_York: EST (UTC-5) / EDT (UTC-4), switching at 02:00 local on
# the second Sunday of March (2026-03-08, at 07:00 UTC) and the first Sunday
# of November (2026-11-01, at 06:00 UTC).
def test_new_york_spring_weekend_is_47_hours():
    # Fri 6 Mar 18:00 EST = 23:00 UTC; 10 clock hours, no clock on weekends.
    # Friday runs until Sat 00:00 EST = 05:00 UTC Saturday: 6 h.  The weekend
    # runs to Mon 9 Mar 00:00 EDT = 04:00 UTC (47 real hours).  4 more hours:
    # 08:00 UTC = 04:00 EDT on Monday.
    assert advance(T(2026, 3, 6, 23), 10 * H, WEEKENDS, NY) == T(2026, 3, 9, 8)
    assert running_between(T(2026, 3, 6, 23), T(2026, 3, 9, 8), WEEKENDS, NY) == 10 * H


def test_new_york_autumn_weekend_is_49_hours():
    # Fri 30 Oct 18:00 EDT = 22:00 UTC; 10 clock hours.  6 h until Sat 31 Oct
    # 00:00 EDT = 04:00 UTC; the weekend lasts to Mon 2 Nov 00:00 EST =
    # 05:00 UTC (49 real hours); 4 more: 09:00 UTC = 04:00 EST.
    assert advance(T(2026, 10, 30, 22), 10 * H, WEEKENDS, NY) == T(2026, 11, 2, 9)


def test_a_skipped_wall_time_is_the_instant_of_the_jump():
    # 2026-03-08 02:30 does not exist in New York: the clocks jump from
    # 01:59:59 EST to 03:00 EDT at 07:00 UTC.  A night from 02:00 to 08:00
    # therefore stops the clock at 07:00 UTC and runs it again at 08:00 EDT =
    # 12:00 UTC: 5 real hours.
    assert wall_to_utc(T(2026, 3, 8, 2, 30), NY) == T(2026, 3, 8, 7)
    early = Policy(night=(2, 8))
    assert stopped_since(T(2026, 3, 8, 9), early, NY) == T(2026, 3, 8, 7)
    assert running_between(T(2026, 3, 8, 6), T(2026, 3, 8, 13), early, NY) == 2 * H


def test_a_repeated_wall_time_is_its_first_occurrence():
    # 2026-11-01 01:30 happens twice in New York (EDT 05:30 UTC, EST 06:30
    # UTC): the first is taken.  A night from 01:00 to 07:00 stops at 01:00
    # EDT = 05:00 UTC and ends at 07:00 EST = 12:00 UTC: 7 real hours.
    assert wall_to_utc(T(2026, 11, 1, 1, 30), NY) == T(2026, 11, 1, 5, 30)
    night = Policy(night=(1, 7))
    assert stopped_since(T(2026, 11, 1, 6, 30), night, NY) == T(2026, 11, 1, 5)
    assert running_between(T(2026, 11, 1, 4), T(2026, 11, 1, 13), night, NY) == 2 * H


# -- Asia/Kolkata: UTC+05:30 all year; Pacific/Auckland: NZDT (UTC+13) until
# 03:00 on the first Sunday of April (2026-04-05), NZST (UTC+12) after.
def test_kolkata_half_hour_offset():
    # Mon 1 Jun 20:00 IST = 14:30 UTC; 6 clock hours, no nights.  3 h until
    # 23:00 IST = 17:30 UTC; the night ends 07:00 IST = 01:30 UTC; 3 more
    # hours: 04:30 UTC = 10:00 IST on Tuesday.
    assert advance(T(2026, 6, 1, 14, 30), 6 * H, NIGHTS, KOLKATA) == T(2026, 6, 2, 4, 30)


def test_the_seats_own_zone_decides_what_a_weekend_is():
    # Fri 3 Apr 2026 12:00 UTC is Friday 08:00 EDT in New York but Saturday
    # 01:00 NZDT in Auckland.  In New York 2 clock hours end at 14:00 UTC.
    # In Auckland the weekend began at Fri 11:00 UTC (Sat 00:00 NZDT) and
    # lasts to Mon 6 Apr 00:00 NZST = Sun 5 Apr 12:00 UTC: the clocks went
    # back an hour on Sunday (49 real hours of weekend); 2 h later: 14:00 UTC.
    start = T(2026, 4, 3, 12)
    assert advance(start, 2 * H, WEEKENDS, NY) == T(2026, 4, 3, 14)
    assert advance(start, 2 * H, WEEKENDS, AUCKLAND) == T(2026, 4, 5, 14)
    assert stopped_since(start, WEEKENDS, AUCKLAND) == T(2026, 4, 3, 11)


def test_weekends_and_nights_together():
    # Fri 27 Mar 2026 22:00 CET = 21:00 UTC in Amsterdam, 2 clock hours: 1 h
    # until 23:00 CET; stopped over the night and the weekend (which holds
    # the spring switch) until Mon 30 Mar 07:00 CEST = 05:00 UTC; 1 h more.
    assert advance(T(2026, 3, 27, 21), 2 * H, BOTH, AMS) == T(2026, 3, 30, 6)


def test_a_vacation_across_the_switch_keeps_the_deadlines_wall_time():
    """A stop from local midnight to local midnight: the deadline keeps the
    clock time it had left, so on an always-running clock it keeps its wall
    time too.  Deadline Fri 27 Mar 18:00 CET (17:00 UTC); vacation Mon 23
    Mar 00:00 CET (Sun 23:00 UTC) to Mon 30 Mar 00:00 CEST (Sun 29 Mar 22:00
    UTC): 167 real hours.  New deadline: Fri 3 Apr 18:00 CEST = 16:00 UTC."""
    deadline = T(2026, 3, 27, 17)
    new = after_stop(deadline, T(2026, 3, 22, 23), T(2026, 3, 29, 22), Policy(), AMS)
    assert new == T(2026, 4, 3, 16)
    # With weekends off the clock time left is the same and no weekend is lost:
    # at the start 4 days 18 h were left (Mon to Fri 18:00), after the
    # vacation the same 4 days 18 h run Mon 30 Mar to Fri 3 Apr 18:00 CEST.
    assert after_stop(deadline, T(2026, 3, 22, 23), T(2026, 3, 29, 22), WEEKENDS, AMS) == T(
        2026, 4, 3, 16
    )
    # A three-day stop Mon-Wed: the old Friday deadline would land on Monday
    # if shifted by 3 days of wall time; keeping the clock time, it is Wed 18:00.
    assert after_stop(T(2026, 3, 6, 17), T(2026, 3, 1, 23), T(2026, 3, 4, 23), WEEKENDS, AMS) == T(
        2026, 3, 11, 17
    )


def test_policies_are_checked():
    assert cal.policy("no_nights", 22, 6) == Policy(night=(22, 6))
    assert cal.policy("no_weekends") == Policy(weekends=True)
    with pytest.raises(ValueError, match="is not a clock policy"):
        cal.policy("sometimes")
    with pytest.raises(ValueError, match="cannot start and end at the same hour"):
        cal.policy("no_nights", 20, 20)
    # Office hours: the clock runs from 09:00 to 17:00 only.  Mon 2 Mar 2026
    # 16:00 UTC is 17:00 CET: stopped until Tue 09:00 CET (08:00 UTC); 2 clock
    # hours later it is 10:00 UTC.
    office = cal.policy("no_nights", 17, 9)
    assert advance(T(2026, 3, 2, 16), 2 * H, office, AMS) == T(2026, 3, 3, 10)
    with pytest.raises(ValueError, match="whole hour"):
        cal.policy("no_nights", 24, 7)
    assert "Saturdays and Sundays" in cal.describe(BOTH)
    assert "23:00 to 07:00" in cal.describe(BOTH)


# -- properties --------------------------------------------------------------------
ZONES = [
    "UTC",
    "Europe/Amsterdam",
    "America/New_York",
    "Asia/Kolkata",
    "Pacific/Auckland",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "Antarctica/Troll",
    "Asia/Beirut",
    "America/Havana",
    "America/St_Johns",
]


@st.composite
def policies(draw):
    night = None
    if draw(st.booleans()):
        start = draw(st.integers(0, 23))
        night = (start, (start + draw(st.integers(1, 23))) % 24)
    return Policy(weekends=draw(st.booleans()), night=night)


instants = st.datetimes(min_value=T(2024, 1, 1), max_value=T(2030, 12, 31))
spans = st.timedeltas(min_value=dt.timedelta(0), max_value=720 * H).map(
    lambda d: d - dt.timedelta(microseconds=d.microseconds)
)
FAST = settings(max_examples=150, deadline=None)


@FAST
@given(instants, spans, policies(), st.sampled_from(ZONES))
def test_hours_left_at_the_start_are_the_hours_given(start, span, p, name):
    tz = zone(name)
    deadline = advance(start, span, p, tz)
    assert running_between(start, deadline, p, tz) == span
    if span:  # the latest instant with that much left: the start or a later one
        assert start <= retreat(deadline, span, p, tz) <= deadline


@FAST
@given(instants, spans, spans, policies(), st.sampled_from(ZONES))
def test_more_hours_never_end_sooner(start, a, b, p, name):
    tz = zone(name)
    short, long = sorted((a, b))
    assert advance(start, short, p, tz) <= advance(start, long, p, tz)


@FAST
@given(instants, instants, spans, policies(), st.sampled_from(ZONES))
def test_a_later_start_never_ends_sooner_and_time_left_only_shrinks(s1, s2, span, p, name):
    tz = zone(name)
    early, late = sorted((s1, s2))
    assert advance(early, span, p, tz) <= advance(late, span, p, tz)
    deadline = advance(early, span, p, tz)
    assert running_between(late, deadline, p, tz) <= running_between(early, deadline, p, tz)


@FAST
@given(instants, spans, policies(), st.sampled_from(ZONES))
def test_a_reminder_comes_when_that_much_time_is_left(end, span, p, name):
    tz = zone(name)
    when = retreat(end, span, p, tz)
    assert when <= end and running_between(when, end, p, tz) == span


@FAST
@given(instants, policies(), st.sampled_from(ZONES))
def test_runs_at_agrees_with_time_passing(when, p, name):
    tz = zone(name)
    tick = dt.timedelta(microseconds=1)
    since = stopped_since(when, p, tz)
    if since is None:
        assert runs_at(when, p, tz) and running_between(when, when + tick, p, tz) == tick
    else:
        assert since <= when and running_between(since, when + tick, p, tz) == dt.timedelta(0)
        assert runs_at(since - tick, p, tz)


@pytest.mark.parametrize("name", ZONES)
def test_wall_hours_map_to_instants_in_order(name):
    """Every whole wall hour of 2026 maps to an instant no earlier than the
    hour before (the running stretches are built from these): in
    Antarctica/Troll the clocks jump two hours, so 02:00 lies inside the
    skipped stretch, not at its start, and must still come out as the jump."""
    tz = zone(name)
    wall, previous = T(2026, 1, 1), None
    while wall.year == 2026:
        when = wall_to_utc(wall, tz)
        assert previous is None or previous <= when, wall
        assert cal.local(when, tz) >= wall or when == previous, wall
        previous, wall = when, wall + H

"""A deadline's text is kept by its arguments (what_a_seat_sees.
deadline_text): it says what deadlines.local_text says, for every time,
zone and language, a new deadline its own text at once, and an aware time
(equal to one of another zone, which it does not read alike) is said anew."""

from __future__ import annotations

import datetime as dt

from server.services.clock.deadlines import local_text
from server.services.what_a_seat_sees import deadline_text


def test_kept_texts_say_what_local_text_says():
    start = dt.datetime(2026, 3, 28, 22, 30)  # across a change to summer time
    times = [None] + [start + dt.timedelta(hours=h * 7) for h in range(12)]
    for _ in range(2):  # the second round reads kept texts
        for when in times:
            for zone in ("UTC", "Europe/Amsterdam", "America/New_York", "Asia/Kolkata"):
                for language in (None, "en", "de", "nl", "fr"):
                    assert deadline_text(when, zone, language) == local_text(when, zone, language)


def test_a_new_deadline_is_said_anew():
    first = dt.datetime(2026, 11, 27, 15, 0)
    said = deadline_text(first, "Europe/Amsterdam", "nl")
    later = deadline_text(first + dt.timedelta(hours=24), "Europe/Amsterdam", "nl")
    assert said != later == local_text(first + dt.timedelta(hours=24), "Europe/Amsterdam", "nl")


def test_an_aware_time_is_not_taken_for_an_equal_one():
    """Two aware times of one moment are equal, and local_text reads their
    clock readings as UTC: each is said as local_text says it."""
    one = dt.datetime(2026, 11, 27, 15, 0, tzinfo=dt.timezone(dt.timedelta(hours=1)))
    other = one.astimezone(dt.UTC)
    assert one == other and local_text(one, "UTC", "en") != local_text(other, "UTC", "en")
    for when in (one, other, one):
        assert deadline_text(when, "UTC", "en") == local_text(when, "UTC", "en")

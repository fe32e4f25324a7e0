"""Clocks that never burn a turn unfairly.

"When no sweep ran for longer than a grace period (setting), every deadline
and reminder that fell inside the outage moves forward by the outage's
length, players are told ..., moderators get one summary; no mass timeout.
The same holds when the mail sender was down: a clock starts only once its
turn mail has left (or after a ceiling ...)."  And: "Every seat, digest
readers included, gets at least one reminder before a timeout, unless the
player turned reminders off themselves."
"""

from __future__ import annotations

import datetime as dt

import pytest
from clock_helpers import (
    HOUR,
    events,
    outbox,
    run_sweep,
    started_game,
    sweeps_at_once,
    to_move,
    user,
)
from conftest import make_app

from server.db import db
from server.models import Outbox, Seat, User, utcnow
from server.services.clock import outage_guard
from server.services.outbox import deliver as drain_outbox

MINUTE = dt.timedelta(minutes=1)
GRACE = 600


@pytest.fixture
def guarded(db_url, smtp, tmp_path):
    """An app whose outage guard is on, as in production."""
    return make_app(db_url, smtp, tmp_path, OUTAGE_GRACE_SECONDS=GRACE)


def in_db(app, fn):
    with app.app_context(), db.connection_context():
        return fn()


def test_after_an_outage_the_deadlines_in_it_move_on_and_nobody_times_out(guarded):
    app = guarded
    in_db(app, lambda: user("mod@example.org", "Mod", is_moderator=True))
    made = [
        started_game(app, players=2, move_hours=48, reminders=(24, 6), tag=t)
        for t in ("oa", "ob", "oc")
    ]
    seats = [to_move(app, g.id) for g in made]
    start = min(s.deadline for s in seats) - 30 * HOUR  # before every reminder
    assert run_sweep(app, start).outage is None  # the first beat
    # Game oc's deadline lies after the outage: only its reminder fell inside.
    in_db(
        app,
        lambda: (
            Seat.update(deadline=start + 200 * HOUR, next_reminder_at=start + 20 * HOUR)
            .where(Seat.id == seats[2].id)
            .execute()
        ),
    )
    back = start + 100 * HOUR  # down for 100 hours
    report = run_sweep(app, back)
    assert report.outage == outage_guard.Outage(start, back)
    assert report.timeouts == 0 and report.last_calls == 0
    gap = back - start
    for game, before in zip(made[:2], seats[:2]):
        after = to_move(app, game.id)
        assert after.id == before.id and after.deadline == before.deadline + gap
        assert after.next_reminder_at == before.next_reminder_at + gap
        assert events(app, game.id, "timeout") == []
    third = to_move(app, made[2].id)
    assert third.deadline == start + 200 * HOUR  # did not fall inside
    assert third.next_reminder_at == start + 20 * HOUR + gap

    told = outbox(app, "outage")
    assert sorted(m.to_addr for m in told) == sorted(s.user.email for s in seats[:2])
    assert all(
        "The server was down from" in m.body_text and "Your deadline is now" in m.body_text
        for m in told
    )
    (summary,) = outbox(app, "outage_summary", "mod@example.org")
    assert "2 deadline(s)" in summary.body_text and "Game oa" in summary.body_text
    assert run_sweep(app, back + MINUTE).outage is None  # told once


def test_a_short_pause_is_no_outage(guarded):
    app = guarded
    game = started_game(app, players=2, tag="sp")
    seat = to_move(app, game.id)
    run_sweep(app, seat.deadline - dt.timedelta(seconds=GRACE - 60))
    report = run_sweep(app, seat.deadline + MINUTE)
    assert report.outage is None and report.timeouts == 1
    assert outbox(app, "outage") == []


def test_two_schedulers_back_at_once_shift_the_clocks_once(guarded):
    app = guarded
    game = started_game(app, players=2, tag="tw")
    seat = to_move(app, game.id)
    start = seat.deadline - 10 * HOUR
    run_sweep(app, start)
    back = seat.deadline + 5 * HOUR
    reports = sweeps_at_once(app, back)
    assert [r.outage is not None for r in reports].count(True) == 1
    assert to_move(app, game.id).deadline == seat.deadline + (back - start)
    assert len(outbox(app, "outage")) == 1 and events(app, game.id, "timeout") == []


def test_a_digest_reader_gets_a_last_call_before_a_timeout(app):
    """The deadline passed and no reminder went out: a last call and
    LAST_CALL_HOURS more, then the timeout."""
    game = started_game(app, players=2, tag="dg")
    seat = to_move(app, game.id)
    in_db(app, lambda: User.update(mail_mode="digest").where(User.id == seat.user_id).execute())
    late = seat.deadline + 3 * HOUR
    report = run_sweep(app, late)
    assert (report.timeouts, report.last_calls) == (0, 1)
    (call,) = outbox(app, "reminder", seat.user.email)
    assert call.body_text.startswith("Last call, your turn") and "Last call" in call.body_text
    last_call = dt.timedelta(hours=app.config["LAST_CALL_HOURS"])
    assert to_move(app, game.id).deadline == late + last_call
    assert run_sweep(app, late + last_call - MINUTE).timeouts == 0
    report = run_sweep(app, late + last_call)
    assert (report.timeouts, report.last_calls) == (1, 0)
    assert len(outbox(app, "reminder", seat.user.email)) == 1


def test_a_player_who_turned_reminders_off_gets_no_last_call(app):
    game = started_game(app, players=2, tag="off")
    seat = to_move(app, game.id)
    in_db(app, lambda: User.update(optional_mail=False).where(User.id == seat.user_id).execute())
    report = run_sweep(app, seat.deadline + HOUR)
    assert (report.timeouts, report.last_calls) == (1, 0)
    assert outbox(app, "reminder") == []


def test_a_reminder_that_went_out_counts_and_a_new_turn_needs_its_own(app):
    game = started_game(app, players=2, move_hours=48, reminders=(6,), tag="rw")
    seat = to_move(app, game.id)
    assert run_sweep(app, seat.deadline - 5 * HOUR).reminders == 1
    # Queued is not warned: the reminder counts once it went out.
    assert in_db(app, lambda: Seat.get_by_id(seat.id).reminded_at) is None
    in_db(app, lambda: drain_outbox(app.config))
    assert in_db(app, lambda: Seat.get_by_id(seat.id).reminded_at) is not None
    assert run_sweep(app, seat.deadline + HOUR).timeouts == 1
    nxt = to_move(app, game.id)
    assert nxt.reminded_at is None


# -- the sender was down ----------------------------------------------------------
def test_while_the_sender_is_down_a_turn_whose_mail_has_not_left_waits(app):
    game = started_game(app, players=2, tag="sd")
    seat = to_move(app, game.id)
    in_db(
        app,
        lambda: Seat.update(reminded_at=seat.deadline - HOUR).where(Seat.id == seat.id).execute(),
    )
    grace = dt.timedelta(seconds=600)
    app.config["OUTAGE_GRACE_SECONDS"] = 600
    in_db(app, lambda: outage_guard.beat(outage_guard.SENDER, seat.deadline - 3 * grace))
    report = run_sweep(app, seat.deadline + HOUR, deliver=False)
    assert report.timeouts == 0 and "has not gone out" in " ".join(report.skipped)
    # However long it waits (there is no ceiling any more): the
    # player never knew of the turn, the clock stands still.
    assert run_sweep(app, seat.deadline + 30 * 24 * HOUR, deliver=False).timeouts == 0
    assert to_move(app, game.id).mail_hold_since == seat.turn_started_at


def written_earlier(seat: Seat, by: dt.timedelta) -> None:
    """The seat's turn began, and its turn mail was written, ``by`` earlier
    (the clock itself stays: it runs from the mail's leaving)."""
    started = seat.turn_started_at - by
    for row in Outbox.select().where((Outbox.kind == "turn") & (Outbox.to_addr == seat.user.email)):
        Outbox.update(created_at=row.created_at - by, turn_of=started).where(
            Outbox.id == row.id
        ).execute()
    Seat.update(turn_started_at=started).where(Seat.id == seat.id).execute()


def test_a_turn_mail_that_leaves_late_starts_the_clock_late(app, smtp):
    game = started_game(app, players=2, tag="ll")
    seat = to_move(app, game.id)
    wait = 3 * HOUR

    in_db(app, lambda: written_earlier(seat, wait))
    sent = in_db(app, lambda: drain_outbox(app.config))
    assert sent["sent"] >= 1
    moved = to_move(app, game.id)
    shift = moved.deadline - seat.deadline
    assert wait <= shift <= wait + MINUTE
    assert moved.next_reminder_at - seat.next_reminder_at == shift
    assert in_db(app, lambda: outage_guard.last_beat(outage_guard.SENDER)) is not None


def test_the_late_start_has_no_ceiling(app, smtp):
    """The time the player could not be reached is never charged
    to them, however long it was (the old ceiling of 24 hours is gone)."""
    game = started_game(app, players=2, tag="cap")
    seat = to_move(app, game.id)
    in_db(app, lambda: written_earlier(seat, 30 * HOUR))
    in_db(app, lambda: drain_outbox(app.config, utcnow()))
    shift = to_move(app, game.id).deadline - seat.deadline
    assert 30 * HOUR <= shift <= 30 * HOUR + MINUTE


def test_a_mail_sent_on_time_does_not_move_the_clock(app, smtp):
    game = started_game(app, players=2, tag="ot")
    seat = to_move(app, game.id)
    in_db(app, lambda: drain_outbox(app.config))
    assert to_move(app, game.id).deadline == seat.deadline

"""Mail you can trust, the clock's half: no timeout for a player the turn
mail never reached, and no warning that never left.

Measured before: with a 1-hour clock and the SMTP server down, 10 of 10
seats timed out at 60 minutes while their turn mail was still waiting to go
out, and the reminder that never left counted as the warning.  Now a
reminder or last call warns only once the sender delivered it, and while a
seat's turn mail or last call has not gone out its clock stands still,
whatever the clock's length; the deadline then counts from the delivery.
"""

from __future__ import annotations

import datetime as dt
import time

import pytest
from aiosmtpd.controller import Controller
from clock_helpers import HOUR, events, run_sweep, started_game, to_move
from conftest import Inbox, free_port, make_app
from test_sender_process import start_sender, stop

from server.db import db
from server.mail.links import Links
from server.models import Game, Outbox, Seat, utcnow
from server.services import outbox

MINUTE = dt.timedelta(minutes=1)


class Port:
    """Where the tests' SMTP server listens, or will."""

    def __init__(self):
        self.port = free_port()


def in_db(app, fn):
    with app.app_context(), db.connection_context():
        return fn()


def rewind(game_id: int, by: dt.timedelta) -> None:
    """The game's pending turn began, and its mails were written, ``by``
    earlier (the outbox keeps the real time it wrote a row at, so a test
    that wants a real sender to deliver at the real time moves the past)."""
    seat = Seat.get((Seat.game == game_id) & (Seat.index == Game.get_by_id(game_id).to_move))
    Seat.update(
        turn_started_at=seat.turn_started_at - by,
        deadline=seat.deadline - by,
        next_reminder_at=seat.next_reminder_at - by,
    ).where(Seat.id == seat.id).execute()
    for row in Outbox.select().where(Outbox.game == game_id):
        Outbox.update(
            created_at=row.created_at - by,
            next_attempt_at=row.next_attempt_at - by,
            turn_of=row.turn_of and row.turn_of - by,
        ).where(Outbox.id == row.id).execute()


def wait_for(check, seconds: float = 30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds} s: {check.__doc__ or check}")


@pytest.fixture
def down(db_url, tmp_path):
    """An app whose SMTP server is not listening yet (``app.smtp_port``)."""
    port = Port()
    app = make_app(db_url, port, tmp_path)
    app.smtp_port = port.port
    return app


def test_smtp_down_an_hour_clock_waits_then_runs_from_the_delivery(down, db_url, tmp_path):
    """The outsider's measurement with the real sender process: 10 seats,
    1-hour clocks, SMTP down; a sweep at +61 minutes plays nothing; the
    server comes back, the mails go out, and each clock then runs its hour
    from its delivery (reminder halfway, timeout at the end)."""
    app, seats = down, 10
    made = [
        started_game(app, players=2, move_hours=1, reminders=(), tag=f"d{i}") for i in range(seats)
    ]
    in_db(app, lambda: [rewind(g.id, 61 * MINUTE) for g in made])
    sender = start_sender(tmp_path, db_url, app.smtp_port)
    inbox, server = Inbox(), None
    try:

        def tried():
            """every turn mail tried once against the dead server"""
            return in_db(
                app,
                lambda: (
                    Outbox.select().where((Outbox.kind == "turn") & (Outbox.attempts >= 1)).count()
                    == seats
                ),
            )

        wait_for(tried)
        assert in_db(app, lambda: Outbox.select().where(Outbox.status == "sent").count()) == 0

        report = run_sweep(app, utcnow(), deliver=False)  # +61 minutes
        assert report.timeouts == 0 and report.last_calls == 0
        assert all(events(app, g.id, "timeout") == [] for g in made)
        held = [to_move(app, g.id) for g in made]
        assert all(s.mail_hold_since == s.turn_started_at for s in held)

        server = Controller(inbox, hostname="127.0.0.1", port=app.smtp_port)
        server.start()  # the sender knocks, then sends them all

        def released():
            """every clock runs again"""
            return all(to_move(app, g.id).mail_hold_since is None for g in made)

        wait_for(released)
        for game in made:
            seat = to_move(app, game.id)
            (mail,) = in_db(
                app,
                lambda: list(
                    Outbox.select().where((Outbox.game == game.id) & (Outbox.kind == "turn"))
                ),
            )
            assert mail.status == "sent" and len(inbox.to(seat.user.email)) >= 1
            # The hour counts from the delivery: the 61 minutes are not charged.
            assert abs(seat.deadline - (mail.sent_at + HOUR)) < MINUTE
            assert abs(seat.next_reminder_at - (mail.sent_at + HOUR / 2)) < MINUTE
        first = min(to_move(app, g.id).deadline for g in made)

        report = run_sweep(app, first - 29 * MINUTE, deliver=False)
        assert report.reminders == seats and report.timeouts == 0

        def warned():
            """every reminder delivered, so counted as the warning"""
            return all(to_move(app, g.id).reminded_at is not None for g in made)

        wait_for(warned)
        assert run_sweep(app, first - MINUTE, deliver=False).timeouts == 0
        last = max(to_move(app, g.id).deadline for g in made)
        report = run_sweep(app, last + MINUTE, deliver=False)
        assert report.timeouts == seats and report.last_calls == 0
    finally:
        stop(sender)
        if server is not None:
            server.stop()


def test_a_reminder_that_never_left_is_no_warning(app, smtp):
    """The reminder is queued while the server is down: at the deadline it is
    no warning; a last call is queued, the clock stands still until it is
    delivered, then LAST_CALL_HOURS run from the delivery."""
    game = started_game(app, players=2, move_hours=1, reminders=(), tag="rw")
    in_db(app, lambda: outbox.deliver(app.config))  # the turn mail is out
    seat = to_move(app, game.id)
    assert seat.mail_hold_since is None
    up_port = app.config["SMTP_PORT"]
    app.config["SMTP_PORT"] = free_port()  # the server goes down

    assert run_sweep(app, seat.turn_started_at + 31 * MINUTE).reminders == 1
    assert in_db(app, lambda: outbox.deliver(app.config))["retry"] == 1
    assert to_move(app, game.id).reminded_at is None
    late = seat.turn_started_at + 61 * MINUTE
    report = run_sweep(app, late)
    assert (report.timeouts, report.last_calls) == (0, 1)
    waiting = to_move(app, game.id)
    assert waiting.mail_hold_since == late and waiting.reminded_at is None
    assert run_sweep(app, late + 5 * HOUR).timeouts == 0  # still nobody reached

    app.config["SMTP_PORT"] = up_port  # back after 6 hours
    back = late + 6 * HOUR
    sent = in_db(app, lambda: outbox.deliver(app.config, back))
    assert sent["sent"] == 2  # the reminder and the last call
    warned = to_move(app, game.id)
    assert abs(warned.reminded_at - back) < MINUTE and warned.mail_hold_since is None
    last_call = dt.timedelta(hours=app.config["LAST_CALL_HOURS"])
    assert abs(warned.deadline - (back + last_call)) < MINUTE
    assert run_sweep(app, back + last_call - 2 * MINUTE).timeouts == 0
    assert run_sweep(app, back + last_call + MINUTE).timeouts == 1
    assert len(smtp.to(seat.user.email)) >= 3  # turn mail, reminder, last call


def test_the_clock_holds_however_long_the_clock_is(app):
    """Not only short clocks: a 72-hour clock whose turn mail waits three
    days more than its length still does not time out."""
    game = started_game(app, players=2, move_hours=72, reminders=(6,), tag="long")
    seat = to_move(app, game.id)
    report = run_sweep(app, seat.deadline + 3 * 24 * HOUR, deliver=False)
    assert report.timeouts == 0 and report.reminders == 0
    assert to_move(app, game.id).mail_hold_since == seat.turn_started_at


def test_opening_the_game_runs_the_clock_and_the_late_mail_moves_it_no_more(app):
    """The player who opens the game page has been reached: the clock runs
    again (the time it stood still is given back once) and the turn mail
    that leaves later moves nothing."""
    game = started_game(app, players=2, move_hours=48, reminders=(24,), tag="seen")
    seat = to_move(app, game.id)
    stood = 30 * HOUR
    in_db(app, lambda: rewind(game.id, stood))
    rewound = to_move(app, game.id)
    run_sweep(app, utcnow(), deliver=False)  # the reminder is due: the clock holds
    assert to_move(app, game.id).mail_hold_since == rewound.turn_started_at

    url = Links.from_settings(app.config).seat_url(rewound)
    opened = utcnow()
    page = app.test_client().get(
        url.replace(app.config["PUBLIC_BASE_URL"], ""), follow_redirects=True
    )
    assert page.status_code == 200
    running = to_move(app, game.id)
    assert running.mail_hold_since is None
    assert (
        abs(running.deadline - (seat.deadline + (opened - rewound.turn_started_at) - stood))
        < MINUTE
    )
    in_db(app, lambda: outbox.deliver(app.config))
    assert to_move(app, game.id).deadline == running.deadline

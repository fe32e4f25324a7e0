"""Sweeps that run at the same time, a whole game of timeouts, a move
racing a timeout, and the scheduler as a process of its own."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import threading
import time

from clock_helpers import (
    HOUR,
    events,
    game_row,
    outbox,
    run_sweep,
    started_game,
    sweeps_at_once,
    to_move,
    user,
)
from race_helpers import while_open

from engine import get_game
from server.db import db
from server.models import Game, Outbox, Seat, User, utcnow
from server.services import moderation
from server.services.clock import reach, vacations
from server.services.clock.sweep import claim_due_seats, time_out
from server.services.moves import MoveRejected, play
from server.services.outbox import deliver as drain_outbox
from server.services.state_store import load_state

MINUTE = dt.timedelta(minutes=1)


def test_two_sweeps_at_once_send_each_reminder_once_and_time_out_each_seat_once(app):
    made = [started_game(app, players=2, tag=f"c{i}_") for i in range(16)]
    seats = [to_move(app, g.id) for g in made]
    now = max(s.deadline for s in seats) + HOUR
    with app.app_context(), db.connection_context():
        for i, s in enumerate(seats):
            if i % 2:  # reminder due, deadline still ahead
                Seat.update(deadline=now + 5 * HOUR, next_reminder_at=now - HOUR).where(
                    Seat.id == s.id
                ).execute()
            else:  # overdue, and reminded before (no last call)
                Seat.update(reminded_at=now - 2 * HOUR).where(Seat.id == s.id).execute()
    reports = sweeps_at_once(app, now)
    assert sum(r.timeouts for r in reports) == 8
    assert sum(r.reminders for r in reports) == 8
    assert len(outbox(app, "reminder")) == 8
    for i, (g, s) in enumerate(zip(made, seats)):
        timed_out = events(app, g.id, "timeout")
        if i % 2:
            assert timed_out == []
        else:
            assert {e.seat for e in timed_out} == {s.index}
            assert len([e for e in timed_out if e.seq == 1]) == 1


def test_a_turn_mail_sent_while_a_sweep_holds_its_clock_leaves_the_clock_running(app):
    """A sweep meets the turn mail still waiting and holds the seat's clock;
    a sender gets that mail out at the same moment.  Whichever writes first,
    the clock runs afterwards: the seat is locked while each looks (the
    race once left the clock standing still for good, and the game with it)."""
    for round_ in range(3):
        game = started_game(app, players=2, tag=f"h{round_}_")
        seat = to_move(app, game.id)
        now = utcnow()
        held, _ = while_open(
            app,
            lambda: reach.hold_while_waiting(Seat.get_by_id(seat.id), now),
            lambda: drain_outbox(app.config),
        )
        assert held
        (turn_mail,) = outbox(app, "turn", to=seat.user.email)
        assert turn_mail.status == "sent"
        assert to_move(app, game.id).mail_hold_since is None, "the clock stood still for good"


def test_a_seat_claimed_for_a_timeout_then_given_more_time_is_not_timed_out(app):
    """Between the sweep's claim and its timeout, a moderator extends the
    turn, or the absent player comes back: the timeout acts on the seat as
    it is then, not as it was claimed, and plays nothing."""
    mailer = app.extensions["pbem_mailer"]
    for how in ("extend", "come back"):
        game = started_game(app, players=2, tag=f"x{how[0]}_")
        seat = to_move(app, game.id)
        now = seat.deadline + HOUR
        with app.app_context(), db.connection_context():
            Seat.update(reminded_at=now - 2 * HOUR, absent=how == "come back").where(
                Seat.id == seat.id
            ).execute()
            Outbox.update(status="sent").where(Outbox.game == game.id).execute()
            (claimed,) = claim_due_seats(now, 5, now + MINUTE)
            if how == "extend":
                moderator = user(f"mod{game.id}@example.org", is_moderator=True)
                moderation.extend(
                    game.id,
                    moderator,
                    Game.get_by_id(game.id).seq,
                    5,
                    "asked by mail",
                    mailer=mailer,
                    now=now,
                )
            else:
                vacations.come_back(User.get_by_id(seat.user_id), now)
            assert time_out(app.config, mailer, claimed, now) == 0
            after = Seat.get_by_id(seat.id)
        assert events(app, game.id, "timeout") == []
        assert after.deadline > now and not after.absent and after.claimed_until is None


def test_a_game_where_every_seat_always_times_out_finishes(app, smtp, send_mail):
    for players in (2, 3):
        game = started_game(app, players=players, tag=f"t{players}_")
        now = utcnow()
        for sweeps in range(5000):
            if game_row(app, game.id).status != "active":
                break
            deadline = to_move(app, game.id).deadline
            run_sweep(app, max(now, deadline - MINUTE))  # the reminder
            now = max(now, deadline) + HOUR
            run_sweep(app, now)
        finished = game_row(app, game.id)
        assert finished.status == "finished" and finished.outcome["winners"]
        assert {e.actor for e in events(app, game.id)} == {"timeout"}
        with app.app_context(), db.connection_context():
            assert (
                Seat.select().where((Seat.game == game.id) & Seat.deadline.is_null(False)).count()
                == 0
            )
    while send_mail(app)["sent"]:  # SENDER_BATCH mails a drain
        pass
    assert any(
        "is over" in str(m.get_body(("plain",)).get_content()) for m in smtp.to("t3_0@example.org")
    )


def test_a_move_and_the_timeout_at_the_same_instant_one_wins(app):
    rules = get_game("puerto_rico")
    for round_ in range(4):
        game = started_game(app, players=2, tag=f"r{round_}_")
        seat = to_move(app, game.id)
        now = seat.deadline + HOUR
        with app.app_context(), db.connection_context():
            state = load_state(Game.get_by_id(game.id), save=False)
        action = rules.legal_actions(state, seat.index)[-1]
        barrier, outcome = threading.Barrier(2), {}

        def player():
            with app.app_context(), db.connection_context():
                barrier.wait()
                try:
                    play(
                        game.id,
                        seat.index,
                        action,
                        0,
                        "player",
                        now,
                        mailer=app.extensions["pbem_mailer"],
                    )
                    outcome["player"] = "won"
                except MoveRejected:
                    outcome["player"] = "lost"

        def scheduler():
            barrier.wait()
            outcome["sweep"] = run_sweep(app, now).timeouts

        threads = [threading.Thread(target=player), threading.Thread(target=scheduler)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        first = [e for e in events(app, game.id) if e.seq == 1]
        assert len(first) == 1
        if outcome["player"] == "won":
            assert first[0].actor == "player"
        else:
            assert first[0].actor == "timeout" and outcome["sweep"] == 1


def test_the_scheduler_process_plays_overdue_turns(sqlite_app, tmp_path):
    """``python -m server.processes.scheduler`` as its own process, on the same database."""
    app = sqlite_app
    game = started_game(app, players=2, tag="proc")
    seat = to_move(app, game.id)
    with app.app_context(), db.connection_context():
        Seat.update(deadline=utcnow() - HOUR, reminded_at=utcnow() - 2 * HOUR).where(
            Seat.id == seat.id
        ).execute()
        # The turn mail went out (until it has, the clock waits).
        Outbox.update(status="sent").where(Outbox.kind == "turn").execute()
    env = dict(
        os.environ,
        DATABASE_URL=app.config["DATABASE_URL"],
        PBEM_INSTANCE=app.config["INSTANCE_PATH"],
        SECRET_KEY="test-secret",
        SCHEDULER_INTERVAL="1",
        SMTP_PORT="1",
    )
    root = os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.processes.scheduler"],
        env=env,
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not events(app, game.id, "timeout"):
            time.sleep(0.3)
        assert events(app, game.id, "timeout"), "the scheduler process played nothing"
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert "sweeping every 1 s" in out
    assert proc.returncode in (0, -15)

"""Reminders and timeouts, driven by sweeps at injected times."""

from __future__ import annotations

import datetime as dt
import random

from clock_helpers import (
    HOUR,
    engine_state,
    events,
    game_row,
    outbox,
    random_move,
    run_sweep,
    started_game,
    sweep_past_deadline,
    to_move,
)
from conftest import make_app
from web_helpers import seat_link, text_of

from engine import get_game
from server.db import db
from server.models import Seat
from server.services.moves import play


def test_reminders_come_on_time_once_each_in_the_game_thread(app, smtp, send_mail):
    game = started_game(app, move_hours=48, reminders=(24, 6))
    seat = to_move(app, game.id)
    deadline = seat.deadline
    assert seat.next_reminder_at == deadline - 24 * HOUR
    assert run_sweep(app, deadline - 24 * HOUR - 60 * HOUR / 3600).reminders == 0
    assert run_sweep(app, deadline - 23 * HOUR).reminders == 1
    assert run_sweep(app, deadline - 23 * HOUR).reminders == 0  # never twice
    assert to_move(app, game.id).next_reminder_at == deadline - 6 * HOUR
    assert run_sweep(app, deadline - 5 * HOUR).reminders == 1
    assert to_move(app, game.id).next_reminder_at is None
    send_mail(app)
    mails = [m for m in smtp.to(seat.user.email) if "A reminder" in text_of(m)]
    assert len(mails) == 2
    assert mails[0]["In-Reply-To"] == game_row(app, game.id).thread_id
    assert "/s/" in seat_link(mails[0])
    assert (
        str(mails[0]["List-Unsubscribe"]).strip().startswith("<http://localhost/mail/unsubscribe/")
    )
    assert str(mails[0]["List-Unsubscribe-Post"]) == "List-Unsubscribe=One-Click"


def test_halfway_reminder_is_the_default_schedule(app):
    game = started_game(app, move_hours=72, reminders=(36, 6))
    seat = to_move(app, game.id)
    assert seat.deadline - seat.turn_started_at == 72 * HOUR
    assert seat.next_reminder_at == seat.turn_started_at + 36 * HOUR


def test_a_timeout_plays_the_default_action_and_mails_both_players(app, smtp, send_mail):
    game = started_game(app)
    seat = to_move(app, game.id)
    state = engine_state(app, game.id)
    expected = get_game("puerto_rico").default_action(state)
    assert run_sweep(app, seat.deadline - HOUR).timeouts == 0
    report = run_sweep(app, seat.deadline + HOUR)
    assert report.timeouts == 1
    played = events(app, game.id, "timeout")
    assert played[0].action == expected
    # The role's own decisions for the same seat (e.g. the settler's tile) are
    # part of the same turn and are played too.
    assert {e.seat for e in played} == {seat.index} and report.actions == len(played)
    nxt = to_move(app, game.id)
    assert nxt.index != seat.index and nxt.deadline == seat.deadline + HOUR + 48 * HOUR
    assert to_move(app, game.id).timeouts_in_row == 0
    send_mail(app)
    assert any("Your time ran out" in text_of(m) for m in smtp.to(seat.user.email))
    assert any("It is your turn" in text_of(m) for m in smtp.to(nxt.user.email))


def test_timeout_for_every_kind_of_puerto_rico_decision(smtp, tmp_path, sqlite_url):
    """Role choice, settler, mayor placement, builder, craftsman bonus, trader,
    captain loading and storage: each is auto-played when its deadline passes."""
    app = make_app(sqlite_url, smtp, tmp_path, ABSENT_AFTER_TIMEOUTS=10_000)
    rules = get_game("puerto_rico")
    wanted = {"role", "settler", "mayor", "builder", "craftsman", "trader", "captain", "storage"}
    covered, rnd = set(), random.Random(5)
    for tag in "abcdef":
        game = started_game(app, players=3, tag=tag)
        while game_row(app, game.id).status == "active" and covered != wanted:
            state = engine_state(app, game.id)
            if state.phase in covered:
                random_move(app, game.id, rnd)
                continue
            seat = to_move(app, game.id)
            expected = rules.default_action(state)
            before = len(events(app, game.id))
            assert sweep_past_deadline(app, game.id).timeouts == 1, state.phase
            first = events(app, game.id)[before]
            assert (first.actor, first.seat, first.action) == ("timeout", seat.index, expected)
            covered.add(state.phase)
        if covered == wanted:
            break
    assert covered == wanted


def test_one_timeout_covers_the_whole_turn_of_a_seat(app):
    """Several decisions in a row for one seat (captain phase, mayor): the
    clock does not restart for each, and one timeout plays all that are left."""
    game = started_game(app, players=3)
    rnd = random.Random(3)
    rules = get_game("puerto_rico")
    for _ in range(3000):
        seat = to_move(app, game.id)
        state = engine_state(app, game.id)
        after, _ = rules.apply(state, seat.index, rules.default_action(state))
        if rules.to_move(after) == seat.index:
            break
        random_move(app, game.id, rnd)
    else:
        raise AssertionError("no seat was asked twice in a row")
    deadline, seq = seat.deadline, game_row(app, game.id).seq
    with app.app_context(), db.connection_context():
        play(
            game.id,
            seat.index,
            rules.default_action(state),
            seq,
            "player",
            deadline - HOUR,
            mailer=app.extensions["pbem_mailer"],
        )
    again = to_move(app, game.id)
    assert again.id == seat.id and again.deadline == deadline  # the clock ran on
    before = len(events(app, game.id))
    report = sweep_past_deadline(app, game.id)
    assert report.timeouts == 1
    played = events(app, game.id)[before:]
    assert played and all(e.actor == "timeout" and e.seat == seat.index for e in played)
    assert to_move(app, game.id).index != seat.index or game_row(app, game.id).status != "active"


def test_a_player_who_moves_resets_the_timeout_count(app):
    game = started_game(app)
    first = to_move(app, game.id)
    sweep_past_deadline(app, game.id)
    with app.app_context(), db.connection_context():
        assert Seat.get_by_id(first.id).timeouts_in_row == 1
    while to_move(app, game.id).id != first.id:
        sweep_past_deadline(app, game.id)
    random_move(app, game.id, random.Random(1))
    with app.app_context(), db.connection_context():
        assert Seat.get_by_id(first.id).timeouts_in_row == 0


def test_catch_up_after_downtime_warns_first_then_times_out_in_deadline_order(app):
    """The scheduler was down for days (and the outage guard is off): every
    game is overdue and nobody was reminded.  Every seat gets at least one
    reminder before a timeout, so the first sweep sends one last
    call per seat, oldest deadline first, and gives LAST_CALL_HOURS more; the
    sweep after that plays the timeouts."""
    made = [started_game(app, tag=t) for t in "pqr"]
    seats = [to_move(app, g.id) for g in made]
    # Stagger the deadlines: r is the oldest, then p, then q.
    order = {made[2].id: 0, made[0].id: 1, made[1].id: 2}
    with app.app_context(), db.connection_context():
        base = seats[0].deadline
        for g, s in zip(made, seats):
            Seat.update(deadline=base + order[g.id] * HOUR, next_reminder_at=base - HOUR).where(
                Seat.id == s.id
            ).execute()
    back = base + 10 * 24 * HOUR
    report = run_sweep(app, back)
    assert (report.timeouts, report.last_calls, report.reminders) == (0, 3, 0)
    calls = outbox(app, "reminder")
    assert len(calls) == 3 and all(m.body_text.startswith("Last call") for m in calls)
    owners = {s.user.email: g.id for g, s in zip(made, seats)}
    assert [owners[m.to_addr] for m in calls] == sorted(order, key=order.get)
    last_call = dt.timedelta(hours=app.config["LAST_CALL_HOURS"])
    for g in made:
        assert to_move(app, g.id).deadline == back + last_call
    assert run_sweep(app, back + last_call - dt.timedelta(minutes=1)).timeouts == 0
    report = run_sweep(app, back + last_call)
    assert (report.timeouts, report.last_calls) == (3, 0)
    assert all(events(app, g.id, "timeout") for g in made)
    assert len(outbox(app, "reminder")) == 3  # no more reminders than the last calls


def test_a_game_without_a_reminder_schedule_still_warns_once(app):
    """Every seat gets at least one reminder before a timeout, unless the
    player turned reminders off themselves, so a game made with no
    reminder hours reminds halfway."""
    game = started_game(app, players=2, move_hours=48, reminders=(), tag="nr")
    seat = to_move(app, game.id)
    assert seat.next_reminder_at == seat.deadline - 24 * HOUR
    assert run_sweep(app, seat.next_reminder_at + HOUR).reminders == 1
    assert len(outbox(app, "reminder")) == 1

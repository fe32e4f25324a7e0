"""The seat clock's one rule of when a seat is due: ``is_due`` (the check
under lock before a timeout acts) and ``due_condition`` (the sweep's SQL)
agree on every mix of the columns they read, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import random

from clock_helpers import HOUR, started_game

from server.db import db
from server.models import Game, Seat, utcnow
from server.services.clock import seat_clock


def random_clock(rnd: random.Random, now: dt.datetime) -> tuple[dict, dict]:
    """Game and seat columns around the edges the rule cares about."""
    game = {
        "status": rnd.choice(["open", "active", "active", "finished"]),
        "paused": rnd.random() < 0.3,
        "to_move": rnd.choice([0, 1, None]),
    }
    seat = {
        "deadline": rnd.choice([None, now - HOUR, now, now + HOUR]),
        "mail_hold_since": rnd.choice([None, None, now - 2 * HOUR]),
    }
    return game, seat


def test_the_python_rule_and_the_sql_rule_agree(app):
    game = started_game(app, players=2)
    rnd = random.Random(5)
    now = utcnow().replace(microsecond=0)
    seen = set()
    with app.app_context(), db.connection_context():
        for _ in range(150):
            game_columns, seat_columns = random_clock(rnd, now)
            Game.update(**game_columns).where(Game.id == game.id).execute()
            Seat.update(**seat_columns).where(Seat.game == game.id).execute()
            row = Game.get_by_id(game.id)
            by_python = {
                s.id
                for s in Seat.select().where(Seat.game == game.id)
                if seat_clock.is_due(row, s, now)
            }
            by_sql = {
                s.id
                for s in Seat.select(Seat.id)
                .join(Game)
                .where((Seat.game == game.id) & seat_clock.due_condition(now))
            }
            assert by_python == by_sql, (game_columns, seat_columns)
            seen.add(bool(by_python))
    assert seen == {True, False}  # both answers came up


def test_a_held_clock_is_not_due_and_runs_on_by_the_time_it_stood(app):
    game = started_game(app, players=2, move_hours=24)
    with app.app_context(), db.connection_context():
        row = Game.get_by_id(game.id)
        seat = Seat.get((Seat.game == game.id) & (Seat.index == row.to_move))
        late = seat.deadline + HOUR
        assert seat_clock.is_due(row, seat, late)
        assert seat_clock.hold(seat.id, seat.deadline - 2 * HOUR)
        assert not seat_clock.hold(seat.id, seat.deadline)  # already standing still
        held = Seat.get_by_id(seat.id)
        assert not seat_clock.is_due(row, held, late)
        assert seat_clock.release(held.id, late)
        running = Seat.get_by_id(seat.id)
        assert running.deadline == seat.deadline + 3 * HOUR  # it stood 3 hours
        assert not seat_clock.is_due(row, running, late)


def test_the_clock_columns_are_seat_columns():
    assert set(seat_clock.CLOCK_COLUMNS) <= set(Seat._meta.fields)

"""A crowd of active games, inserted in bulk: for the scheduler benchmark and
for the tests that need hundreds of overdue seats at once."""

from __future__ import annotations

import datetime as dt

from engine import get_game
from server.db import db
from server.models import Game, Seat, User

SEED, USERS = 4242, 2000
# PostgreSQL takes at most 65,535 parameters in one statement; SQLite 32,766.
PARAMETERS = 30_000


def insert(model, rows: list[dict]) -> None:
    """``rows`` in as few INSERTs as the parameter limit allows.  peewee
    sends a parameter for every column that has a default, not only the keys
    given, so a row costs as many parameters as the model has columns."""
    if not rows:
        return
    columns = max(len(rows[0]), len(model._meta.sorted_fields))
    per_insert = max(1, PARAMETERS // columns)
    for start in range(0, len(rows), per_insert):
        model.insert_many(rows[start : start + per_insert]).execute()


def fill(games: int, due: int, now: dt.datetime, users: int = USERS) -> None:
    """``games`` two-player Puerto Rico games at their first decision; in the
    first ``due`` of them the seat to move is past its deadline, and was
    reminded before it (no last call: services/clock/sweep.py)."""
    rules = get_game("puerto_rico")
    state = rules.new_game(2, {}, SEED)
    first, prompt = rules.to_move(state), rules.prompt(state)
    confirmed = dt.datetime(2026, 1, 1)
    with db.atomic():
        insert(
            User,
            [
                {
                    "email": f"u{i}@example.org",
                    "name": f"U{i}",
                    "password_hash": "x",
                    "session_token": f"t{i}",
                    "email_verified_at": confirmed,
                }
                for i in range(users)
            ],
        )
    for start in range(0, games, 5000):
        ids = range(start, min(games, start + 5000))
        with db.atomic():
            insert(
                Game,
                [
                    {
                        "kind": "puerto_rico",
                        "name": f"G{i}",
                        "host": 1 + i % users,
                        "status": "active",
                        "seat_count": 2,
                        "options": {},
                        "seed": SEED,
                        "to_move": first,
                        "prompt": prompt,
                        "move_hours": 72,
                        "reminder_hours": [36, 6],
                        "thread_id": f"<t{i}@bench>",
                        "started_at": now,
                    }
                    for i in ids
                ],
            )
            insert(
                Seat,
                [
                    {
                        "game": i + 1,
                        "index": k,
                        "user": 1 + (i + k) % users,
                        "joined_at": now,
                        "deadline": (
                            now - dt.timedelta(hours=1 + i % 7)
                            if i < due
                            else now + dt.timedelta(hours=1 + i % 70)
                        )
                        if k == first
                        else None,
                        "reminded_at": now - dt.timedelta(hours=8)
                        if k == first and i < due
                        else None,
                        "turn_started_at": now - dt.timedelta(hours=72) if k == first else None,
                    }
                    for i in ids
                    for k in range(2)
                ],
            )

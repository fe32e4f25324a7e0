"""The scheduler's sweep on a large SQLite database.

Fills a fresh SQLite file with N active two-player Puerto Rico games of
which D have a seat past its deadline, then times one sweep (which plays the
D timeouts, writes their log rows and snapshots and queues their mails) and
an empty sweep.  Run with several sizes to see that the cost follows the
number due, not the number of games:

    .venv/bin/python bench/scheduler_sweep.py                 # 100,000 games, 1,000 due
    .venv/bin/python bench/scheduler_sweep.py --sizes 10000:1000 100000:100 100000:1000
"""
from __future__ import annotations

import argparse
import datetime as dt
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game  # noqa: E402
from server import settings as settings_module  # noqa: E402
from server.db import bind, db, make_database, migrate  # noqa: E402
from server.mail import Mailer  # noqa: E402
from server.models import Game, Outbox, Seat, User  # noqa: E402
from server.sweeps import due_seats_query, sweep  # noqa: E402

SEED, USERS = 4242, 2000


def fill(games: int, due: int, now: dt.datetime) -> None:
    rules = get_game("puerto_rico")
    state = rules.new_game(2, {}, SEED)
    first, prompt = rules.to_move(state), rules.prompt(state)
    with db.atomic():
        User.insert_many([{"email": f"u{i}@example.org", "name": f"U{i}", "password_hash": "x",
                           "session_token": f"t{i}"} for i in range(USERS)]).execute()
    for start in range(0, games, 5000):
        ids = range(start, min(games, start + 5000))
        with db.atomic():
            Game.insert_many([{
                "kind": "puerto_rico", "name": f"G{i}", "host": 1 + i % USERS,
                "status": "active", "seat_count": 2, "options": {}, "seed": SEED,
                "to_move": first, "prompt": prompt, "move_hours": 72,
                "reminder_hours": [36, 6], "thread_id": f"<t{i}@bench>",
                "started_at": now} for i in ids]).execute()
            Seat.insert_many([{
                "game": i + 1, "index": k, "user": 1 + (i + k) % USERS, "joined_at": now,
                "deadline": (now - dt.timedelta(hours=1 + i % 7) if i < due
                             else now + dt.timedelta(hours=1 + i % 70)) if k == first else None,
                "turn_started_at": now - dt.timedelta(hours=72) if k == first else None}
                for i in ids for k in range(2)]).execute()


def run(games: int, due: int) -> None:
    now = dt.datetime(2026, 11, 23, 12, 0)
    with tempfile.TemporaryDirectory() as tmp:
        settings = settings_module.load(overrides={
            "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "SECRET_KEY": "bench",
            "INSTANCE_PATH": tmp, "PUBLIC_BASE_URL": "http://localhost"})
        database = make_database(settings["DATABASE_URL"], settings)
        bind(database)
        migrate(database)
        with database.connection_context():
            t0 = time.perf_counter()
            fill(games, due, now)
            t_fill = time.perf_counter() - t0
            sql, params = due_seats_query(now).sql()
            plan = database.execute_sql("EXPLAIN QUERY PLAN " + sql, params).fetchall()
            mailer = Mailer(settings)
            t0 = time.perf_counter()
            report = sweep(settings, mailer, now, batch=500)
            t_sweep = time.perf_counter() - t0
            t0 = time.perf_counter()
            again = sweep(settings, mailer, now, batch=500)
            t_empty = time.perf_counter() - t0
            mails = Outbox.select().count()
    uses_index = "USING INDEX seat_deadline" in str(plan[0])
    print(f"{games:>7} games, {due:>5} due: sweep {t_sweep:7.2f} s "
          f"({t_sweep / max(report.timeouts, 1) * 1000:6.2f} ms per timeout, "
          f"{report.timeouts} timeouts, {report.actions} actions, {mails} mails); "
          f"empty sweep {t_empty * 1000:6.1f} ms ({again.timeouts} timeouts); "
          f"due-seat query uses the deadline index: {uses_index}; fill {t_fill:5.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", nargs="*", default=["100000:1000"],
                    help="games:due pairs")
    for pair in ap.parse_args().sizes:
        games, due = (int(x) for x in pair.split(":"))
        run(games, due)


if __name__ == "__main__":
    main()

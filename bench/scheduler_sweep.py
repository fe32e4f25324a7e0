"""The scheduler's sweep on a large SQLite database.

Fills a fresh SQLite file with N active two-player Puerto Rico games of
which D have a seat past its deadline, then times one sweep (which plays the
D timeouts, writes their log rows and snapshots and queues their mails) and
an empty sweep; then, on the same database, plays as many player moves (the
default action, through the same ``moves.play`` a move page calls) and prints
the cost of a timeout against the cost of a move.  Run with several sizes to
see that the cost follows the number due, not the number of games:

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

from bench.crowd import fill  # noqa: E402
from server import settings as settings_module  # noqa: E402
from server.db import bind, make_database, migrate  # noqa: E402
from server.mail.compose import Mailer  # noqa: E402
from server.models import Game, Outbox  # noqa: E402
from server.services.moves import play  # noqa: E402
from server.services.state_store import load_state, rules  # noqa: E402
from server.services.sweep import due_seats_query, sweep  # noqa: E402


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
            t_move = time_moves(mailer, range(due + 1, due + 1 + due), now)
    uses_index = "USING INDEX seat_deadline" in str(plan[0])
    per_timeout = t_sweep / max(report.timeouts, 1) * 1000
    print(f"{games:>7} games, {due:>5} due: sweep {t_sweep:7.2f} s "
          f"({per_timeout:6.2f} ms per timeout, "
          f"{report.timeouts} timeouts, {report.actions} actions, {mails} mails); "
          f"empty sweep {t_empty * 1000:6.1f} ms ({again.timeouts} timeouts); "
          f"due-seat query uses the deadline index: {uses_index}; fill {t_fill:5.1f} s")
    print(f"{'':>7} a player's move {t_move * 1000:6.2f} ms; a timeout costs "
          f"{per_timeout / (t_move * 1000):4.2f} moves (goal: at most 1.5)")


def time_moves(mailer: Mailer, game_ids, now: dt.datetime) -> float:
    """Seconds per player move: the seat to move plays the default action.
    Only ``play`` is timed: a move page reads the game to draw the form
    before the player sends it."""
    spent, played = 0.0, 0
    for game_id in game_ids:
        game = Game.get_by_id(game_id)
        action = rules(game).default_action(load_state(game, save=False))
        t0 = time.perf_counter()
        play(game_id, game.to_move, action, game.seq, "player", now, mailer=mailer)
        spent += time.perf_counter() - t0
        played += 1
    return spent / max(played, 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", nargs="*", default=["100000:1000"],
                    help="games:due pairs")
    for pair in ap.parse_args().sizes:
        games, due = (int(x) for x in pair.split(":"))
        run(games, due)


if __name__ == "__main__":
    main()

"""The scheduler's sweep on a large database, SQLite or PostgreSQL.

Fills a fresh SQLite file (or a schema of its own on PostgreSQL) with N
active two-player Puerto Rico games of which D have a seat past its
deadline, then times (in CPU: this process and, on PostgreSQL, its
backend) one sweep (which plays the
D timeouts, writes their log rows and snapshots and queues their mails) and
an empty sweep; then, on the same database, plays as many player moves (the
default action, through the same ``moves.play`` a move page calls) and prints
the cost of a timeout against the cost of a move.  Run with several sizes to
see that the cost follows the number due, not the number of games:

    .venv/bin/python bench/scheduler_sweep.py                 # 10,000 games, 100 due
    .venv/bin/python bench/scheduler_sweep.py --sizes 10000:1000 100000:100 100000:1000
    .venv/bin/python bench/scheduler_sweep.py --database postgresql --sizes 100000:1000
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.crowd import fill  # noqa: E402
from server import settings as settings_module  # noqa: E402
from server.db import bind, db, make_database, migrate  # noqa: E402
from server.mail.compose import Mailer  # noqa: E402
from server.models import Game, Outbox  # noqa: E402
from server.services.clock.sweep import due_seats_query, sweep  # noqa: E402
from server.services.moves import play  # noqa: E402
from server.services.state_store import load_state, rules, save_snapshot  # noqa: E402

PG = "postgresql://postgres@127.0.0.1:5432/test"


def run(games: int, due: int, backend: str) -> None:
    now = dt.datetime(2026, 11, 23, 12, 0)
    with tempfile.TemporaryDirectory() as tmp:
        schema = f"sweep_{os.getpid()}_{games}_{due}"
        if backend == "sqlite":
            url = f"sqlite:///{tmp}/bench.sqlite3"
        else:
            admin = make_database(os.environ.get("PBEM_BENCH_PG", PG))
            admin.execute_sql(f"CREATE SCHEMA {schema}")
            url = f"{os.environ.get('PBEM_BENCH_PG', PG)}?schema={schema}"
        settings = settings_module.load(
            overrides={
                "DATABASE_URL": url,
                "SECRET_KEY": "bench",
                "INSTANCE_PATH": tmp,
                "PUBLIC_BASE_URL": "http://localhost",
            }
        )
        database = make_database(settings["DATABASE_URL"], settings)
        bind(database)
        migrate(database)
        try:
            with database.connection_context():
                timed = sweep_and_moves(database, settings, games, due, now, backend)
        finally:
            if backend != "sqlite":
                database.close()
                admin.execute_sql(f"DROP SCHEMA {schema} CASCADE")
    report(games, due, backend, *timed)


def sweep_and_moves(
    database, settings, games: int, due: int, now: dt.datetime, backend: str
) -> tuple:
    """CPU seconds to fill, to sweep, to sweep again (nothing due), a player's
    move; the sweep's report and the second's, the mails queued, and
    whether the due-seat query uses the deadline index."""
    cpu = CpuClock(database, backend)
    t0 = cpu()
    fill(games, due, now)
    snapshots(range(1, 1 + 2 * due))
    t_fill = cpu() - t0
    if backend != "sqlite":
        database.execute_sql("ANALYZE")
    sql, params = due_seats_query(now).sql()
    explain = "EXPLAIN QUERY PLAN " if backend == "sqlite" else "EXPLAIN "
    plan = " ".join(str(row) for row in database.execute_sql(explain + sql, params).fetchall())
    mailer = Mailer(settings)
    t0 = cpu()
    swept = sweep(settings, mailer, now, batch=500)
    t_sweep = cpu() - t0
    t0 = cpu()
    again = sweep(settings, mailer, now, batch=500)
    t_empty = cpu() - t0
    mails = Outbox.select().count()
    t_move = time_moves(mailer, range(due + 1, due + 1 + due), now, cpu)
    return t_fill, t_sweep, t_empty, t_move, swept, again, mails, "seat_deadline" in plan


def snapshots(game_ids) -> None:
    """The snapshot at seq 0 a game gets as it starts (services/games.py),
    for the games the bench times out and moves in: without it both would
    replay the log and insert one, which no started game does."""
    with db.atomic():
        for game_id in game_ids:
            game = Game.get_by_id(game_id)
            kind = rules(game)
            save_snapshot(game, kind, kind.new_game(game.seat_count, game.options, game.seed), 0)


class CpuClock:
    """CPU seconds so far of this process and, on PostgreSQL, of the backend
    serving its connection (/proc/<pid>/stat): other work on a shared
    machine does not count."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, database, backend: str):
        self.backend_pid = (
            database.execute_sql("SELECT pg_backend_pid()").fetchone()[0]
            if backend != "sqlite"
            else None
        )

    def __call__(self) -> float:
        used = time.process_time()
        if self.backend_pid is not None:
            stat = Path(f"/proc/{self.backend_pid}/stat").read_text()
            used += sum(int(f) for f in stat[stat.rindex(")") + 2 :].split()[11:13]) / self.TICK
        return used


def report(
    games: int,
    due: int,
    backend: str,
    t_fill: float,
    t_sweep: float,
    t_empty: float,
    t_move: float,
    swept,
    again,
    mails: int,
    uses_index: bool,
) -> None:
    per_timeout = t_sweep / max(swept.timeouts, 1) * 1000
    print(
        f"{backend}: {games:>7} games, {due:>5} due: sweep {t_sweep:7.2f} CPU s "
        f"({per_timeout:6.2f} ms per timeout, "
        f"{swept.timeouts} timeouts, {swept.actions} actions, {mails} mails); "
        f"empty sweep {t_empty * 1000:6.1f} ms ({again.timeouts} timeouts); "
        f"due-seat query uses the deadline index: {uses_index}; fill {t_fill:5.1f} s"
    )
    print(
        f"{'':>7} a player's move {t_move * 1000:6.2f} ms; a timeout costs "
        f"{per_timeout / (t_move * 1000):4.2f} moves (goal: at most 1.5)"
    )


def time_moves(mailer: Mailer, game_ids, now: dt.datetime, cpu) -> float:
    """CPU seconds per player move: the seat to move plays the default action.
    Only ``play`` is timed: a move page reads the game to draw the form
    before the player sends it."""
    spent, played = 0.0, 0
    for game_id in game_ids:
        game = Game.get_by_id(game_id)
        action = rules(game).default_action(load_state(game, save=False))
        t0 = cpu()
        play(game_id, game.to_move, action, game.seq, "player", now, mailer=mailer)
        spent += cpu() - t0
        played += 1
    return spent / max(played, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", nargs="*", default=["10000:100"], help="games:due pairs")
    ap.add_argument(
        "--database",
        choices=["sqlite", "postgresql"],
        default="sqlite",
        help="a fresh SQLite file, or a schema of its own on the machine's "
        "PostgreSQL ($PBEM_BENCH_PG)",
    )
    args = ap.parse_args()
    for pair in args.sizes:
        games, due = (int(x) for x in pair.split(":"))
        run(games, due, args.database)


if __name__ == "__main__":
    main()

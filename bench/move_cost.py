"""What one move costs inside a web worker: SQL statements and CPU time for the
move POST and the game page it redirects to, measured in-process through the
Flask test client (no network, no gunicorn), on PostgreSQL or SQLite.

Plays ``--games`` two-player Puerto Rico games to the end with random moves
through their seat links, as bench/http_moves.py does over HTTP, and prints
per move: statements (median, split into the POST and the page), CPU ms
(median, p90, mean), and with ``--profile`` the functions that take the time.
The deals and the moves follow ``--seed``: two checkouts given the same seed
play the same games, so their figures compare move for move.

    .venv/bin/python bench/move_cost.py                       # PostgreSQL, 5 games
    .venv/bin/python bench/move_cost.py --database sqlite --profile
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
from html import unescape
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.server_move_roundtrip import percentile  # noqa: E402
from server import create_app  # noqa: E402
from server.db import db, make_database, migrate  # noqa: E402
from server.models import Game, Seat, User, utcnow  # noqa: E402
from server.services import games as lobby  # noqa: E402

PG = "postgresql://postgres@127.0.0.1:5432/test"
FORM = re.compile(r'<form[^>]*action="(/games/\d+/move)"(.*?)</form>', re.S)


class StatementCounter:
    """Counts the statements a peewee database executes."""

    def __init__(self, database):
        self.count = 0
        self.backends: set[int] = set()  # the PostgreSQL backends that served them
        original = database.execute_sql

        def counted(sql, params=None, *args, **kwargs):
            self.count += 1
            cursor = original(sql, params, *args, **kwargs)
            info = getattr(database.connection(), "info", None)  # psycopg's, not sqlite3's
            if info is not None:
                self.backends.add(info.backend_pid)
            return cursor

        database.execute_sql = counted


def backend_cpu(pids) -> float:
    """CPU seconds the PostgreSQL backends ``pids`` used so far (the database
    runs on this machine: /proc/<pid>/stat, utime + stime)."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def move_form(html: str):
    form = FORM.search(html)
    if not form:
        return None
    inner = form.group(2)
    csrf = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', inner).group(1)
    seq = re.search(r'name="seq"[^>]*value="([^"]+)"', inner).group(1)
    actions = [
        unescape(v) for v in re.findall(r'<button[^>]*name="action"[^>]*value="([^"]*)"', inner)
    ]
    return form.group(1), csrf, seq, actions


def make_games(count: int, mailer) -> list[int]:
    now = utcnow()
    ids = []
    for n in range(count):
        a, b = (
            User.create(
                email=f"{x}{n}@bench.example",
                name=f"{x.upper()}{n}",
                password_hash="-",
                email_verified_at=now,
            )
            for x in "ab"
        )
        game = lobby.create_game(a, "puerto_rico", f"cost {n}", 2, {}, 48, [24, 6], mailer)
        lobby.join(game.id, b, 1)
        lobby.start(game.id, a, mailer)
        ids.append(game.id)
    return ids


def play_games(app, game_ids, counter, profiler, rnd) -> list[tuple[int, int, float, float]]:
    """(statements in the POST, statements in the page, CPU seconds, CPU
    seconds of the POST alone) per move."""
    links = app.extensions["pbem_mailer"].links
    clients = {}
    costs = []
    backends = counter.post_backend_cpu = []
    with app.app_context():
        seats = list(Seat.select().where(Seat.game.in_(game_ids)))
        for seat in seats:
            client = app.test_client()
            client.get(f"/s/{links.seat_token(seat)}")
            clients[(seat.game_id, seat.index)] = client
    pages = {key: c.get(f"/games/{key[0]}").get_data(as_text=True) for key, c in clients.items()}
    active = set(game_ids)
    while active:
        for game_id in sorted(active):
            with app.app_context():
                game = Game.get_by_id(game_id)
                to_move, over = game.to_move, game.status == "finished"
            if over:
                active.discard(game_id)
                continue
            client = clients[(game_id, to_move)]
            page = client.get(f"/games/{game_id}")
            if page.status_code == 302:
                # A seat link's session lasts for its turn; the next turn
                # mail brings a new link (as players follow in http_moves.py).
                with app.app_context():
                    seat = Seat.get((Seat.game == game_id) & (Seat.index == to_move))
                    client.get(f"/s/{links.seat_token(seat)}")
                page = client.get(f"/games/{game_id}")
            form = move_form(page.get_data(as_text=True))
            url, csrf, seq, actions = form
            data = {"csrf_token": csrf, "seq": seq, "action": rnd.choice(actions)}
            counter.count = 0
            backend_before = backend_cpu(counter.backends)
            started = time.process_time()
            if profiler:
                profiler.enable()
            answer = client.post(url, data=data)
            posted = counter.count
            post_cpu = time.process_time() - started
            backends.append(backend_cpu(counter.backends) - backend_before)
            started += time.process_time() - started - post_cpu  # not the reading of /proc
            page = client.get(answer.headers["Location"])
            if profiler:
                profiler.disable()
            costs.append((posted, counter.count - posted, time.process_time() - started, post_cpu))
            assert page.status_code == 200, page.status_code
    del pages
    return costs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument(
        "--database",
        default="postgresql",
        help="postgresql (the machine's, in a schema of its own) or sqlite",
    )
    ap.add_argument("--seed", type=int, default=1, help="of the deals and the moves")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument(
        "--post",
        action="store_true",
        help="also print the CPU of the move POST alone (without the page)",
    )
    ap.add_argument(
        "--profile-out",
        metavar="FILE",
        help="with --profile: also save the profile (pstats) to FILE",
    )
    args = ap.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="pbem-cost-"))
    schema = f"cost_{os.getpid()}"
    if args.database == "sqlite":
        url = f"sqlite:///{workdir / 'cost.sqlite3'}"
    else:
        admin = make_database(os.environ.get("PBEM_BENCH_PG", PG))
        admin.execute_sql(f"CREATE SCHEMA {schema}")
        url = f"{os.environ.get('PBEM_BENCH_PG', PG)}?schema={schema}"
    app = create_app(
        {
            "DATABASE_URL": url,
            "INSTANCE_PATH": str(workdir),
            "SECRET_KEY": "cost",
            "PUBLIC_BASE_URL": "http://bench.localhost",
            "MAIL_CATCHER_DIR": "",
            "DATABASE_POOL_MAX": 4,
        }
    )
    # The same deals on every run with this seed (the server draws them from secrets).
    lobby.secrets = SimpleNamespace(randbits=random.Random(args.seed).getrandbits)
    try:
        with app.app_context():
            migrate(db.obj)
            game_ids = make_games(args.games, app.extensions["pbem_mailer"])
        counter = StatementCounter(db.obj)
        profiler = cProfile.Profile(time.process_time) if args.profile else None  # CPU, not waits
        costs = play_games(app, game_ids, counter, profiler, random.Random(args.seed))
    finally:
        if args.database != "sqlite":
            db.obj.close_all() if hasattr(db.obj, "close_all") else None
            admin.execute_sql(f"DROP SCHEMA {schema} CASCADE")
    report(args, costs, profiler, counter.post_backend_cpu)


def report(args, costs, profiler, backend_cpu) -> None:
    posts, pages, cpu, post_cpu = zip(*costs)
    print(
        f"{len(costs)} moves in {args.games} two-player games on {args.database}, "
        "Flask test client, one process"
    )
    print(
        f"  statements per move: median {statistics.median(posts):.0f} in the POST "
        f"+ {statistics.median(pages):.0f} in the page"
    )
    print(
        f"  CPU per move (POST + page): median {percentile(cpu, 50) * 1000:.1f} ms, "
        f"p90 {percentile(cpu, 90) * 1000:.1f} ms, mean {statistics.mean(cpu) * 1000:.2f} ms"
    )
    if args.post:
        print(
            f"  CPU per move POST alone: median {percentile(post_cpu, 50) * 1000:.1f} ms, "
            f"p90 {percentile(post_cpu, 90) * 1000:.1f} ms, "
            f"mean {statistics.mean(post_cpu) * 1000:.2f} ms"
        )
        if backend_cpu:
            # /proc counts in clock ticks (10 ms): only the mean over many moves means anything.
            print(
                f"  PostgreSQL CPU per move POST: mean {statistics.mean(backend_cpu) * 1000:.2f} ms"
            )
    if profiler:
        if args.profile_out:
            profiler.dump_stats(args.profile_out)
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(40)
        stats.sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()

"""Bytes a finished game takes on PostgreSQL, per table, before and after
the retention window (services/retention.py).

Plays one 4-player Puerto Rico game to the end through the services
(random legal moves as players, the turn mails written by the moves and
sent through a local SMTP sink, so the outbox rows are what a site keeps),
in a schema of its own.  Then VACUUM FULL and pg_total_relation_size of
every table (heap, TOAST and indexes); then a purge as of the day after the
longest window, VACUUM FULL and the same again.  "Per game" is the database
with ``--games`` games minus the same migrated schema empty, divided by the
games (each table and index has a page or two even when empty, so one game
alone would be mostly those pages); 100,000 games is that times 100,000.
VACUUM FULL keeps row versions that a transaction still open anywhere in
the database may see: give it a database of its own (``--url``), or a test
run beside it leaves the purged versions in the "after" figures.

    .venv/bin/python bench/storage.py
    .venv/bin/python bench/storage.py --seed 3 --url postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import socket
import sys
from pathlib import Path

from aiosmtpd.controller import Controller

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server import create_app  # noqa: E402
from server.db import db, make_database, migrate  # noqa: E402
from server.models import Game, User, utcnow  # noqa: E402
from server.services import games, retention  # noqa: E402
from server.services.moves import play  # noqa: E402
from server.services.outbox import deliver  # noqa: E402
from server.services.state_store import load_state, rules  # noqa: E402

KIB = 1024


class Sink:
    async def handle_DATA(self, server, session, envelope):
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def play_one_game(app, seed: int, tag: int) -> tuple[int, int]:
    """A finished 4-player game; (moves, mails sent)."""
    rnd, mailer = random.Random(seed), app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        people = [
            User.create(
                email=f"player{tag}-{i}@example.org",
                name=f"Player {i + 1}",
                password_hash="x" * 100,  # a scrypt hash's length
                email_verified_at=utcnow(),
            )
            for i in range(4)
        ]
        game = games.create_game(people[0], "puerto_rico", "Storage", 4, {}, 48, [24, 6], mailer)
        for i, person in enumerate(people[1:], start=1):
            games.join(game.id, person, i)
        games.start(game.id, people[0], mailer)
        moves = sent = 0
        while (game := Game.get_by_id(game.id)).status == "active":
            state = load_state(game)
            action = rnd.choice(rules(game).legal_actions(state, game.to_move))
            play(game.id, game.to_move, action, game.seq, "player", mailer=mailer)
            moves += 1
            while batch := deliver(app.config)["sent"]:
                sent += batch
        return moves, sent


def table_sizes(database) -> dict[str, int]:
    tables = database.execute_sql(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    ).fetchall()
    for (table,) in tables:  # this schema's only: other runs may share the database
        database.execute_sql(f'VACUUM FULL "{table}"')
    rows = database.execute_sql(
        "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE c.relkind = 'r' AND n.nspname = current_schema()"
    ).fetchall()
    return dict(rows)


def fresh_schema(url: str, name: str) -> str:
    admin = make_database(url)
    with admin.connection_context():
        admin.execute_sql(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        admin.execute_sql(f"CREATE SCHEMA {name}")
    return f"{url}?schema={name}"


def drop_schema(url: str, name: str) -> None:
    admin = make_database(url)
    with admin.connection_context():
        admin.execute_sql(f"DROP SCHEMA IF EXISTS {name} CASCADE")


def report(empty: dict, before: dict, after: dict, count: int) -> None:
    print(f"{'table':<22}{'before KiB':>12}{'after KiB':>12}")
    for name in sorted(before, key=lambda n: -before[n]):
        if before[name] - empty.get(name, 0) or after[name] - empty.get(name, 0):
            game_before = (before[name] - empty.get(name, 0)) / KIB / count
            game_after = (after[name] - empty.get(name, 0)) / KIB / count
            print(f"{name:<22}{game_before:>12.1f}{game_after:>12.1f}")
    totals = [sum(sizes.values()) for sizes in (empty, before, after)]
    per_game = [(t - totals[0]) / KIB / count for t in totals[1:]]
    print(f"{'per game':<22}{per_game[0]:>12.1f}{per_game[1]:>12.1f}")
    print(
        f"whole database with {count} game(s): {totals[1] / KIB:.0f} KiB before, "
        f"{totals[2] / KIB:.0f} KiB after (empty schema {totals[0] / KIB:.0f} KiB)"
    )
    for label, kib in zip(("before", "after"), per_game):
        print(f"100,000 finished games {label} the window: {kib * 100_000 / KIB / KIB:.1f} GiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=3, help="games played; sizes are per game")
    args = parser.parse_args()
    schema = f"pbem_storage_{os.getpid()}"
    port = free_port()
    sink = Controller(Sink(), hostname="127.0.0.1", port=port)
    sink.start()
    try:
        app = create_app(
            {
                "DATABASE_URL": fresh_schema(args.url, schema),
                "SECRET_KEY": "bench",
                "SMTP_HOST": "127.0.0.1",
                "SMTP_PORT": port,
                "DATABASE_POOL_MAX": 0,
                "INSTANCE_PATH": f"/tmp/{schema}",
            }
        )
        with app.app_context():
            migrate()
            with db.connection_context():
                empty = table_sizes(db.obj)
            moves = sent = 0
            for tag in range(args.games):
                played = play_one_game(app, args.seed + tag, tag)
                moves, sent = moves + played[0], sent + played[1]
            with db.connection_context():
                before = table_sizes(db.obj)
                days = max(
                    app.config[name]
                    for name in (
                        "RETAIN_INBOUND_MAIL_DAYS",
                        "RETAIN_SENT_MAIL_BODY_DAYS",
                        "RETAIN_NOTICE_DELIVERIES_DAYS",
                    )
                )
                purged = retention.purge(app.config, utcnow() + dt.timedelta(days=days + 1))
                after = table_sizes(db.obj)
        print(
            f"{args.games} finished 4-player Puerto Rico games: {moves / args.games:.0f} moves"
            f" and {sent / args.games:.0f} mails sent per game"
        )
        print("purged: " + ", ".join(purged.lines()))
        report(empty, before, after, args.games)
    finally:
        sink.stop()
        drop_schema(args.url, schema)


if __name__ == "__main__":
    main()

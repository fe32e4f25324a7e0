"""Move round trip on SQLite: load game, validate, apply, append the event,
save the snapshot, queue the mail, commit, all through ``server.moves.play``.

Plays GAMES games of MOVES moves each, interleaved (move k of every game, then
move k+1) so the database holds every game's growing history at once, and
prints the median and p99 per move, overall and per band of history length:
if the cost grew with a game's history the later bands would be slower.

    .venv/bin/python bench/server_move_roundtrip.py            # 1000 x 300
    .venv/bin/python bench/server_move_roundtrip.py --games 50 --moves 100
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from engine import get_game
from server import settings as settings_module
from server.db import bind, make_database, migrate
from server.mail.compose import Mailer
from server.models import Event, Game, Outbox, User, utcnow
from server.services import games as lobby
from server.services.moves import play

BAND = 50


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def set_up(count: int, players: int, kind_name: str, mailer: Mailer) -> list[int]:
    users = [
        User.create(
            email=f"bench{i}@example.org",
            name=f"Bench {i}",
            password_hash="-",
            email_verified_at=utcnow(),
        )
        for i in range(players)
    ]
    ids = []
    for n in range(count):
        game = lobby.create_game(
            users[0], kind_name, f"bench {n}", players, {}, 48, [24, 6], mailer
        )
        for index, user in enumerate(users[1:], start=1):
            lobby.join(game.id, user, index)
        lobby.start(game.id, users[0], mailer)
        ids.append(game.id)
    return ids


def run(args) -> int:
    workdir = Path(args.dir or tempfile.mkdtemp(prefix="pbem-bench-"))
    settings = settings_module.load(
        overrides={
            "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}",
            "INSTANCE_PATH": str(workdir),
        }
    )
    database = make_database(settings["DATABASE_URL"], settings)
    bind(database)
    migrate(database)
    mailer = Mailer(settings)
    kind = get_game(args.game)
    rng = random.Random(args.seed)
    with database.connection_context():
        started = time.perf_counter()
        ids = set_up(args.games, args.players, args.game, mailer)
        print(
            f"set up {len(ids)} games of {args.players} seats in "
            f"{time.perf_counter() - started:.1f} s",
            flush=True,
        )
        # What the players' browsers know: the position, to pick a legal move.
        client = {
            gid: kind.new_game(args.players, Game.get_by_id(gid).options, Game.get_by_id(gid).seed)
            for gid in ids
        }
        bands: dict[int, list[float]] = {}
        total_started = time.perf_counter()
        for move in range(args.moves):
            for gid in ids:
                state = client[gid]
                seat = kind.to_move(state)
                if seat is None:
                    continue
                action = rng.choice(kind.legal_actions(state, seat))
                t0 = time.perf_counter()
                play(gid, seat, action, move, mailer=mailer)
                bands.setdefault(move // BAND, []).append(time.perf_counter() - t0)
                client[gid], _ = kind.apply(state, seat, action)
            if (move + 1) % BAND == 0:
                print(
                    f"  {move + 1} moves per game done, "
                    f"{time.perf_counter() - total_started:.0f} s",
                    flush=True,
                )
        wall = time.perf_counter() - total_started
        report(bands, wall, ids, workdir)
    return 0


def report(bands: dict[int, list[float]], wall: float, ids: list[int], workdir: Path) -> None:
    every = [t for values in bands.values() for t in values]
    finished = Game.select().where(Game.status == "finished").count()
    print(
        f"\n{len(every)} moves in {wall:.0f} s over {len(ids)} games "
        f"({finished} finished before the last move); {Event.select().count()} events, "
        f"{Outbox.select().count()} queued mails, database "
        f"{sum(p.stat().st_size for p in workdir.glob('bench.sqlite3*')) / 2**20:.0f} MiB"
    )
    print(
        f"per move: median {statistics.median(every) * 1000:.2f} ms, "
        f"p99 {percentile(every, 99) * 1000:.2f} ms"
    )
    print("\nhistory length   moves   median ms   p99 ms")
    medians = []
    for band in sorted(bands):
        values = bands[band]
        medians.append(statistics.median(values))
        print(
            f"  {band * BAND:4d}-{band * BAND + BAND - 1:<4d}    {len(values):6d}   "
            f"{medians[-1] * 1000:8.2f}  {percentile(values, 99) * 1000:7.2f}"
        )
    ratio = medians[-1] / medians[0]
    print(
        f"\nlast band / first band median: {ratio:.2f} "
        f"({'flat: cost does not grow with history' if ratio < 1.5 else 'GROWS with history'})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--game", default="puerto_rico")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", help="folder for the database (default: a new temp folder)")
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())

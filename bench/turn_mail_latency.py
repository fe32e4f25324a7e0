"""From a move's POST to the next player's turn mail and turn notice.

Starts gunicorn (config/gunicorn.conf.py, ``--workers``) on PostgreSQL with
one scheduler and one sender at the shipped SENDER_INTERVAL (2 s), a real
SMTP server (aiosmtpd) and a local HTTP server taking apprise's json://
notices, both in this process.  ``--games`` two-player Puerto Rico games,
each player with a turn channel: 20 players by default, each with a client
of their own, all moving at once as their turn mails come.

For every POST that ends a player's turn it measures how long until the
other player's turn mail reaches the SMTP server and their turn notice
reaches the HTTP server (both from the POST's start), and prints
p50/p95/p99 of both beside the POST's own answer time and the moves per
second the players made.  It measures ``--seconds`` of play after
``--warmup`` seconds unmeasured.  A site holds back notices to one address
beyond NOTIFY_DESTINATION_MAX in ten minutes; here all go through.

``--think`` is how long a player looks at the page before pressing a
button: random, between none and twice the figure given.  With 0 every
player presses the moment the page is there: the players then make as many
moves as the machine can take, and every time measured is mostly waiting
for a CPU (a queue, not the turn mail's path).  With people's pace the
same players make a fraction of those moves, and the times show the path.

    .venv/bin/python bench/turn_mail_latency.py
    .venv/bin/python bench/turn_mail_latency.py --think 0
    .venv/bin/python bench/turn_mail_latency.py --games 10 --seconds 60
"""

from __future__ import annotations

import argparse
import http.server
import os
import queue
import random
import re
import sys
import threading
import time
from email import message_from_bytes
from email.policy import default as email_policy
from pathlib import Path

from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.http_moves import (  # noqa: E402
    PG,
    SEAT_LINK,
    Player,
    app_name,
    free_port,
    is_turn_mail,
    move_form,
    start,
    wait_for,
    with_query,
)
from bench.server_move_roundtrip import percentile  # noqa: E402
from server import settings as settings_module  # noqa: E402
from server.db import bind, make_database, migrate  # noqa: E402
from server.mail.compose import Mailer  # noqa: E402
from server.models import User, utcnow  # noqa: E402
from server.notify import channels  # noqa: E402
from server.services import games as lobby  # noqa: E402

PLAYER = re.compile(r"([ab])(\d+)@bench\.example")


class Clock:
    """When each game's last POST started, and the delays measured from it.
    POSTs before ``counts_from`` (time.perf_counter()) are not measured: the
    first moves of a run meet workers that still compile their templates
    and all twenty first turn mails at once."""

    def __init__(self):
        self.counts_from = float("inf")  # set when play starts
        self.lock = threading.Lock()
        self.posted: dict[int, float] = {}
        self.mail: list[float] = []
        self.notice: list[float] = []
        self.answers: list[float] = []

    def post_started(self, game: int, at: float) -> None:
        with self.lock:
            self.posted[game] = at

    def arrived(self, game: int, into: list[float]) -> None:
        now = time.perf_counter()
        with self.lock:
            started = self.posted.get(game)
            if started is not None and started >= self.counts_from:
                into.append(now - started)


class Catcher:
    """The SMTP server: a turn mail's arrival is timed, its link played."""

    def __init__(self, clock: Clock, turns: queue.Queue):
        self.clock, self.turns = clock, turns

    async def handle_DATA(self, server, session, envelope):
        msg = message_from_bytes(envelope.content, policy=email_policy)
        who = PLAYER.search(str(msg["To"] or ""))
        part = msg.get_body(("plain",))
        body = (part.get_content() if part is not None else "") or ""
        link = SEAT_LINK.search(body)
        if who and link and is_turn_mail(body):
            self.clock.arrived(int(who.group(2)), self.clock.mail)
            self.turns.put((int(who.group(2)), link.group(0)))
        return "250 OK"


def notice_server(clock: Clock) -> http.server.ThreadingHTTPServer:
    """Takes apprise's json:// posts at /g<game>."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            game = re.match(r"/g(\d+)", self.path)
            if game:
                clock.arrived(int(game.group(1)), clock.notice)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def take_turn(base: str, game: int, link: str, clock: Clock, rnd, think: float) -> None:
    player = Player()
    _, _, html = player.get(link)
    while (form := move_form(html)) is not None:
        action_url, csrf, seq, actions = form
        time.sleep(rnd.uniform(0, 2 * think))
        started = time.perf_counter()
        clock.post_started(game, started)
        _, _, html = player.post(
            base + action_url, {"csrf_token": csrf, "seq": seq, "action": rnd.choice(actions)}
        )
        with clock.lock:
            if started >= clock.counts_from:
                clock.answers.append(time.perf_counter() - started)


def make_games(count: int, settings: dict, notice_port: int | None) -> None:
    mailer, now = Mailer(settings), utcnow()
    for n in range(count):
        a, b = (
            User.create(
                email=f"{side}{n}@bench.example",
                name=f"{side.upper()}{n}",
                password_hash="-",
                email_verified_at=now,
            )
            for side in "ab"
        )
        for user in (a, b) if notice_port else ():
            channels.add(settings, user, f"json://127.0.0.1:{notice_port}/g{n}", ["turn"])
        game = lobby.create_game(a, "puerto_rico", f"Latency {n}", 2, {}, 48, [24, 6], mailer)
        lobby.join(game.id, b, 1)
        lobby.start(game.id, a, mailer)


def play(
    base: str,
    turns: queue.Queue,
    clock: Clock,
    clients: int,
    timing: tuple[float, float, float],
) -> None:
    warmup, seconds, think = timing
    stop = threading.Event()

    def worker(n: int):
        rnd = random.Random(n)
        while not stop.is_set():
            try:
                game, link = turns.get(timeout=0.5)
            except queue.Empty:
                continue
            take_turn(base, game, link, clock, rnd, think)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    time.sleep(warmup)
    clock.counts_from = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()


def line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:<22} (none)"
    ms = [v * 1000 for v in values]
    return (
        f"{name:<22} n={len(ms):<5} p50 {percentile(ms, 50):7.1f} ms  "
        f"p95 {percentile(ms, 95):7.1f} ms  p99 {percentile(ms, 99):7.1f} ms"
    )


def run(args, schema: str, logdir: Path) -> Clock:
    url = f"{args.database}?schema={schema}"
    clock, turns = Clock(), queue.Queue()
    smtp = Controller(Catcher(clock, turns), hostname="127.0.0.1", port=free_port())
    smtp.start()
    notices = notice_server(clock)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(
        os.environ,
        DATABASE_URL=with_query(url, application_name=app_name("server")),
        SECRET_KEY="bench-secret",
        PUBLIC_BASE_URL=base,
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(smtp.port),
        PBEM_INSTANCE=str(logdir),
        SENDER_INTERVAL=str(args.sender_interval),
        LOG_LEVEL="WARNING",
        PBEM_ACCESS_LOG="/dev/null",
        MAIL_CATCHER_DIR="",
        NOTIFY_ALLOW_PRIVATE_HOSTS="true",
        NOTIFY_DESTINATION_MAX="1000000",
    )
    settings = settings_module.load(env)
    database = make_database(with_query(url, application_name=app_name("bench")), settings)
    bind(database)
    migrate(database)
    gunicorn = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "config/gunicorn.conf.py")]
    procs = [
        start(
            gunicorn + ["--workers", str(args.workers), "--bind", f"127.0.0.1:{port}"]
            + ["server.wsgi:app"],
            env,
            logdir / "web.log",
        ),
        start([sys.executable, "-m", "server.processes.scheduler"], env, logdir / "scheduler.log"),
        start([sys.executable, "-m", "server.processes.sender"], env, logdir / "sender.log"),
    ]  # fmt: skip
    try:
        wait_for(f"{base}/login")
        with database.connection_context():
            make_games(args.games, settings, None if args.no_notices else notices.server_address[1])
        play(base, turns, clock, args.games * 2, (args.warmup, args.seconds, args.think))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(20)
            except Exception:  # noqa: BLE001 - a bench ends whatever a child does
                proc.kill()
        smtp.stop()
        notices.shutdown()
        database.close()
    return clock


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10, help="two-player games (2 players each)")
    ap.add_argument("--seconds", type=float, default=60, help="how long they play, measured")
    ap.add_argument("--warmup", type=float, default=10, help="seconds of play before measuring")
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument(
        "--think", type=float, default=1.0, help="mean seconds a player looks before pressing"
    )
    ap.add_argument("--sender-interval", type=float, default=2.0, help="SENDER_INTERVAL")
    ap.add_argument("--no-notices", action="store_true", help="players without a turn channel")
    ap.add_argument("--database", default=os.environ.get("PBEM_BENCH_PG", PG))
    args = ap.parse_args()
    logdir = Path(os.environ.get("PBEM_BENCH_DIR", "/tmp")) / f"pbem-latency-{os.getpid()}"
    logdir.mkdir(parents=True)
    schema = f"bench_{os.getpid()}"
    admin = make_database(args.database)
    admin.execute_sql(f"CREATE SCHEMA {schema}")
    try:
        clock = run(args, schema, logdir)
    finally:
        admin.execute_sql(f"DROP SCHEMA {schema} CASCADE")
    print(
        f"{args.games * 2} players moving at once for {args.seconds:.0f} s "
        f"after {args.warmup:.0f} s unmeasured, "
        f"SENDER_INTERVAL {args.sender_interval} s, {args.workers} web workers, PostgreSQL"
    )
    print(
        f"each looks 0-{2 * args.think:g} s before pressing: "
        f"{len(clock.answers) / args.seconds:.1f} moves a second"
    )
    print(line("move POST answered", clock.answers))
    print(line("POST to turn mail", clock.mail))
    print(line("POST to turn notice", clock.notice))


if __name__ == "__main__":
    main()

"""CPU of the sender per mail and per empty round, on PostgreSQL.

Makes ``--games`` two-player games through the services (their turn mails
are the templates: real rows with a game, a seat to find, headers, HTML),
then runs the sender's own rounds (``processes.sender.Sender.round``: the
heartbeat, the mail drain into an SMTP catcher in a process of its own, the
notices' drain, the probe) in three ways:

    empty    rounds with nothing due (what a sender does between moves)
    trickle  one mail queued before each round (a busy site: about one
             turn mail per SENDER_INTERVAL, as bench/http_moves.py has)
    batch    ``--batch`` mails queued, then rounds until all are out

with ``--interval`` seconds between rounds (the real sender sleeps
SENDER_INTERVAL: what it keeps from round to round, its SMTP session and the
time of its last heartbeat, ages as it would), and prints, for each, the
CPU of the round itself (this thread's time only: the mails' queueing is
not in it) and of the PostgreSQL backend serving the sender (found by
application_name), per round and per mail.
Mails are queued over a connection of their own, so their INSERTs are not
counted.  The SMTP catcher runs in a process of its own, so that it neither
takes the sender's GIL nor shows in a profile of it (``py-spy record --
python bench/sender_cost.py``).  Every mail must reach it exactly once.

    .venv/bin/python bench/sender_cost.py
    .venv/bin/python bench/sender_cost.py --rounds 1000 --mails 1000 --batch 200
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from email import message_from_bytes
from email.policy import default as email_policy
from pathlib import Path

import psycopg
from aiosmtpd.controller import Controller

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.http_moves import (  # noqa: E402
    PG,
    Backends,
    app_name,
    free_port,
    make_games,
    with_query,
)
from server import settings as settings_module  # noqa: E402
from server.db import bind, make_database, migrate  # noqa: E402
from server.mail import smtp_sender  # noqa: E402
from server.mail.compose import Mailer  # noqa: E402
from server.models import Outbox  # noqa: E402
from server.processes.sender import Sender  # noqa: E402

# Every column of a template turn mail but its id, Message-ID and state.
COPIED = (
    "game_id, kind, to_addr, subject, body_text, body_html, in_reply_to, "
    '"references", headers, turn_of, holds_clock, author_id, recipient_id'
)


class Catcher:
    """Run apart (``--catch PORT FILE``): writes each mail's Message-ID to
    FILE, a line each."""

    def __init__(self, out):
        self.out = out

    async def handle_DATA(self, server, session, envelope):
        msg = message_from_bytes(envelope.content, policy=email_policy)
        self.out.write(f"{msg['Message-ID']}\n")
        self.out.flush()
        return "250 2.0.0 Ok: queued"


def catch(port: int, path: str) -> None:
    with open(path, "w") as out:
        controller = Controller(Catcher(out), hostname="127.0.0.1", port=port)
        controller.start()
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        try:
            while True:
                time.sleep(1)
        finally:
            controller.stop()


def start_catcher(path: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, __file__, "--catch", str(port), str(path)])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the SMTP catcher did not start")


class Queuer:
    """Copies the template turn mails into new queued rows, on its own
    connection (not the sender's backend)."""

    def __init__(self, database: str, schema: str, templates: list[int]):
        self.conn = psycopg.connect(
            with_query(database, options=f"-c search_path={schema}"), autocommit=True
        )
        self.templates, self.made = templates, 0

    def queue(self, count: int) -> None:
        for _ in range(count):
            template = self.templates[self.made % len(self.templates)]
            self.made += 1
            self.conn.execute(
                f"INSERT INTO outbox ({COPIED}, message_id, status, attempts, "
                "next_attempt_at, created_at, claimed_by, last_error, smtp_reply, permanent) "
                f"SELECT {COPIED}, %s, 'queued', 0, now() at time zone 'utc', "
                "now() at time zone 'utc', '', '', '', false FROM outbox WHERE id = %s",
                (f"<bench-{os.getpid()}-{self.made}@bench.example>", template),
            )


class Meter:
    """CPU of this thread and of the sender's PostgreSQL backend."""

    def __init__(self, monitor: Backends):
        self.monitor = monitor
        self.own = self.backend = 0.0

    def __enter__(self):
        self._backend = self.monitor.used()["sender"]
        self._own = time.thread_time()  # after the monitor's own query
        return self

    def __exit__(self, *exc):
        self.own += time.thread_time() - self._own  # before the monitor's query
        self.backend += self.monitor.used()["sender"] - self._backend


def main() -> None:
    if sys.argv[1:2] == ["--catch"]:
        return catch(int(sys.argv[2]), sys.argv[3])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=200, help="empty rounds")
    ap.add_argument("--mails", type=int, default=200, help="trickled mails")
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument(
        "--interval",
        type=float,
        default=0.2,
        help="seconds between rounds (SENDER_INTERVAL; http_moves.py runs 0.2)",
    )
    ap.add_argument("--database", default=os.environ.get("PBEM_BENCH_PG", PG))
    args = ap.parse_args()
    schema = f"sender_{os.getpid()}"
    admin = make_database(args.database)
    admin.execute_sql(f"CREATE SCHEMA {schema}")
    try:
        run(args, schema)
    finally:
        admin.execute_sql(f"DROP SCHEMA {schema} CASCADE")


def run(args, schema: str) -> None:
    caught = Path(f"/tmp/pbem-sender-{os.getpid()}.caught")
    catcher, smtp_port = start_catcher(caught)
    url = f"{args.database}?schema={schema}"
    settings = settings_module.load(
        dict(
            os.environ,
            DATABASE_URL=with_query(url, application_name=app_name("sender")),
            SECRET_KEY="bench-secret",
            PUBLIC_BASE_URL="http://127.0.0.1:1",
            SMTP_HOST="127.0.0.1",
            SMTP_PORT=str(smtp_port),
            PBEM_INSTANCE=f"/tmp/pbem-sender-{os.getpid()}",
            LOG_LEVEL="WARNING",
            MAIL_CATCHER_DIR="",
        )
    )
    database = make_database(settings["DATABASE_URL"], settings)
    bind(database)
    migrate(database)
    with database.connection_context():
        make_games(args.games, Mailer(settings), "puerto_rico")
        templates = [r.id for r in Outbox.select(Outbox.id).where(Outbox.kind == "turn")]
    sender = Sender(settings, database)
    sender.step()  # the first round: games' mails out, dead claims freed
    queuer = Queuer(args.database, schema, templates)
    monitor = Backends(args.database, {app_name("sender"): "sender"})
    monitor.start()
    try:
        results = measure(args, sender, queuer, monitor)
        if hasattr(sender, "close"):  # a kept SMTP session
            sender.close()
    finally:
        monitor.close()
        queuer.conn.close()
        catcher.terminate()
        catcher.wait(10)
        database.close()
    report(args, results, Counter(caught.read_text().splitlines()), queuer.made)
    caught.unlink()


def measure(args, sender: Sender, queuer: Queuer, monitor: Backends) -> dict:
    results = {}
    empty = Meter(monitor)
    for _ in range(args.rounds):
        time.sleep(args.interval)
        with empty:
            sender.round()
    results["empty"] = (empty, args.rounds, 0)

    trickle, sent = Meter(monitor), 0
    for _ in range(args.mails):
        time.sleep(args.interval)
        queuer.queue(1)
        with trickle:
            sent += sender.round()["sent"]
    results["trickle"] = (trickle, args.mails, sent)

    batch, sent, rounds = Meter(monitor), 0, 0
    queuer.queue(args.batch)
    while sent < args.batch and rounds < args.batch:
        time.sleep(args.interval)
        with batch:
            sent += sender.round()["sent"]
        rounds += 1
    results["batch"] = (batch, rounds, sent)
    return results


def report(args, results: dict, caught: Counter, queued: int) -> None:
    print(
        f"sender rounds on PostgreSQL every {args.interval} s, {args.games} games' turn mails "
        f"as templates; code from {Path(smtp_sender.__file__).parents[2]}"
    )
    for name, (meter, rounds, sent) in results.items():
        if not rounds:
            continue
        total = meter.own + meter.backend
        own, backend = meter.own / rounds * 1000, meter.backend / rounds * 1000
        line = (
            f"  {name:8} {rounds} rounds, {sent} mails: per round {total / rounds * 1000:.2f} ms "
            f"(sender {own:.2f}, PostgreSQL {backend:.2f})"
        )
        if sent:
            line += (
                f"; per mail {total / sent * 1000:.2f} ms (sender {meter.own / sent * 1000:.2f}, "
                f"PostgreSQL {meter.backend / sent * 1000:.2f})"
            )
        print(line)
    mine = {m: n for m, n in caught.items() if m.startswith("<bench-")}
    twice = sum(1 for n in mine.values() if n > 1)
    print(
        f"  checks: {len(mine)} of {queued} queued mails arrived, {twice} twice"
        + ("" if len(mine) == queued and not twice else "  <-- WRONG")
    )


if __name__ == "__main__":
    main()

"""The sender as a process (``python -m server.processes.sender``) against a
real SMTP server that counts deliveries per Message-ID: killed with -9 in
the middle of 500 mails and started again, every mail arrives and only a
mail that was in flight arrives twice; an SMTP outage longer than the whole
retry schedule, then every mail arrives; a database that goes away and comes
back does not end it."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from conftest import PG_URL, free_port, postgres_schema

from server.db import bind, make_database, migrate
from server.models import Outbox, utcnow

ROOT = Path(__file__).resolve().parents[3]


class Counting:
    """Counts every mail it accepts per Message-ID, a little slowly, so a
    kill lands in the middle of a drain."""

    def __init__(self, delay: float = 0.002):
        self.delay, self.counts, self.lock = delay, Counter(), threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(self.delay)
        msg = message_from_bytes(envelope.content, policy=policy.default)
        with self.lock:
            self.counts[msg["Message-ID"]] += 1
        return "250 2.0.0 Ok"

    def total(self) -> int:
        with self.lock:
            return sum(self.counts.values())


def smtp_server(port: int | None = None, delay: float = 0.002):
    handler = Counting(delay)
    controller = Controller(handler, hostname="127.0.0.1", port=port or free_port())
    controller.start()
    return handler, controller


def start_sender(tmp_path, url: str, smtp_port: int, name: str = "sender", **extra):
    env = dict(
        os.environ,
        PBEM_INSTANCE=str(tmp_path / "instance"),
        DATABASE_URL=url,
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(smtp_port),
        SECRET_KEY="test-secret",
        SENDER_INTERVAL="0.05",
        SENDER_LEASE_SECONDS="2",
        SENDER_PROBE_SECONDS="0.5",
        SENDER_ERROR_BACKOFF_MAX="0.5",
        SENDER_BATCH="50",
        SMTP_TIMEOUT="5",
    )
    env.update({k: str(v) for k, v in extra.items()})
    with open(tmp_path / f"{name}.log", "ab") as log:  # the child keeps its own copy
        return subprocess.Popen(
            [sys.executable, "-m", "server.processes.sender"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


def stop(proc) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def fill(url: str, count: int, tmp_path) -> list[str]:
    """A migrated database with ``count`` queued mails; their Message-IDs."""
    database = make_database(url)
    bind(database)
    migrate(database)
    ids = [f"<m{i}.{time.time_ns()}@pbem.test>" for i in range(count)]
    with database.connection_context():
        with database.atomic():
            Outbox.insert_many(
                [
                    dict(
                        kind="test",
                        to_addr=f"p{i % 7}@example.org",
                        subject=f"mail {i}",
                        body_text="hi",
                        body_html="<p>hi</p>",
                        message_id=mid,
                        created_at=utcnow(),
                        next_attempt_at=utcnow(),
                        headers={},
                    )
                    for i, mid in enumerate(ids)
                ]
            ).execute()
    return ids


def statuses(url: str) -> Counter:
    database = make_database(url)
    bind(database)
    with database.connection_context():
        return Counter(r.status for r in Outbox.select(Outbox.status))


def wait_for(check, timeout: float, what: str, procs=()):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        for proc in procs:
            assert proc.poll() is None, f"the sender exited with {proc.returncode}"
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


def in_flight(url: str, pid: int) -> set[str]:
    """Rows process ``pid`` held and did not mark sent: the only ones that
    may go out twice once it is dead."""
    database = make_database(url)
    bind(database)
    with database.connection_context():
        return {
            r.message_id
            for r in Outbox.select().where(
                Outbox.claimed_by.contains(f":{pid}:") & (Outbox.status != "sent")
            )
        }


@pytest.mark.parametrize("how", ["restart", "survivor"])
def test_kill_9_in_the_middle_of_500_mails(tmp_path, sqlite_url, how, record_property):
    """restart: the only sender is killed and started again (it frees the dead
    one's claim at once).  survivor: one of two senders is killed; the other
    takes its claim over when the lease (2 s) runs out."""
    ids = fill(sqlite_url, 500, tmp_path)
    handler, controller = smtp_server()
    try:
        victim = start_sender(tmp_path, sqlite_url, controller.port, "victim")
        others = (
            [start_sender(tmp_path, sqlite_url, controller.port, "other")]
            if how == "survivor"
            else []
        )
        wait_for(lambda: handler.total() >= 150, 60, "150 mails", [victim, *others])
        victim.send_signal(signal.SIGKILL)
        victim.wait(5)
        flying = in_flight(sqlite_url, victim.pid)
        if how == "restart":
            others.append(start_sender(tmp_path, sqlite_url, controller.port, "restarted"))
        wait_for(lambda: statuses(sqlite_url)["sent"] == 500, 60, "all 500 sent", others)
        time.sleep(0.3)
        for proc in others:
            stop(proc)
    finally:
        controller.stop()
    counts = handler.counts
    duplicates = {mid: n for mid, n in counts.items() if n > 1}
    record_property("duplicates", len(duplicates))
    print(f"{how}: {len(counts)} mails, duplicates {duplicates}, in flight at the kill {flying}")
    assert set(counts) == set(ids)  # every mail delivered
    assert set(duplicates) <= flying and len(flying) <= 1  # only the row in flight
    assert all(n == 2 for n in duplicates.values())


def test_smtp_down_longer_than_the_retry_schedule_then_up(tmp_path, sqlite_url):
    """Schedule: 2 attempts, 1 s then 2 s apart.  Down for well over that
    (every mail shows failed), then up: every mail arrives, once."""
    ids = fill(sqlite_url, 60, tmp_path)
    port = free_port()
    sender = start_sender(
        tmp_path, sqlite_url, port, SENDER_MAX_ATTEMPTS=2, SENDER_RETRY_BASE=1, SENDER_RETRY_MAX=2
    )
    try:
        wait_for(lambda: statuses(sqlite_url)["failed"] == 60, 30, "every mail failed", [sender])
        time.sleep(3)  # and down a while longer
        handler, controller = smtp_server(port)
        try:
            wait_for(lambda: statuses(sqlite_url)["sent"] == 60, 30, "all sent", [sender])
        finally:
            controller.stop()
    finally:
        stop(sender)
    assert set(handler.counts) == set(ids) and max(handler.counts.values()) == 1
    log = (tmp_path / "sender.log").read_text()
    assert "the SMTP server answers again" in log


def test_survives_sqlite_database_missing_then_present(tmp_path):
    """A database it cannot open (its folder is not there yet): every round
    fails, is logged, and the sender goes on; once there, the mails go out."""
    url = f"sqlite:///{tmp_path / 'later' / 'db.sqlite3'}"
    handler, controller = smtp_server()
    sender = start_sender(tmp_path, url, controller.port)
    try:
        wait_for(
            lambda: "round failed" in (tmp_path / "sender.log").read_text(),
            30,
            "a failed round",
            [sender],
        )
        time.sleep(0.5)
        assert sender.poll() is None
        (tmp_path / "later").mkdir()
        ids = fill(url, 20, tmp_path)
        wait_for(lambda: handler.total() >= 20, 30, "20 mails", [sender])
    finally:
        stop(sender)
        controller.stop()
    assert set(handler.counts) == set(ids)
    log = (tmp_path / "sender.log").read_text()
    # A database error is one line, not a traceback.
    assert "round failed" in log and "working again" in log and "Traceback" not in log
    assert "database error: OperationalError: unable to open database file" in log


@pytest.mark.postgres
def test_survives_postgres_schema_dropped_and_recreated(tmp_path):
    gen = postgres_schema()
    url = next(gen)
    try:
        schema = url.rsplit("schema=", 1)[1]
        first = fill(url, 10, tmp_path)
        handler, controller = smtp_server()
        sender = start_sender(tmp_path, url, controller.port)
        try:
            wait_for(lambda: handler.total() >= 10, 30, "the first 10 mails", [sender])
            admin = make_database(PG_URL)
            with admin.connection_context():
                admin.execute_sql(f"DROP SCHEMA {schema} CASCADE")
            time.sleep(1.5)  # rounds fail meanwhile
            assert sender.poll() is None
            with admin.connection_context():
                admin.execute_sql(f"CREATE SCHEMA {schema}")
            second = fill(url, 10, tmp_path)
            wait_for(lambda: handler.total() >= 20, 30, "10 more mails", [sender])
        finally:
            stop(sender)
            controller.stop()
        assert set(handler.counts) == set(first) | set(second)
        log = (tmp_path / "sender.log").read_text()
        assert "round failed" in log and "working again" in log
    finally:
        next(gen, None)

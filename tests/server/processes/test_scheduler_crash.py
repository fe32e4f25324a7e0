"""Claims that expire with their holder.  Two scheduler
processes sweep 500 overdue seats on PostgreSQL; one is killed with SIGKILL
in the middle.  Every timeout is applied once, and the dead one's claims are
taken over within a few sweep intervals, not minutes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.crowd import SEED, fill
from engine import get_game
from server.db import bind, make_database, migrate
from server.models import Event, Seat, utcnow

ROOT = Path(__file__).resolve().parents[3]
GAMES = 500
LEASE, INTERVAL = 3, 1

pytestmark = pytest.mark.postgres


def count_timed_out() -> int:
    return Seat.select().where(Seat.timeouts_in_row > 0).count()


def first_seat() -> int:
    rules = get_game("puerto_rico")
    return rules.to_move(rules.new_game(2, {}, SEED))


def start_scheduler(env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "server.processes.scheduler"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_a_killed_schedulers_claims_are_taken_over_within_seconds(pg_url, tmp_path):
    database = make_database(pg_url)
    bind(database)
    migrate(database)
    with database.connection_context():
        fill(GAMES, GAMES, utcnow(), users=50)
    env = dict(
        os.environ,
        DATABASE_URL=pg_url,
        PBEM_INSTANCE=str(tmp_path),
        SECRET_KEY="test-secret",
        SMTP_PORT="1",
        SCHEDULER_INTERVAL=str(INTERVAL),
        SCHEDULER_BATCH="10",
        SCHEDULER_LEASE_SECONDS=str(LEASE),
    )
    victim, survivor = start_scheduler(env), start_scheduler(env)
    try:
        with database.connection_context():
            deadline = time.monotonic() + 60
            while count_timed_out() < 60 and time.monotonic() < deadline:
                time.sleep(0.05)
            victim.send_signal(signal.SIGKILL)  # mid-sweep, holding claims
            killed = time.monotonic()
            while count_timed_out() < GAMES and time.monotonic() < killed + 90:
                time.sleep(0.2)
            finished = time.monotonic() - killed
            done = count_timed_out()
            twice = Seat.select().where(Seat.timeouts_in_row > 1).count()
            others = (
                Event.select()
                .where((Event.actor == "timeout") & (Event.seat != first_seat()))
                .count()
            )
    finally:
        for proc in (victim, survivor):
            if proc.poll() is None:
                proc.terminate()
            proc.wait(timeout=10)
    assert done == GAMES, f"{GAMES - done} overdue seats never timed out"
    # Once each: no seat counted two timeouts, and nobody else's turn was played.
    assert twice == 0 and others == 0
    # The survivor alone needs about 500 x a few ms; the dead one's claims
    # must not hold anything up for long past their lease.
    assert finished < LEASE + 10 * INTERVAL + 30, finished

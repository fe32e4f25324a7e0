"""A running scheduler takes over the seats a killed one (kill -9, same host)
had claimed within 10 seconds, at the shipped intervals: it looks for dead
holders every few seconds and then acts on their seats at once, instead of
waiting out their lease and its next sweep."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from bench.crowd import fill
from server.db import bind, make_database, migrate
from server.models import Seat, utcnow

ROOT = Path(__file__).resolve().parents[3]
GAMES = 20


def dead_holder() -> str:
    """A claim name of a scheduler process that ran on this host and is gone."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    return f"{socket.gethostname()}:{gone.pid}:abcdef"


def test_a_running_scheduler_takes_over_a_killed_ones_seats_within_10_seconds(db_url, tmp_path):
    database = make_database(db_url)
    bind(database)
    migrate(database)
    env = dict(
        os.environ,
        DATABASE_URL=db_url,
        PBEM_INSTANCE=str(tmp_path),
        SECRET_KEY="test-secret",
        SMTP_PORT="1",
        OUTAGE_GRACE_SECONDS="0",
    )
    survivor = subprocess.Popen(
        [sys.executable, "-m", "server.processes.scheduler"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(4)  # running: its start and its first sweep are behind it
        with database.connection_context():
            now = utcnow()
            fill(GAMES, GAMES, now, users=10)
            # The killed scheduler held every due seat, its lease far from over.
            Seat.update(
                claimed_by=dead_holder(), claimed_until=now.replace(year=now.year + 1)
            ).where(Seat.deadline.is_null(False)).execute()
            claimed = time.monotonic()
            while time.monotonic() < claimed + 30:
                taken = Seat.select().where(Seat.timeouts_in_row > 0).count()
                if taken == GAMES:
                    break
                time.sleep(0.2)
            took = time.monotonic() - claimed
    finally:
        survivor.terminate()
        survivor.wait(timeout=10)
    assert taken == GAMES, f"{GAMES - taken} seats of the dead scheduler were not taken over"
    assert took < 10, f"taken over after {took:.1f} s"

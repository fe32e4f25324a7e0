"""/healthz says the process lives (even with the
database gone); /readyz says whether the site can work: the database
answers, its migrations are current, the scheduler and the sender did a
round lately (their heartbeats, written by the real processes), and no mail
waited too long.  JSON, 200 or 503, and no secret in it."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

from clock_helpers import started_game
from conftest import free_port, make_app

from server import create_app
from server.db import db
from server.models import Outbox, utcnow
from server.services.clock import outage_guard

ROOT = Path(__file__).resolve().parents[3]


def ready(app) -> tuple[int, dict]:
    answer = app.test_client().get("/readyz")
    assert answer.content_type == "application/json"
    return answer.status_code, answer.get_json()


def beat_both(app, when: dt.datetime) -> None:
    with app.app_context(), db.connection_context():
        outage_guard.beat(outage_guard.SCHEDULER, when)
        outage_guard.beat(outage_guard.SENDER, when)


def test_ready_once_the_processes_beat_and_not_when_they_stop(app):
    status, answer = ready(app)
    assert status == 503 and answer["status"] == "not ready"
    assert answer["checks"]["database"]["ok"] and answer["checks"]["migrations"]["ok"]
    assert answer["checks"]["scheduler"] == {"ok": False, "detail": "never ran"}
    beat_both(app, utcnow())
    status, answer = ready(app)
    assert status == 200 and answer["status"] == "ready", answer
    # Two minutes later without a round: the scheduler and sender are down.
    with app.app_context(), db.connection_context():
        from server.models import Heartbeat

        Heartbeat.update(beat_at=utcnow() - dt.timedelta(seconds=121)).execute()
    status, answer = ready(app)
    assert status == 503
    assert not answer["checks"]["scheduler"]["ok"] and not answer["checks"]["sender"]["ok"]
    assert "121 s ago" in answer["checks"]["sender"]["detail"]


def test_a_mail_waiting_too_long_makes_the_site_not_ready(app):
    started_game(app, tag="wait")  # turn mails in the outbox
    beat_both(app, utcnow())
    assert ready(app)[0] == 200
    with app.app_context(), db.connection_context():
        Outbox.update(created_at=utcnow() - dt.timedelta(seconds=901)).execute()
    status, answer = ready(app)
    assert status == 503 and not answer["checks"]["outbox"]["ok"]
    assert "oldest waiting mail 901 s old" in answer["checks"]["outbox"]["detail"]


def test_a_migration_not_applied_makes_the_site_not_ready(app):
    beat_both(app, utcnow())
    with app.app_context(), db.connection_context():
        db.execute_sql("DELETE FROM schema_migration WHERE name = '0022_seat_claimed_by'")
    status, answer = ready(app)
    assert status == 503
    assert answer["checks"]["migrations"] == {
        "ok": False,
        "detail": "1 not applied (pbem migrate): 0022_seat_claimed_by",
    }


def test_with_the_database_gone_healthz_lives_and_readyz_tells_no_secret(tmp_path):
    url = f"postgresql://pbem:s3cret-pw@127.0.0.1:{free_port()}/site?connect_timeout=2"
    app = create_app(
        {
            "DATABASE_URL": url,
            "SECRET_KEY": "k",
            "TESTING": True,
            "DATABASE_POOL_MAX": 0,
            "INSTANCE_PATH": str(tmp_path),
        }
    )
    client = app.test_client()
    alive = client.get("/healthz")
    assert (alive.status_code, alive.get_json()) == (200, {"status": "alive"})
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.get_json()["checks"] == {
        "database": {"ok": False, "detail": "unreachable (OperationalError)"}
    }
    assert "s3cret" not in answer.text and "pbem" not in answer.text


def test_the_real_scheduler_and_sender_make_the_site_ready(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path)
    assert ready(app)[0] == 503
    env = dict(
        os.environ,
        DATABASE_URL=sqlite_url,
        PBEM_INSTANCE=str(tmp_path / "instance"),
        SECRET_KEY="test-secret",
        SMTP_PORT=str(smtp.port),
        SCHEDULER_INTERVAL="1",
        SENDER_INTERVAL="0.5",
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", f"server.processes.{name}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name in ("scheduler", "sender")
    ]
    try:
        deadline = time.monotonic() + 30
        while ready(app)[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        status, answer = ready(app)
        assert status == 200, answer
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(10)

"""Prometheus metrics at /metrics.  gunicorn with two
workers and a scheduler process share one multiprocess folder: a scrape adds
up every worker's request latencies and the scheduler's sweeps; moves are
counted by who played them, replies by outcome; the outbox is read from the
database.  Only this machine (not through a proxy) or a bearer of
METRICS_TOKEN may scrape.  gunicorn's and the app's logs are JSON lines
with LOG_FORMAT=json."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from clock_helpers import random_move, started_game, sweep_past_deadline
from conftest import free_port, make_app

from server.db import db
from server.services import replies

ROOT = Path(__file__).resolve().parents[3]


def sample(text: str, name: str, missing_ok: bool = False, **labels) -> float:
    """The sum of a metric's samples whose labels include ``labels``."""
    total, found = 0.0, False
    for line in text.splitlines():
        match = re.match(r"([a-z_]+)(\{[^}]*\})? (\S+)$", line)
        if not match or match.group(1) != name:
            continue
        have = dict(re.findall(r'(\w+)="([^"]*)"', match.group(2) or ""))
        if all(have.get(k) == v for k, v in labels.items()):
            total, found = total + float(match.group(3)), True
    assert found or missing_ok, f"no {name} {labels} in the scrape"
    return total


def get(url: str, **headers) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, exc.read().decode()


def test_workers_and_scheduler_add_up_in_one_scrape(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path)
    started_game(app, tag="m")  # mail waiting in the outbox
    port, folder = free_port(), tmp_path / "metrics"
    folder.mkdir()
    env = dict(
        os.environ,
        DATABASE_URL=sqlite_url,
        PBEM_INSTANCE=str(tmp_path / "instance"),
        SECRET_KEY="test-secret",
        SMTP_PORT=str(smtp.port),
        SCHEDULER_INTERVAL="1",
        PROMETHEUS_MULTIPROC_DIR=str(folder),
        METRICS_TOKEN="scrape-token",
        LOG_FORMAT="json",
        PBEM_ACCESS_LOG="-",
    )
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "config/gunicorn.conf.py",
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port}",
            "server.wsgi:app",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "server.processes.scheduler"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):  # the workers may still be starting
            try:
                get(f"{base}/healthz")
                break
            except OSError:
                time.sleep(0.1)
        for _ in range(30):
            assert get(f"{base}/healthz")[0] == 200
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            status, text = get(f"{base}/metrics")
            if "pbem_sweep_seconds_count" in text and sample(text, "pbem_sweep_seconds_count"):
                break
            time.sleep(0.3)
        assert status == 200, text
        assert sample(text, "pbem_http_request_seconds_count", method="GET", status="2xx") >= 31
        assert sample(text, "pbem_sweep_seconds_count") >= 1
        assert sample(text, "pbem_database_up") == 1
        assert sample(text, "pbem_mails", status="queued") == sample(text, "pbem_outbox_depth") > 0
        assert sample(text, "pbem_outbox_oldest_age_seconds") >= 0
        assert 0 <= sample(text, "pbem_sweep_lag_seconds") < 30
        # Through a proxy (even one on this machine): only with the token.
        assert get(f"{base}/metrics", **{"X-Forwarded-For": "203.0.113.9"})[0] == 403
        assert (
            get(
                f"{base}/metrics",
                **{"X-Forwarded-For": "203.0.113.9", "Authorization": "Bearer wrong"},
            )[0]
            == 403
        )
        assert (
            get(
                f"{base}/metrics",
                **{"X-Forwarded-For": "203.0.113.9", "Authorization": "Bearer scrape-token"},
            )[0]
            == 200
        )
    finally:
        for proc in (web, scheduler):
            proc.terminate()
        logs = "".join(proc.communicate(timeout=20)[1].decode() for proc in (web, scheduler))
    lines = [line for line in logs.splitlines() if line.strip()]
    assert any("Booting worker" in line for line in lines)
    assert any('"GET /healthz' in line for line in lines)  # the access log
    for line in lines:
        entry = json.loads(line)
        assert {"time", "level", "logger", "message"} <= set(entry), line


def scrape(app) -> str:
    answer = app.test_client().get("/metrics")
    assert answer.status_code == 200
    return answer.text


def test_moves_are_counted_by_who_played_them_and_replies_by_outcome(app):
    before = scrape(app)
    game = started_game(app, tag="count")
    rnd = random.Random(3)
    for _ in range(4):
        random_move(app, game.id, rnd)
    sweep_past_deadline(app, game.id)
    with app.app_context(), db.connection_context():
        replies.receive(
            b"From: someone@example.org\r\nTo: x@example.org\r\n"
            b"Message-ID: <m1@example.org>\r\nSubject: hi\r\n\r\nhello\r\n",
            app.extensions["pbem_mailer"],
        )
        replies.receive(
            b"From: someone@example.org\r\nTo: x@example.org\r\n"
            b"Message-ID: <m1@example.org>\r\nSubject: hi\r\n\r\nhello\r\n",
            app.extensions["pbem_mailer"],
        )
    after = scrape(app)

    def grew(name, **labels):
        return sample(after, name, **labels) - sample(before, name, missing_ok=True, **labels)

    assert grew("pbem_moves_total", actor="player") == 4
    assert grew("pbem_moves_total", actor="clock") >= 1
    assert grew("pbem_inbound_mails_total", outcome="ignored") == 1
    assert grew("pbem_inbound_mails_total", outcome="duplicate") == 1
    assert sample(after, "pbem_http_request_seconds_count") > 0

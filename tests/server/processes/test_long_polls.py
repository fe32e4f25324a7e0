"""Long polls cost no worker: on the shipped gunicorn config a wait holds a
thread, so the site answers while 50 waits are open; any timeout the schema
allows answers 200, never the worker timeout's 500; an account and a token
hold only a few waits at once."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from api_helpers import account, bearer
from conftest import free_port, make_app

ROOT = Path(__file__).resolve().parents[3]


def shipped_gunicorn(url: str, tmp_path, smtp, **settings) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(
        os.environ,
        DATABASE_URL=url,
        PBEM_INSTANCE=str(tmp_path / "instance"),
        SECRET_KEY="test-secret",
        SMTP_PORT=str(smtp.port),
        PBEM_ACCESS_LOG="/dev/null",
        **settings,
    )
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    env.pop("PBEM_THREADS", None)  # the shipped number of threads
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py"]
        + ["--bind", f"127.0.0.1:{port}", "server.wsgi:app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):  # the workers may still be starting
        try:
            httpx.get(f"{base}/healthz", timeout=5)
            break
        except httpx.TransportError:
            time.sleep(0.1)
    return web, base


def test_the_site_answers_at_once_while_fifty_long_polls_wait(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path)
    tokens = [account(app, f"bot{i}@example.org", f"Bot {i}")[1] for i in range(25)]
    web, base = shipped_gunicorn(sqlite_url, tmp_path, smtp, API_WAIT_MAX_SECONDS="25")
    answers: list[int] = []

    def wait(token: str) -> None:
        # 31 to 60 seconds gave the worker timeout's HTML 500 on sync workers.
        answer = httpx.get(f"{base}/api/v1/wait?timeout=45", headers=bearer(token), timeout=60)
        answers.append(answer.status_code)

    waiting = [threading.Thread(target=wait, args=(t,)) for t in tokens for _ in range(2)]
    try:
        for thread in waiting:
            thread.start()
        time.sleep(3)  # all 50 are in their wait
        slowest = 0.0
        for _ in range(5):
            start = time.monotonic()
            assert httpx.get(f"{base}/healthz", timeout=10).status_code == 200
            assert httpx.get(f"{base}/login", timeout=10).status_code == 200
            slowest = max(slowest, time.monotonic() - start)
            time.sleep(0.3)
        assert slowest < 1.0, f"/healthz and /login took {slowest:.2f} s with 50 waits open"
        for thread in waiting:
            thread.join(60)
        assert answers == [200] * 50
    finally:
        web.terminate()
        web.wait(30)


def test_an_account_and_a_token_hold_only_a_few_waits(sqlite_url, smtp, tmp_path):
    app = make_app(
        sqlite_url,
        smtp,
        tmp_path,
        API_WAIT_MAX_SECONDS=3,
        API_WAIT_POLL_SECONDS=0.1,
        API_WAITS_PER_TOKEN=1,
        API_WAITS_PER_ACCOUNT=2,
    )
    user_id, first = account(app, "bot@example.org", "Bot")
    from server.db import db
    from server.models import User
    from server.services import api_tokens

    with app.app_context(), db.connection_context():
        second = api_tokens.create(User.get_by_id(user_id), "second", ["read"], 30)[1]
        third = api_tokens.create(User.get_by_id(user_id), "third", ["read"], 30)[1]
    client = app.test_client()
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    results: dict[str, int] = {}

    def wait(name: str, token: str) -> None:
        results[name] = httpx.get(
            f"{base}/api/v1/wait?timeout=60", headers=bearer(token), timeout=30
        ).status_code

    try:
        holders = [
            threading.Thread(target=wait, args=("first", first)),
            threading.Thread(target=wait, args=("second", second)),
        ]
        for thread in holders:
            thread.start()
        time.sleep(1)
        same_token = client.get("/api/v1/wait?timeout=1", headers=bearer(first))
        third_token = client.get("/api/v1/wait?timeout=1", headers=bearer(third))
        assert same_token.status_code == 429 and "too many waits" in same_token.json["detail"]
        assert third_token.status_code == 429  # the account's two are open
        for thread in holders:
            thread.join(30)
        # Asked for 60 s, answered after the site's 3 s: timed out, ask again.
        assert results == {"first": 200, "second": 200}
        after = client.get("/api/v1/wait?timeout=0", headers=bearer(third))
        assert after.status_code == 200 and after.json["timed_out"] is True
    finally:
        server.shutdown()

"""Rate limits: sign-in, sign-up, reset, invitations and new seat
links, per client and per typed address; a clear 429 page that changes
nothing; and with several web workers one count kept in a shared Redis."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from contextlib import contextmanager
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from conftest import free_port, make_app
from web_helpers import csrf, form_for, post_form, signup

from server.db import db
from server.models import Outbox

ROOT = Path(__file__).resolve().parents[3]
REDIS_URL = "redis://127.0.0.1:6379/0"


def attempt(client, path: str, **fields):
    page = client.get(path)
    return client.post(path, data=dict(fields, csrf_token=csrf(page.text)))


def mails_to(app, email: str) -> int:
    with app.app_context(), db.connection_context():
        return Outbox.select().where(Outbox.to_addr == email).count()


def test_sign_in_is_limited_per_address(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path, RATELIMIT_SIGNIN_PER_ADDRESS="3 per minute")
    signup(app.test_client(), "Ann", "ann@example.org")
    guesser = app.test_client()
    codes = [
        attempt(guesser, "/login", email="ann@example.org", password=f"guess {i}").status_code
        for i in range(4)
    ]
    assert codes == [400, 400, 400, 429]
    # Even the right password waits now; the page says so and changes nothing.
    right = attempt(app.test_client(), "/login", email="ANN@example.org", password="correct horse")
    assert right.status_code == 429 and "Too many attempts" in right.text
    assert "Sign out" not in guesser.get("/").text
    # Another address is not held up by it.
    other = attempt(guesser, "/login", email="bob@example.org", password="whatever")
    assert other.status_code == 400


def test_sign_in_is_limited_per_client(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path, RATELIMIT_SIGNIN_PER_CLIENT="4 per minute")
    client = app.test_client()
    codes = [
        attempt(client, "/login", email=f"n{i}@example.org", password="x").status_code
        for i in range(5)
    ]
    assert codes == [400, 400, 400, 400, 429]
    assert client.get("/login").status_code == 200  # reading is not limited


def test_reset_and_sign_up_mail_an_address_only_so_often(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path, RATELIMIT_MAIL_PER_ADDRESS="2 per hour")
    client = app.test_client()
    assert attempt(client, "/reset", email="victim@example.org").status_code == 200
    assert (
        attempt(
            client, "/signup", name="V", email="victim@example.org", password="long password"
        ).status_code
        == 200
    )
    third = attempt(client, "/reset", email="victim@example.org")
    assert third.status_code == 429
    assert mails_to(app, "victim@example.org") == 2


def test_invitations_and_new_links_are_limited_per_user(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path, RATELIMIT_INVITE_PER_USER="2 per hour")
    host = app.test_client()
    signup(host, "Host", "host@example.org")
    page = host.get("/games/new")
    lobby = post_form(
        host,
        form_for(page.text, "/games/new"),
        name="g",
        seats="3",
        move_hours="24",
        reminder_hours="",
    )
    for i in range(2):
        assert (
            post_form(
                host, form_for(lobby.text, "/invite"), emails=f"friend{i}@example.org"
            ).status_code
            == 200
        )
    refused = host.post(
        form_for(lobby.text, "/invite")["action"],
        data=dict(form_for(lobby.text, "/invite")["fields"], emails="spam@example.org"),
    )
    assert refused.status_code == 429 and mails_to(app, "spam@example.org") == 0


# -- several workers ------------------------------------------------------------
@pytest.fixture
def redis_url():
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_timeout=2).ping()
    except redis.RedisError as exc:
        reason = f"Redis at {REDIS_URL} is not reachable: {exc}"
        if os.environ.get("CI"):
            pytest.fail(reason + " (CI needs it)")
        # A developer machine without Redis still runs every other test.
        pytest.skip(reason)
    return REDIS_URL


def test_two_workers_share_one_count_in_redis(redis_url, tmp_path):
    """gunicorn with two workers: the limit holds across both, because the
    count lives in Redis, not in each worker's memory."""
    env = dict(
        os.environ,
        DATABASE_URL="sqlite:///pbem.sqlite3",
        RATELIMIT_STORAGE_URI=redis_url,
        RATELIMIT_SIGNIN_PER_ADDRESS="4 per minute",
    )
    with two_workers(env, tmp_path) as base:
        codes = [login_once(base, "ann@example.org") for _ in range(8)]
    assert codes == [400] * 4 + [429] * 4, codes


@contextmanager
def two_workers(env: dict, tmp_path: Path):
    """The site migrated and served by gunicorn with two workers (the shipped
    gunicorn config, so nothing is written outside ``tmp_path``), with
    ``env``; yields its address."""
    port = free_port()
    env = dict(
        env,
        PBEM_INSTANCE=str(tmp_path),
        PBEM_WORKERS="2",
        PUBLIC_BASE_URL=f"http://127.0.0.1:{port}",
        PBEM_BIND=f"127.0.0.1:{port}",
        RATELIMIT_KEY_PREFIX=f"pbem-test-{uuid.uuid4().hex}",
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(free_port()),
    )
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "wsgi", "migrate"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(ROOT / "config" / "gunicorn.conf.py"),
            "wsgi:app",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def login_once(base: str, email: str) -> int:
    """One sign-in attempt on a fresh connection (either worker may answer)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    page = None
    for _ in range(100):  # the workers may still be starting
        try:
            with opener.open(f"{base}/login", timeout=5) as resp:
                page = resp.read().decode()
            break
        except OSError:
            time.sleep(0.1)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(
        {"csrf_token": token, "email": email, "password": "wrong"}
    ).encode()
    try:
        with opener.open(f"{base}/login", data=data, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        exc.close()
        return exc.code

"""Promised to operators: "nothing in the web workers keeps state between requests
(sessions, rate limits and caches live in the database or a shared store), so
workers on several machines behind one proxy work".

Two separate gunicorn servers stand for two machines behind one proxy: the
same PostgreSQL database, the same secret key, the same Redis, nothing else
shared.  A player signs in on one and plays on the other; a rate limit counts
requests to both."""

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
from html import unescape
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from conftest import free_port, make_app
from test_rate_limits import login_once, redis_url  # noqa: F401 (a fixture)
from werkzeug.security import generate_password_hash

from server.db import db
from server.models import Event, User, utcnow
from server.services import games as lobby

ROOT = Path(__file__).resolve().parents[3]
PASSWORD = "correct horse battery"


class Browser:
    """Cookies and forms, over real HTTP; the cookie jar is per host, so it
    goes to both servers as it would to one site behind a proxy."""

    def __init__(self):
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def get(self, url: str) -> str:
        with self.opener.open(url, timeout=20) as resp:
            return resp.read().decode()

    def post(self, url: str, **fields) -> tuple[int, str]:
        data = urllib.parse.urlencode(fields).encode()
        try:
            with self.opener.open(url, data=data, timeout=20) as resp:
                return resp.status, resp.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(errors="replace")


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)


def serve(env: dict, instance: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--workers",
            "1",
            "--bind",
            f"127.0.0.1:{port}",
            "server.wsgi:app",
        ],
        cwd=ROOT,
        env=dict(env, PBEM_INSTANCE=str(instance)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{base}/login", timeout=2).read()
            return proc, base
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"{base} did not start")


@pytest.fixture
def two_machines(pg_url, smtp, tmp_path, redis_url):  # noqa: F811 (the fixture)
    env = dict(
        os.environ,
        DATABASE_URL=pg_url,
        SECRET_KEY="two-machines-secret",
        PUBLIC_BASE_URL="http://127.0.0.1",
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(smtp.port),
        RATELIMIT_STORAGE_URI=redis_url,
        RATELIMIT_KEY_PREFIX=f"pbem-test-{uuid.uuid4().hex}",
        RATELIMIT_SIGNIN_PER_ADDRESS="4 per minute",
        LOG_LEVEL="WARNING",
        PBEM_ACCESS_LOG="/dev/null",
    )
    app = make_app(pg_url, smtp, tmp_path, SECRET_KEY="two-machines-secret")
    servers = [serve(env, tmp_path / name) for name in ("a", "b")]
    try:
        yield app, [base for _, base in servers]
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(timeout=10)


def started_game(app) -> tuple[int, str]:
    """The game, and the address of the player whose turn it is."""
    with app.app_context(), db.connection_context():
        ann, bob = (
            User.create(
                email=f"{n}@example.org",
                name=n.title(),
                email_verified_at=utcnow(),
                password_hash=generate_password_hash(PASSWORD),
            )
            for n in ("ann", "bob")
        )
        mailer = app.extensions["pbem_mailer"]
        game = lobby.create_game(ann, "puerto_rico", "Two machines", 2, {}, 48, [24, 6], mailer)
        lobby.join(game.id, bob, 1)
        lobby.start(game.id, ann, mailer)
        game = type(game).get_by_id(game.id)
        return game.id, (ann, bob)[game.to_move].email


@pytest.mark.postgres
def test_signed_in_on_one_machine_plays_on_the_other(two_machines):
    app, (a, b) = two_machines
    game_id, email = started_game(app)
    ann = Browser()
    status, _ = ann.post(
        f"{a}/login", csrf_token=csrf(ann.get(f"{a}/login")), email=email, password=PASSWORD
    )
    assert status == 200
    # The page comes from B, with the session A made.
    page = ann.get(f"{b}/games/{game_id}")
    assert "You play seat" in page
    action = re.search(r'<button[^>]*name="action"[^>]*value="([^"]*)"', page).group(1)
    seq = re.search(r'name="seq"[^>]*value="([^"]+)"', page).group(1)
    # The form B made is posted to A.
    status, after = ann.post(
        f"{a}/games/{game_id}/move", csrf_token=csrf(page), seq=seq, action=unescape(action)
    )
    assert status == 200 and "What happened" in after
    with app.app_context(), db.connection_context():
        assert Event.select().where(Event.game == game_id).count() == 1


@pytest.mark.postgres
def test_a_rate_limit_counts_requests_to_both_machines(two_machines):
    _, (a, b) = two_machines
    codes = [login_once(base, "carol@example.org") for base in (a, b) * 4]
    assert codes == [400] * 4 + [429] * 4, codes

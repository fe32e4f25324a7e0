"""Fixtures for the server tests: a real database file (and PostgreSQL when
asked), a real SMTP server (aiosmtpd), the app and its test clients."""

from __future__ import annotations

import os
import random
import socket
import threading
from contextlib import contextmanager
from email import message_from_bytes, policy
from pathlib import Path
from types import SimpleNamespace

import pytest
from aiosmtpd.controller import Controller
from browser_helpers import ARGS, CHROMIUM
from werkzeug.serving import make_server

from server import create_app
from server.db import make_database, migrate
from server.mail.smtp_sender import drain
from server.services import games, rematches

PG_URL = os.environ.get("PBEM_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture(autouse=True)
def predictable_deals(request, monkeypatch):
    """Every game made in a test process is dealt from a seed drawn from the
    test's own name: a test plays the same games on every run, so one that
    passes once passes always (with drawn deals, a test that only held for
    most deals failed now and then)."""
    drawn = random.Random(request.node.nodeid)
    deals = SimpleNamespace(randbits=drawn.getrandbits)
    monkeypatch.setattr(games, "secrets", deals)
    monkeypatch.setattr(rematches, "secrets", deals)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Inbox:
    """Collects what the SMTP server receives, as parsed messages."""

    def __init__(self):
        self.messages = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        msg = message_from_bytes(
            envelope.original_content or envelope.content, policy=policy.default
        )
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), msg))
        return "250 OK"

    def to(self, address: str):
        with self.lock:
            return [m for rcpt, m in self.messages if address in rcpt]


@pytest.fixture
def smtp():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    inbox.port = controller.port
    yield inbox
    controller.stop()


def postgres_available() -> str | None:
    """None when PostgreSQL answers, else the reason it does not."""
    try:
        database = make_database(PG_URL)
        database.connect()
        database.close()
    except Exception as exc:  # any driver error means "not reachable here"
        return f"PostgreSQL at {PG_URL} is not reachable: {exc.__class__.__name__}: {exc}"
    return None


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    """A fresh migrated database: a temporary SQLite file, or PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    yield from postgres_schema()


@pytest.fixture
def pg_url():
    """PostgreSQL alone, for what only it does (FOR UPDATE SKIP LOCKED claims)."""
    yield from postgres_schema()


def postgres_schema():
    reason = postgres_available()
    if reason:
        if os.environ.get("PBEM_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason + " (PBEM_REQUIRE_POSTGRES=1)")
        # Outside CI a machine without PostgreSQL still runs every SQLite test;
        # .ci/run sets PBEM_REQUIRE_POSTGRES=1, so there this is a failure.
        pytest.skip(reason + "; set PBEM_REQUIRE_POSTGRES=1 to make this a failure")
    # A schema of this test run's own: runs side by side (two developers, a
    # rerun while another is going) never drop each other's tables.
    schema = f"pbem_test_{os.getpid()}"
    admin = make_database(PG_URL)
    with admin.connection_context():
        admin.execute_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        admin.execute_sql(f"CREATE SCHEMA {schema}")
    yield f"{PG_URL}?schema={schema}"
    with admin.connection_context():
        admin.execute_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


def make_app(url, smtp, tmp_path, **extra):
    config = {
        "DATABASE_URL": url,
        "SECRET_KEY": "test-secret",
        "TESTING": True,
        "PUBLIC_BASE_URL": "http://localhost",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": smtp.port,
        "SESSION_COOKIE_SECURE": False,
        "REMEMBER_COOKIE_SECURE": False,
        "SENDER_RETRY_BASE": 0,
        # Tests sweep at times hours or days apart: that is no outage.
        # The guard has tests of its own (test_clock_outage.py).
        "OUTAGE_GRACE_SECONDS": 0,
        # Hundreds of short-lived apps: pooled connections would outlive
        # them (test_db_pool.py tests the pool).
        "DATABASE_POOL_MAX": 0,
    }
    config.update(extra)
    app = create_app(dict(config, INSTANCE_PATH=str(tmp_path / "instance")))
    migrate()
    return app


@pytest.fixture
def app(db_url, smtp, tmp_path):
    return make_app(db_url, smtp, tmp_path)


@pytest.fixture
def sqlite_app(sqlite_url, smtp, tmp_path):
    return make_app(sqlite_url, smtp, tmp_path)


@pytest.fixture
def send_mail(smtp):
    """Drain the outbox through the real SMTP server; returns the counts."""

    def run(app, now=None):
        with app.app_context():
            from server.db import db

            with db.connection_context():
                return drain(app.config, now)

    return run


@pytest.fixture
def table(app, smtp, send_mail):
    """A started 3-player game; the first turn mail is waiting in the inbox."""
    from game_driver import Table

    t = Table(app, smtp, send_mail, 3, seed=11)
    t.set_up()
    return t


@pytest.fixture
def sqlite_table(sqlite_app, smtp, send_mail):
    from game_driver import Table

    t = Table(sqlite_app, smtp, send_mail, 3, seed=12)
    t.set_up()
    return t


@contextmanager
def serving(build):
    """``build(base_url)``'s app on a real HTTP server in a thread; yields
    (app, base_url), the app's PUBLIC_BASE_URL being the server itself."""
    server = make_server("127.0.0.1", 0, None, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    server.app = build(base)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.app, base
    finally:
        server.shutdown()
        thread.join(5)


@pytest.fixture
def live(sqlite_url, smtp, tmp_path):
    with serving(
        lambda base: make_app(sqlite_url, smtp, tmp_path, PUBLIC_BASE_URL=base, TESTING=False)
    ) as served:
        yield served


@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test.sh installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def release(tmp_path_factory):
    """The release files as a newcomer gets them: the sdist built from this
    checkout, and the wheel built from that sdist (``python -m build``), as
    pip builds it on a server.  (sdist path, wheel path)."""
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("release")
    root = Path(__file__).resolve().parents[2]
    subprocess.run(
        [sys.executable, "-m", "build", "-o", str(out), str(root)],
        check=True,
        capture_output=True,
        timeout=900,
    )
    # The sdist's build writes pbem.egg-info into the checkout; this process
    # (the checkout on its path) would then read pbem's version there, not
    # from the installed package.  The editable install does not need it.
    import shutil

    shutil.rmtree(root / "pbem.egg-info", ignore_errors=True)
    (sdist,), (wheel,) = out.glob("pbem-*.tar.gz"), out.glob("pbem-*.whl")
    return sdist, wheel


# -- replies: a module that tests them defines ``rapp`` (its app) -----------------
@pytest.fixture
def receiver(rapp):
    """The real reply receiver over SMTP in front of the module's ``rapp``."""
    from reply_helpers import start_receiver  # reply_helpers imports this module

    controller = start_receiver(rapp)
    yield controller
    controller.stop()


@pytest.fixture
def duo(rapp, smtp, send_mail):
    """A two-player game (seed 5) of the module's ``rapp``, started by its pages."""
    from game_driver import Table

    table = Table(rapp, smtp, send_mail, 2, seed=5)
    table.set_up()
    return table

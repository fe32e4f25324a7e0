"""The sender keeps its SMTP session from drain to drain (mail/smtp_sender.py
Connection): mails of several drains go over one session; a session the
server dropped meanwhile (its idle timeout: 421 and hang up) costs no mail
and sends none twice; an idle session, or one that carried SESSION_MAX_MAILS
mails, is let go; a session the sender kept proves nothing about a server
that others found down, a new one does."""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from aiosmtpd.controller import Controller
from conftest import free_port
from outbox_helpers import queue, smtp_server

from server.db import db
from server.mail import smtp_sender
from server.models import Outbox, utcnow
from server.processes.sender import Sender


class Sessions:
    """An SMTP server that keeps, per mail, its Message-ID's line and the
    session (connection) it came on."""

    def __init__(self):
        self.got, self.lock = [], threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.got.append((id(session), envelope.content))
        return "250 2.0.0 Ok"

    def sessions(self) -> int:
        with self.lock:
            return len({session for session, _ in self.got})

    def mails(self) -> int:
        with self.lock:
            return len(self.got)


def serve(port: int | None = None, **smtp_options):
    handler = Sessions()
    controller = Controller(handler, hostname="127.0.0.1", port=port or free_port(), **smtp_options)
    controller.start()
    return handler, controller


@pytest.fixture
def server():
    with smtp_server(Sessions()) as handler:
        yield handler


def drain(app, config, session, now=None) -> dict:
    with app.app_context(), db.connection_context():
        return smtp_sender.drain(config, now or utcnow(), session=session)


def statuses(app) -> list[str]:
    with app.app_context(), db.connection_context():
        return [r.status for r in Outbox.select().order_by(Outbox.id)]


def test_the_sender_sends_the_mails_of_its_rounds_over_one_session(sqlite_app, server):
    config = dict(sqlite_app.config, SMTP_PORT=server.port)
    sender = Sender(config, db.obj)
    with sqlite_app.app_context():
        for _ in range(3):
            queue(sqlite_app, 2)
            assert sender.round()["sent"] == 2
        assert sender.session.smtp is not None  # still open between rounds
        sender.close()
        assert sender.session.smtp is None
    assert server.mails() == 6 and server.sessions() == 1


def test_a_session_dropped_by_the_server_costs_no_mail(sqlite_app):
    """aiosmtpd times an idle client out as Postfix does (421, hang up): the
    next mail goes out on a new session, once, in the same drain."""
    handler, controller = serve(timeout=0.3)
    try:
        config = dict(sqlite_app.config, SMTP_PORT=controller.port)
        session = smtp_sender.Connection(config)
        queue(sqlite_app)
        assert drain(sqlite_app, config, session)["sent"] == 1
        time.sleep(0.8)  # the server hangs up the idle session
        queue(sqlite_app, 2)
        assert drain(sqlite_app, config, session) == {"sent": 2, "retry": 0, "failed": 0}
        session.close()
    finally:
        controller.stop()
    assert statuses(sqlite_app) == ["sent"] * 3
    assert handler.mails() == 3 and handler.sessions() == 2


def test_a_server_gone_between_drains_defers_the_mail_as_unreachable(sqlite_app):
    handler, controller = serve()
    config = dict(sqlite_app.config, SMTP_PORT=controller.port)
    session = smtp_sender.Connection(config)
    queue(sqlite_app)
    assert drain(sqlite_app, config, session)["sent"] == 1
    controller.stop()
    queue(sqlite_app)
    assert drain(sqlite_app, config, session)["retry"] == 1
    with sqlite_app.app_context(), db.connection_context():
        last = Outbox.select().order_by(Outbox.id.desc()).get()
    assert last.status == "deferred" and last.last_error.startswith(smtp_sender.UNREACHABLE)
    assert handler.mails() == 1


def test_an_idle_session_and_a_full_one_are_let_go(sqlite_app, server, monkeypatch):
    config = dict(sqlite_app.config, SMTP_PORT=server.port)
    session = smtp_sender.Connection(config)
    monkeypatch.setattr(smtp_sender, "SESSION_MAX_MAILS", 3)
    queue(sqlite_app, 5)
    assert drain(sqlite_app, config, session)["sent"] == 5  # one drain: one session
    queue(sqlite_app)
    drain(sqlite_app, config, session)  # it carried 5 >= 3: a new one
    assert server.sessions() == 2
    monkeypatch.setattr(smtp_sender, "SESSION_IDLE_SECONDS", 0.05)
    time.sleep(0.1)
    queue(sqlite_app)
    drain(sqlite_app, config, session)  # idle too long: a new one
    assert server.sessions() == 3
    monkeypatch.setattr(smtp_sender, "SESSION_IDLE_SECONDS", 60)
    queue(sqlite_app)
    drain(sqlite_app, config, session)
    session.close()
    assert server.sessions() == 3 and server.mails() == 8


def test_only_a_new_session_makes_the_mails_waiting_for_the_server_due(sqlite_app, server):
    """Mails another sender could not get out wait for the server; a mail
    through a new session shows it answers (they are due at once), one
    through a kept session does not (``recover`` knocks for them)."""
    config = dict(sqlite_app.config, SMTP_PORT=server.port)
    session = smtp_sender.Connection(config)
    queue(sqlite_app)
    assert drain(sqlite_app, config, session)["sent"] == 1  # opens the session
    later = utcnow() + dt.timedelta(hours=1)
    waiting = queue(
        sqlite_app,
        2,
        status="deferred",
        attempts=1,
        next_attempt_at=later,
        last_error=smtp_sender.UNREACHABLE + "ConnectionRefusedError",
    )
    queue(sqlite_app)
    assert drain(sqlite_app, config, session)["sent"] == 1  # kept session
    with sqlite_app.app_context(), db.connection_context():
        assert smtp_sender.waiting_for_server(utcnow()) == 2
    session.close()
    queue(sqlite_app)
    assert drain(sqlite_app, config, session)["sent"] == 1  # a new session
    with sqlite_app.app_context(), db.connection_context():
        assert smtp_sender.waiting_for_server(utcnow()) == 0
    assert drain(sqlite_app, config, session)["sent"] == 2
    session.close()
    assert statuses(sqlite_app)[-4:] == ["sent"] * 4
    assert len(waiting) == 2


def test_a_failed_round_lets_the_session_go(sqlite_app, server):
    config = dict(sqlite_app.config, SMTP_PORT=server.port)
    sender = Sender(config, db.obj)
    with sqlite_app.app_context():
        queue(sqlite_app)
        sender.round()
        assert sender.session.smtp is not None
        sender.round = lambda: 1 / 0  # any error in a round
        sender.step()
    assert sender.session.smtp is None

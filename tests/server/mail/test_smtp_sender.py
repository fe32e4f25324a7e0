"""Delivery you can see: each outbox row's status (queued, deferred, sent with
the server's answer, failed), the signed return path (VERP), raw
List-Unsubscribe, short leases that a dead sender loses within seconds, and
an SMTP outage longer than the whole retry schedule: every mail still goes out."""

from __future__ import annotations

import datetime as dt
import threading
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller
from conftest import free_port
from outbox_helpers import queue, rows, smtp_server

from server.db import db
from server.mail import smtp_sender
from server.mail.bounces import AddressError, ReturnPaths
from server.models import utcnow


class Recorder:
    """An SMTP server that answers each mail with ``answer`` and keeps the
    envelope sender, the recipients and the raw bytes."""

    def __init__(self, answer: str = "250 2.0.0 Ok: queued as ABC123"):
        self.answer, self.got, self.lock = answer, [], threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.got.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return self.answer

    def message_ids(self) -> list[str]:
        with self.lock:
            return [
                message_from_bytes(raw, policy=policy.default)["Message-ID"]
                for _, _, raw in self.got
            ]


@pytest.fixture
def recorder():
    with smtp_server(Recorder()) as handler:
        yield handler


def run(app, config, now=None, **kw):
    with app.app_context(), db.connection_context():
        return smtp_sender.drain(config, now, **kw)


def test_sent_mail_keeps_the_servers_answer_and_a_signed_return_path(sqlite_app, recorder):
    config = dict(sqlite_app.config, SMTP_PORT=recorder.port, BOUNCE_DOMAIN="Bounces.Example.org")
    (row_id,) = queue(
        sqlite_app,
        headers={"List-Unsubscribe": "<http://localhost/mail/unsubscribe/" + "x" * 120 + ">"},
    )
    assert rows(sqlite_app)[0].status == "queued"
    assert run(sqlite_app, config) == {"sent": 1, "retry": 0, "failed": 0}
    (row,) = rows(sqlite_app)
    assert row.status == "sent" and row.smtp_reply == "250 2.0.0 Ok: queued as ABC123"
    assert row.claimed_until is None and row.claimed_by == ""
    ((mail_from, rcpt, raw),) = recorder.got
    assert rcpt == ["p0@example.org"]
    local, domain = mail_from.split("@")
    assert domain == "bounces.example.org" and local.startswith("bounce+") and len(local) < 64
    assert local == local.lower()
    paths = ReturnPaths.from_settings(config)
    assert paths.read(mail_from) == row_id
    # Raw on the wire, one line, not RFC 2047-encoded.
    assert b"List-Unsubscribe: <http://localhost/mail/unsubscribe/" + b"x" * 120 + b">\r\n" in raw
    assert b"=?utf-8?" not in raw


def test_return_paths_are_signed(sqlite_app):
    paths = ReturnPaths("key", "bounces.example.org")
    good = paths.for_outbox(12345)
    assert paths.read(good.upper()) == 12345  # local parts may be case-folded
    token = good.split("+")[1].split("@")[0]
    forged = good.replace(token, token[:-1] + ("a" if token[-1] != "a" else "b"))
    for bad in (
        forged,
        ReturnPaths("other", "bounces.example.org").for_outbox(12345),
        "bounce+zz@bounces.example.org",
        good.replace("bounces.", "x."),
        "play+x@y",
    ):
        with pytest.raises(AddressError):
            paths.read(bad)


def test_without_bounce_domain_the_envelope_sender_is_mail_from(sqlite_app, recorder):
    config = dict(sqlite_app.config, SMTP_PORT=recorder.port, MAIL_FROM="Games <games@example.org>")
    queue(sqlite_app)
    run(sqlite_app, config)
    assert recorder.got[0][0] == "games@example.org"


def test_refused_for_good_is_failed_at_once_and_waits_for_a_moderator(sqlite_app):
    handler = Recorder("550 5.1.1 <p0@example.org>: Recipient address rejected")
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        config = dict(sqlite_app.config, SMTP_PORT=controller.port)
        (row_id,) = queue(sqlite_app)
        now = utcnow()
        assert run(sqlite_app, config, now)["failed"] == 1
        (row,) = rows(sqlite_app)
        assert row.status == "failed" and row.permanent and "550" in row.last_error
        assert run(sqlite_app, config, now + dt.timedelta(days=30))["failed"] == 0  # not retried
        handler.answer = "250 OK"
        with sqlite_app.app_context(), db.connection_context():
            assert smtp_sender.retry(row_id, utcnow())
        assert run(sqlite_app, config)["sent"] == 1
    finally:
        controller.stop()
    assert rows(sqlite_app)[0].status == "sent" and len(handler.got) == 2


def test_outage_longer_than_the_retry_schedule_then_every_mail_goes_out(sqlite_app):
    """Down for days (far beyond SENDER_MAX_ATTEMPTS): the mails show as
    failed, and as soon as the server answers they all go out."""
    port = free_port()
    config = dict(
        sqlite_app.config,
        SMTP_PORT=port,
        SENDER_MAX_ATTEMPTS=3,
        SENDER_RETRY_BASE=60,
        SENDER_RETRY_MAX=3600,
    )
    queue(sqlite_app, 40)
    start = utcnow()
    for minute in range(0, 3 * 24 * 60, 30):  # three days, a drain every 30 min
        run(sqlite_app, config, start + dt.timedelta(minutes=minute))
    assert {r.status for r in rows(sqlite_app)} == {"failed"}
    assert all(
        r.last_error.startswith(smtp_sender.UNREACHABLE) and not r.permanent
        for r in rows(sqlite_app)
    )
    handler = Recorder()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        # Twenty minutes after the last drain: none is due for another 40.
        later = start + dt.timedelta(days=3, minutes=-10)
        assert run(sqlite_app, config, later)["sent"] == 0
        with sqlite_app.app_context(), db.connection_context():
            assert smtp_sender.recover(config, later) == 40  # the knock: all due now
        assert run(sqlite_app, config, later)["sent"] == 40
    finally:
        controller.stop()
    assert {r.status for r in rows(sqlite_app)} == {"sent"}
    assert sorted(handler.message_ids()) == sorted(r.message_id for r in rows(sqlite_app))


def test_without_the_knock_the_capped_interval_still_gets_them_out(sqlite_app):
    port = free_port()
    config = dict(
        sqlite_app.config,
        SMTP_PORT=port,
        SENDER_MAX_ATTEMPTS=2,
        SENDER_RETRY_BASE=60,
        SENDER_RETRY_MAX=600,
    )
    queue(sqlite_app, 5)
    start = utcnow()
    for minute in range(0, 120, 5):
        run(sqlite_app, config, start + dt.timedelta(minutes=minute))
    assert {r.status for r in rows(sqlite_app)} == {"failed"}
    handler = Recorder()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        # The first one due at the capped interval gets through; the others,
        # waiting for the same server, are due at once after it.
        run(sqlite_app, config, start + dt.timedelta(minutes=135))
        run(sqlite_app, config, start + dt.timedelta(minutes=135))
    finally:
        controller.stop()
    assert {r.status for r in rows(sqlite_app)} == {"sent"}


def test_an_unreachable_server_is_tried_once_per_drain(sqlite_app, monkeypatch):
    opened = []
    real_open = smtp_sender.Connection._open
    monkeypatch.setattr(
        smtp_sender.Connection, "_open", lambda self: opened.append(1) or real_open(self)
    )
    config = dict(sqlite_app.config, SMTP_PORT=free_port())
    queue(sqlite_app, 10)
    assert run(sqlite_app, config) == {"sent": 0, "retry": 10, "failed": 0}
    assert len(opened) == 1
    assert {r.status for r in rows(sqlite_app)} == {"deferred"}


def test_a_claim_is_a_lease_of_seconds_and_a_dead_holders_claim_is_freed(sqlite_app, recorder):
    config = dict(sqlite_app.config, SMTP_PORT=recorder.port, SENDER_LEASE_SECONDS=5)
    ids = queue(sqlite_app, 3)
    now = utcnow()
    with sqlite_app.app_context(), db.connection_context():
        lease = dt.timedelta(seconds=5)
        import socket

        host = socket.gethostname()
        assert smtp_sender.claim(ids[0], f"{host}:999999999:dead", now, lease) is not None
        assert smtp_sender.claim(ids[1], f"{host}:1:init", now, lease) is not None  # alive
        assert smtp_sender.claim(ids[0], "other", now, lease) is None  # held
        assert smtp_sender.release_dead_claims(now) == 1
    # The living holder's row is left alone until its lease runs out.
    assert run(sqlite_app, config, now)["sent"] == 2
    assert run(sqlite_app, config, now + dt.timedelta(seconds=6))["sent"] == 1
    assert len(recorder.got) == 3

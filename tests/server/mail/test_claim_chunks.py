"""On PostgreSQL a sender claims up to CLAIM_CHUNK due mails by one UPDATE
(mail/smtp_sender.claim_due): two senders claiming at once never get the same
row, and between them leave none out; a chunk whose sends run past half its lease
lets the rest go instead of sending them on a lease about to run out; the
chunk of a sender that dies is free again once its lease is over (or at
once, by ``release_dead_claims``), and its mails go out once."""

from __future__ import annotations

import asyncio
import datetime as dt
import socket
import threading

import pytest
from aiosmtpd.controller import Controller
from conftest import free_port, make_app
from outbox_helpers import queue, rows

from server.db import db
from server.mail import smtp_sender
from server.models import Outbox, utcnow

pytestmark = pytest.mark.postgres


class Slow:
    """An SMTP server that takes ``delay`` seconds over each mail and counts
    them per Message-ID line."""

    def __init__(self, delay: float = 0.0):
        self.delay, self.got, self.lock = delay, [], threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(self.delay)
        with self.lock:
            self.got.append(envelope.content)
        return "250 2.0.0 Ok"


@pytest.fixture
def pg_app(pg_url, smtp, tmp_path):
    return make_app(pg_url, smtp, tmp_path)


def test_two_senders_claiming_at_once_share_the_rows_out(pg_app):
    ids = queue(pg_app, 120)
    lease = dt.timedelta(seconds=30)
    got: dict[str, list[int]] = {"a": [], "b": []}
    start = threading.Barrier(2)

    def claim_all(holder: str) -> None:
        with pg_app.app_context(), db.connection_context():  # a connection per thread
            start.wait()
            while smtp_sender.DUE_AT.rows(utcnow(), utcnow(), 1):  # a race lost: try again
                chunk = smtp_sender.claim_due(holder, utcnow(), utcnow(), lease, 7)
                got[holder].extend(row.id for row in chunk if row.claimed_by == holder)

    threads = [threading.Thread(target=claim_all, args=(h,)) for h in got]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not set(got["a"]) & set(got["b"])
    assert sorted(got["a"] + got["b"]) == ids
    assert all(row.claimed_by in ("a", "b") for row in rows(pg_app))


def test_a_chunk_comes_oldest_first_and_skips_what_is_not_due(pg_app):
    ids = queue(pg_app, 5)
    now = utcnow()
    with pg_app.app_context(), db.connection_context():
        Outbox.update(next_attempt_at=now + dt.timedelta(hours=1)).where(
            Outbox.id == ids[0]
        ).execute()
        Outbox.update(status="sent").where(Outbox.id == ids[1]).execute()
        Outbox.update(next_attempt_at=now - dt.timedelta(hours=1)).where(
            Outbox.id == ids[4]
        ).execute()
        chunk = smtp_sender.claim_due("me", now, now, dt.timedelta(seconds=30), 10)
    assert [row.id for row in chunk] == [ids[4], ids[2], ids[3]]


def test_sends_past_half_the_lease_let_the_rest_of_the_chunk_go(pg_app):
    """A server taking 0.3 s a mail, leases of 1 s: a chunk is let go after
    two mails and claimed again; every mail goes out once, none is left
    claimed."""
    handler = Slow(delay=0.3)
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        config = dict(pg_app.config, SMTP_PORT=controller.port, SENDER_LEASE_SECONDS=1)
        queue(pg_app, 6)
        released = []
        real_release = smtp_sender.release

        def counting_release(chunk, holder):
            released.append(len(chunk))
            return real_release(chunk, holder)

        smtp_sender.release = counting_release
        try:
            with pg_app.app_context(), db.connection_context():
                assert smtp_sender.drain(config, utcnow())["sent"] == 6
        finally:
            smtp_sender.release = real_release
    finally:
        controller.stop()
    assert released and released[0] == 4  # after two mails of the first chunk of six
    assert len(handler.got) == 6
    assert all(r.status == "sent" and r.claimed_until is None for r in rows(pg_app))


def test_the_chunk_of_a_dead_sender_goes_out_once(pg_app):
    handler = Slow()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        config = dict(pg_app.config, SMTP_PORT=controller.port, SENDER_LEASE_SECONDS=5)
        queue(pg_app, 4)
        now = utcnow()
        lease = dt.timedelta(seconds=5)
        dead = f"{socket.gethostname()}:999999999:dead"
        later = now + dt.timedelta(seconds=6)  # its lease is over
        with pg_app.app_context(), db.connection_context():
            assert len(smtp_sender.claim_due(dead, now, now, lease, 3)) == 3  # then killed
            assert smtp_sender.drain(config, now)["sent"] == 1  # the one it did not hold
            assert smtp_sender.drain(config, later)["sent"] == 3
        queue(pg_app, 2)
        with pg_app.app_context(), db.connection_context():
            assert len(smtp_sender.claim_due(dead, later, later, lease, 2)) == 2
            assert smtp_sender.release_dead_claims(later) == 2  # a sender starting again
            assert smtp_sender.drain(config, later)["sent"] == 2
    finally:
        controller.stop()
    assert len(handler.got) == 6 and len(set(handler.got)) == 6

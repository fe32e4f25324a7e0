"""A committed mail wakes the sender (server/wakeup.py): with a sender that
looks at the outbox only every 30 s, a mail written after its first look
still reaches a real SMTP server within seconds, on SQLite (a datagram
after COMMIT) and on PostgreSQL (NOTIFY, delivered at COMMIT).  And the
wake-up never comes before the commit, nor for a rollback."""

from __future__ import annotations

import time
import uuid

import pytest
from test_sender_process import fill, smtp_server, start_sender, stop, wait_for

from server import wakeup
from server.db import bind, make_database, migrate
from server.mail import compose

LONG_INTERVAL = 30  # seconds between two looks: the test fails without a wake-up


def queue_mail(database, subject: str) -> str:
    """One mail written as a move writes it: compose.store in a transaction."""
    message_id = f"<{uuid.uuid4().hex}@pbem.test>"
    with database.connection_context(), database.atomic():
        compose.store(
            game=None,
            kind="test",
            to_addr="player@example.org",
            subject=subject,
            body_text="hi",
            body_html="<p>hi</p>",
            message_id=message_id,
            in_reply_to="",
            references="",
            headers={},
            turn_of=None,
            holds_clock=False,
            author=None,
        )
    return message_id


def test_a_committed_mail_arrives_long_before_the_next_look(tmp_path, db_url):
    first = fill(db_url, 1, tmp_path)[0]  # migrated; one mail for the first look
    handler, controller = smtp_server(delay=0)
    sender = start_sender(tmp_path, db_url, controller.port, SENDER_INTERVAL=LONG_INTERVAL)
    try:
        # The first look happens at start: after it the sender sleeps 30 s.
        wait_for(lambda: handler.counts[first] == 1, 20, "the first look", [sender])
        time.sleep(0.5)
        database = make_database(db_url)
        bind(database)
        started = time.monotonic()
        second = queue_mail(database, "after the first look")
        wait_for(lambda: handler.counts[second] == 1, 10, "the woken sender", [sender])
        took = time.monotonic() - started
    finally:
        stop(sender)
        controller.stop()
    assert took < LONG_INTERVAL / 3, took


def test_sqlite_wakes_after_commit_only(tmp_path, sqlite_url):
    database = make_database(sqlite_url)
    bind(database)
    migrate(database)
    listener = wakeup.listen(database)
    try:
        assert isinstance(listener, wakeup.SocketListener)
        # A second sender on the same file keeps to its interval.
        assert isinstance(wakeup.listen(database), wakeup.Polling)
        with database.connection_context():
            with database.atomic() as txn:
                queue_mail_inside(database)
                assert not listener.wait(0.2)  # written, not committed: nothing yet
                txn.rollback()
            assert not listener.wait(0.2)  # rolled back: nothing at all
        queue_mail(database, "committed")
        assert listener.wait(2)
        assert not listener.wait(0.1)  # one wake-up per transaction, drained
    finally:
        listener.close()


@pytest.mark.postgres
def test_postgres_notifies_at_commit_once(pg_url):
    database = make_database(pg_url)
    bind(database)
    migrate(database)
    listener = wakeup.listen(database)
    try:
        assert isinstance(listener, wakeup.PostgresListener) and listener.conn is not None
        with database.connection_context():
            with database.atomic() as txn:
                queue_mail_inside(database)
                queue_mail_inside(database)
                assert not listener.wait(0.3)
                txn.rollback()
            assert not listener.wait(0.3)
        queue_mail(database, "committed")
        assert listener.wait(2)
        assert not listener.wait(0.2)
        # Another schema's outbox is another channel: no wake-up here.
        with database.connection_context():
            database.execute_sql(f'NOTIFY "{wakeup.channel_for("another_run")}"')
        assert not listener.wait(0.3)
        # A broken listening connection is reopened, and that counts as woken.
        listener.conn.close()
        assert not listener.wait(0.1)
        assert listener.wait(0.1) and listener.conn is not None
    finally:
        listener.close()


def queue_mail_inside(database) -> None:
    compose.store(
        game=None,
        kind="test",
        to_addr="player@example.org",
        subject="inside",
        body_text="hi",
        body_html="",
        message_id=f"<{uuid.uuid4().hex}@pbem.test>",
        in_reply_to="",
        references="",
        headers={},
        turn_of=None,
        holds_clock=False,
        author=None,
    )

"""The outbox and its sender against real SMTP servers: retries with backoff
under one Message-ID, giving up, threading headers, nothing sent in requests."""

from __future__ import annotations

import datetime as dt
from email import message_from_bytes, policy

from aiosmtpd.controller import Controller
from conftest import free_port
from game_driver import current_turn
from web_helpers import move_form, post_form

from server.db import db
from server.mail.smtp_sender import drain
from server.models import Outbox, utcnow


class Flaky:
    """An SMTP server that answers 451 (try later) to the first ``fail`` mails."""

    def __init__(self, fail: int):
        self.fail, self.seen, self.accepted = fail, [], []

    async def handle_DATA(self, server, session, envelope):
        msg = message_from_bytes(envelope.content, policy=policy.default)
        self.seen.append(msg["Message-ID"])
        if len(self.seen) <= self.fail:
            return "451 4.3.0 try again later"
        self.accepted.append(msg)
        return "250 OK"


def queue_one(app):
    with app.app_context(), db.connection_context():
        mailer = app.extensions["pbem_mailer"]
        return Outbox.create(
            kind="test",
            to_addr="someone@example.org",
            subject="hello",
            body_text="hi",
            body_html="<p>hi</p>",
            message_id=mailer.new_message_id(),
        ).message_id


def test_retry_keeps_message_id_and_backs_off(sqlite_app):
    flaky = Flaky(fail=2)
    controller = Controller(flaky, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        config = dict(sqlite_app.config, SMTP_PORT=controller.port, SENDER_RETRY_BASE=60)
        message_id = queue_one(sqlite_app)
        now = utcnow()
        with sqlite_app.app_context(), db.connection_context():
            assert drain(config, now) == {"sent": 0, "retry": 1, "failed": 0}
            row = Outbox.get(Outbox.message_id == message_id)
            assert row.status == "deferred" and row.attempts == 1
            assert row.next_attempt_at == now + dt.timedelta(seconds=60)
            assert drain(config, now + dt.timedelta(seconds=30))["retry"] == 0  # not due
            assert drain(config, now + dt.timedelta(seconds=61))["retry"] == 1
            row = Outbox.get(Outbox.message_id == message_id)
            assert row.next_attempt_at == now + dt.timedelta(seconds=61 + 120)
            assert drain(config, now + dt.timedelta(hours=1))["sent"] == 1
            assert Outbox.get(Outbox.message_id == message_id).status == "sent"
            assert drain(config, now + dt.timedelta(hours=2))["sent"] == 0  # sent once
    finally:
        controller.stop()
    assert flaky.seen == [message_id] * 3
    assert flaky.accepted[0]["Message-ID"] == message_id


def test_gives_up_after_max_attempts_when_server_is_down(sqlite_app):
    config = dict(sqlite_app.config, SMTP_PORT=free_port(), SENDER_MAX_ATTEMPTS=3)
    message_id = queue_one(sqlite_app)
    now = utcnow()
    with sqlite_app.app_context(), db.connection_context():
        for hour in range(3):
            drain(config, now + dt.timedelta(hours=hour))
        row = Outbox.get(Outbox.message_id == message_id)
        assert row.status == "failed" and row.attempts == 3
        assert "Connection refused" in row.last_error or "Errno" in row.last_error


def test_a_move_sends_nothing_itself(table, smtp):
    seat, client, page, _ = current_turn(table)
    received = len(smtp.messages)
    form = move_form(page.text)
    for _ in range(30):  # play until the turn passes to someone else
        page = post_form(client, form, action=form["buttons"][0][1])
        form = move_form(page.text)
        if form is None:
            break
    assert len(smtp.messages) == received
    with table.app.app_context(), db.connection_context():
        assert Outbox.select().where(Outbox.status.in_(("queued", "deferred"))).count() >= 1


def test_mails_of_a_game_are_one_thread(table, smtp):
    current_turn(table)
    game = table.game()
    mails = [m for _, m in smtp.messages if m["References"]]
    assert len(mails) >= 4  # invitations, start notices, first turn
    assert {m["In-Reply-To"] for m in mails} == {game.thread_id}
    # One subject for the whole thread; a turn mail's first line says what it asks.
    # (An invitation to an address without an account names no game: anybody's text.)
    strangers = {m["Subject"] for m in mails} - {f"[pbem] {game.name} (#{game.id})"}
    assert strangers <= {"[pbem] An invitation to a game of Puerto Rico"}
    firsts = [m.get_body(("plain",)).get_content().split("\n", 1)[0] for m in mails]
    turns = [first for first in firsts if first.startswith("Your turn: ")]
    assert turns and (game.prompt.rstrip(".")[1:] in turns[-1] or len(game.prompt) < 2)
    assert all(m.get_body(("html",)) is not None for m in mails)
    assert all(m["Auto-Submitted"] == "auto-generated" for m in mails)
    assert {m["List-Id"] for m in mails} == {"pbem <games.pbem.localhost>"}


def test_turn_mail_says_what_is_asked_and_what_happened(table):
    seat, client, page, mail = current_turn(table)
    text = mail.get_body(("plain",)).get_content()
    assert "Deadline:" in text and table.game().prompt in text
    form = move_form(page.text)
    while form is not None:
        page = post_form(client, form, action=form["buttons"][0][1])
        form = move_form(page.text)
    seat2, client2, page2, mail2 = current_turn(table)
    assert seat2 != seat
    assert "Since your last move:" in mail2.get_body(("plain",)).get_content()

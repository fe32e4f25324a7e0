"""Bounces: a delivery status notification the way Postfix writes it, sent
to a mail's signed return path, marks the mail bounced; a bounced turn mail
stops that seat's clock until the player opens the game (or a mail gets
through, or a moderator decides)."""

from __future__ import annotations

import datetime as dt
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime

import pytest

from server.db import db
from server.mail.bounces import ReturnPaths, read_bounce
from server.models import Outbox, Seat, User, utcnow
from server.services import attention, outbox
from server.services.clock.sweep import sweep


def fields(*pairs) -> Message:
    block = Message()
    for name, value in pairs:
        block[name] = value
    return block


def postfix_dsn(
    return_path: str,
    original: Outbox | None,
    recipient: str,
    action: str = "failed",
    status: str = "5.1.1",
    diagnostic: str = "smtp; 550 5.1.1 <{rcpt}>: Recipient address rejected: "
    "User unknown in virtual mailbox table",
) -> bytes:
    """A bounce as Postfix's bounce(8) formats it: multipart/report with a
    human part, message/delivery-status and the returned headers."""
    dsn = MIMEMultipart("report", report_type="delivery-status")
    dsn["From"] = "MAILER-DAEMON@mx.example.net (Mail Delivery System)"
    dsn["To"] = return_path
    dsn["Subject"] = "Undelivered Mail Returned to Sender"
    dsn["Auto-Submitted"] = "auto-replied"
    dsn["Date"] = format_datetime(dt.datetime.now(dt.UTC))
    dsn["Message-ID"] = "<20261123101010.4F2A1C0123@mx.example.net>"
    dsn.attach(
        MIMEText(
            "This is the mail system at host mx.example.net.\n\n"
            "I'm sorry to have to inform you that your message could not\n"
            "be delivered to one or more recipients. It's attached below.\n\n"
            f"<{recipient}>: host mail.example.org[192.0.2.7] said: 550 5.1.1\n"
            "    User unknown (in reply to RCPT TO command)\n",
            "plain",
        )
    )
    report = MIMEBase("message", "delivery-status")
    # The generator writes message/delivery-status as blocks of fields, one
    # for the message, one per recipient (the way the parser reads them).
    report.set_payload(
        [
            fields(
                ("Reporting-MTA", "dns; mx.example.net"),
                ("X-Postfix-Queue-ID", "4F2A1C0123"),
                ("X-Postfix-Sender", f"rfc822; {return_path}"),
                ("Arrival-Date", "Mon, 23 Nov 2026 10:10:09 +0000 (UTC)"),
            ),
            fields(
                ("Final-Recipient", f"rfc822; {recipient}"),
                ("Original-Recipient", f"rfc822;{recipient}"),
                ("Action", action),
                ("Status", status),
                ("Remote-MTA", "dns; mail.example.org"),
                ("Diagnostic-Code", diagnostic.format(rcpt=recipient)),
            ),
        ]
    )
    dsn.attach(report)
    dsn.attach(
        MIMEText(
            f"Return-Path: <{return_path}>\nFrom: pbem <pbem@localhost>\nTo: {recipient}\n"
            f"Subject: {original.subject if original else 'x'}\n"
            f"Message-ID: {original.message_id if original else '<nothing@x>'}\n",
            "rfc822-headers",
        )
    )
    return dsn.as_bytes()


@pytest.fixture
def bouncing(sqlite_table):
    """The table with bounces on: its first turn mail sent, the row and its player."""
    app = sqlite_table.app
    app.config["BOUNCE_DOMAIN"] = "bounces.example.org"
    sqlite_table.send_mail(app)
    with app.app_context(), db.connection_context():
        row = Outbox.select().where(Outbox.kind == "turn").order_by(Outbox.id.desc()).get()
    return sqlite_table, row


def seat_of(app, game_id: int, email: str) -> Seat:
    with app.app_context(), db.connection_context():
        return Seat.select().join(User).where((Seat.game == game_id) & (User.email == email)).get()


def test_the_parser_reads_a_postfix_report():
    paths = ReturnPaths("k", "bounces.example.org")
    raw = postfix_dsn(paths.for_outbox(77), None, "gone@example.org")
    bounce = read_bounce(raw, paths)
    assert bounce.outbox_id == 77 and bounce.failed
    assert (bounce.action, bounce.status) == ("failed", "5.1.1")
    assert "User unknown" in bounce.diagnostic and bounce.message_id == "<nothing@x>"
    # The envelope recipient alone names the mail too (To rewritten on the way).
    raw = postfix_dsn("postmaster@example.org", None, "gone@example.org")
    assert read_bounce(raw, paths, [paths.for_outbox(78)]).outbox_id == 78
    delayed = read_bounce(
        postfix_dsn(
            paths.for_outbox(77),
            None,
            "x@example.org",
            "delayed",
            "4.4.1",
            "smtp; 451 4.4.1 try later",
        ),
        paths,
    )
    assert not delayed.failed


def test_a_bounced_turn_mail_holds_the_clock_until_the_player_opens_the_game(bouncing):
    table, row = bouncing
    app, game = table.app, table.game()
    raw = postfix_dsn(ReturnPaths.from_settings(app.config).for_outbox(row.id), row, row.to_addr)
    with app.app_context(), db.connection_context():
        assert outbox.handle_bounce(raw, app.config)
        bounced = Outbox.get_by_id(row.id)
        assert bounced.status == "bounced" and bounced.bounced_at is not None
        assert "5.1.1" in bounced.last_error and "User unknown" in bounced.last_error
    seat = seat_of(app, game.id, row.to_addr)
    assert seat.mail_hold_since is not None and seat.index == game.to_move
    deadline = seat.deadline
    later = deadline + dt.timedelta(hours=5)
    with app.app_context(), db.connection_context():
        report = sweep(app.config, app.extensions["pbem_mailer"], later)
        assert report.timeouts == 0  # the clock stands still
        moderator = User.get(User.email == table.emails[0])
        moderator.is_moderator = True
        (dash,) = attention.rows(moderator, later)
        assert "mail failing" in dash.reasons and dash.overdue is None
    # The player opens the game: their clock runs again from where it stood.
    client = table.clients[seat.index]
    client.get(f"/games/{game.id}")
    seat = seat_of(app, game.id, row.to_addr)
    assert seat.mail_hold_since is None and seat.deadline > deadline
    assert seat.deadline - deadline < dt.timedelta(minutes=5)


def test_a_mail_that_gets_through_releases_the_clock(bouncing, smtp):
    table, row = bouncing
    app, game = table.app, table.game()
    raw = postfix_dsn(ReturnPaths.from_settings(app.config).for_outbox(row.id), row, row.to_addr)
    with app.app_context(), db.connection_context():
        assert outbox.handle_bounce(raw, app.config)
        moderator = User.get(User.email == table.emails[0])
        moderator.is_moderator = True
        moderator.save()
        message = outbox.retry(game.id, moderator, game.seq, row.id)
        assert "queued again" in message
        assert Outbox.get_by_id(row.id).status == "queued"
    assert seat_of(app, game.id, row.to_addr).mail_hold_since is not None
    with app.app_context(), db.connection_context():
        assert outbox.deliver(app.config)["sent"] >= 1
        assert Outbox.get_by_id(row.id).status == "sent"
    assert seat_of(app, game.id, row.to_addr).mail_hold_since is None


def test_what_is_not_a_bounce_of_ours_changes_nothing(bouncing):
    table, row = bouncing
    app = table.app
    forged = ReturnPaths("another key", "bounces.example.org").for_outbox(row.id)
    with app.app_context(), db.connection_context():
        assert not outbox.handle_bounce(postfix_dsn(forged, None, row.to_addr), app.config)
        delayed = postfix_dsn(
            ReturnPaths.from_settings(app.config).for_outbox(row.id),
            row,
            row.to_addr,
            "delayed",
            "4.4.1",
            "smtp; 451 4.4.1 later",
        )
        assert not outbox.handle_bounce(delayed, app.config)
        assert Outbox.get_by_id(row.id).status == "sent"
        assert outbox.handle_bounce(b"Subject: hello\r\n\r\nnot a bounce\r\n", app.config) is False


def test_a_turn_mail_that_fails_holds_the_clock(bouncing):
    """Not out after SENDER_MAX_ATTEMPTS: the same hold as a bounce."""
    from conftest import free_port

    table, row = bouncing
    app, game = table.app, table.game()
    down = dict(app.config, SMTP_PORT=free_port(), SENDER_MAX_ATTEMPTS=1)
    with app.app_context(), db.connection_context():
        Outbox.update(status="queued").where(Outbox.id == row.id).execute()
        assert outbox.deliver(down, utcnow())["failed"] >= 1
        assert Outbox.get_by_id(row.id).status == "failed"
    assert seat_of(app, game.id, row.to_addr).mail_hold_since is not None


def test_a_bounce_through_the_real_receiver(bouncing):
    """The receiver takes mail for our signed return paths and hands it over as
    a bounce; any other bounce+ address is refused at RCPT."""
    import smtplib

    from conftest import free_port

    from server.db import db as database_proxy
    from server.processes import receiver

    table, row = bouncing
    app = table.app
    settings = dict(app.config, REPLY_DOMAIN="reply.example.org")
    controller = receiver.start(
        settings, database_proxy.obj, host="127.0.0.1", port=free_port(), protocol="smtp"
    )
    try:
        path = ReturnPaths.from_settings(app.config).for_outbox(row.id)
        with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as smtp:
            raw = postfix_dsn(path, row, row.to_addr).replace(b"\n", b"\r\n")
            smtp.sendmail("", [path], raw)
            with pytest.raises(smtplib.SMTPRecipientsRefused):
                smtp.sendmail("", ["bounce+nope@elsewhere.example.org"], b"Subject: x\n\nx")
    finally:
        controller.stop()
    with app.app_context(), db.connection_context():
        assert Outbox.get_by_id(row.id).status == "bounced"

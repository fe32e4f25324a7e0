"""The receiver checks before it reads.

Against the real receiver (aiosmtpd, over SMTP): a recipient without a good
signature is refused at RCPT (550); a declared SIZE or data over
INBOUND_MAX_BYTES gets 552; a mail made to stall the reply parser is read
in well under a second while another client is served; malformed mail gets
a permanent 554 (never 451, which has the sending server retry for days) or
is kept and answered once."""

from __future__ import annotations

import smtplib
import threading
import time
from email.message import EmailMessage

import pytest
from dovecot_helpers import dovecot
from imap_tools import MailBoxUnencrypted
from inbound_helpers import turn_reply, two_player_game
from reply_helpers import DOMAIN, game_row, inbound, outbox_kinds, reply_app, send, start_receiver

from server.db import db
from server.mail import inbound as inbound_mail
from server.mail.bounces import ReturnPaths
from server.mail.reply_address import ReplyAddresses
from server.processes.imap_poller import poll_once

BOUNCES = "bounces.test"


@pytest.fixture
def rapp(db_url, smtp, tmp_path):
    return reply_app(db_url, smtp, tmp_path, BOUNCE_DOMAIN=BOUNCES)


def client(port: int) -> smtplib.SMTP:
    smtp = smtplib.SMTP("127.0.0.1", port, timeout=30)
    smtp.ehlo()
    return smtp


# -- RCPT ---------------------------------------------------------------------------
def test_rcpt_takes_only_addresses_whose_signature_holds(rapp, receiver):
    ours = ReplyAddresses("test-secret", DOMAIN)
    forged = ReplyAddresses("another key", DOMAIN)
    paths, forged_paths = ReturnPaths("test-secret", BOUNCES), ReturnPaths("x", BOUNCES)
    with client(receiver.port) as smtp:
        smtp.mail("someone@example.org")
        for address in (
            "play+zzzz@reply.test",
            "play+@reply.test",
            "play+0000@reply.test",
            forged.for_seat(1, 0, 1, 0),
            forged.for_lobby(1, 1),
            "bounce+forged@bounces.test",
            forged_paths.for_outbox(5),
            "player1@reply.test",
            ours.for_seat(1, 0, 1, 0).replace("reply.test", "other.test"),
        ):
            assert smtp.rcpt(address)[0] == 550, address
        for address in (
            ours.for_seat(1, 0, 1, 0),
            ours.for_lobby(3, 2),
            ours.for_talk(1, 1, 4),
            paths.for_outbox(5),
        ):
            assert smtp.rcpt(address)[0] == 250, address
    assert inbound(rapp) == []


# -- size ---------------------------------------------------------------------------
def small_mail(to_addr: str, size: int) -> bytes:
    head = (
        f"From: someone@example.org\r\nTo: {to_addr}\r\nSubject: x\r\n"
        "Message-ID: <size@example.org>\r\n\r\n1\r\n"
    ).encode()
    line = b"x" * 70 + b"\r\n"
    return head + line * ((size - len(head)) // len(line) + 1)


def test_declared_size_and_data_over_the_limit_are_refused_with_552(sqlite_url, smtp, tmp_path):
    app = reply_app(sqlite_url, smtp, tmp_path, INBOUND_MAX_BYTES=4096)
    controller = start_receiver(app)
    address = ReplyAddresses("test-secret", DOMAIN).for_seat(1, 0, 1, 0)
    try:
        with client(controller.port) as smtp_client:
            assert smtp_client.esmtp_features["size"] == "4096"
            assert smtp_client.mail("a@example.org", ["SIZE=4097"])[0] == 552
            smtp_client.rset()
            assert smtp_client.mail("a@example.org", ["SIZE=4000"])[0] == 250
            assert smtp_client.rcpt(address)[0] == 250
            assert smtp_client.data(small_mail(address, 5000))[0] == 552
    finally:
        controller.stop()
    assert inbound(app) == []


def test_the_limit_is_256_kb_unless_set(rapp, receiver):
    assert rapp.config["INBOUND_MAX_BYTES"] == 256 * 1024
    with client(receiver.port) as smtp:
        assert smtp.esmtp_features["size"] == str(256 * 1024)
        assert smtp.mail("a@example.org", [f"SIZE={256 * 1024 + 1}"])[0] == 552


# -- time -----------------------------------------------------------------------------
STALLING = {
    # The outsider's mail: "1" and 10,000 blank lines (16.8 s before).
    "1 and 10,000 blank lines": "1" + "\n" * 10_000,
    # 40 KB of white space and line breaks: the signature pattern is
    # quadratic in it (minutes before).
    "40 KB of spaces and line breaks": "1\n" + " \n" * 20_000,
    "a line of 40 KB of spaces": "1\na" + " " * 40_000 + "b",
}


@pytest.mark.parametrize("shape", STALLING)
def test_the_reply_parser_reads_a_stalling_text_in_milliseconds(shape):
    started = time.perf_counter()
    commands = inbound_mail.command_lines(STALLING[shape])
    assert commands == (["1", "a b"] if shape.startswith("a line") else ["1"])
    took = time.perf_counter() - started
    assert took < 0.25, f"{shape}: {took:.2f} s"


@pytest.mark.parametrize("shape", list(STALLING)[:2])
def test_a_stalling_reply_is_played_in_well_under_a_second_and_stalls_nobody(rapp, receiver, shape):
    game = two_player_game(rapp, "t")
    email, _, reply = turn_reply(rapp, game.id, STALLING[shape])
    waited = []

    def other_client():
        time.sleep(0.05)  # while the reply is being read
        started = time.perf_counter()
        with client(receiver.port) as smtp:
            smtp.noop()
        waited.append(time.perf_counter() - started)

    other = threading.Thread(target=other_client)
    other.start()
    started = time.perf_counter()
    send(receiver.port, reply)
    took = time.perf_counter() - started
    other.join()
    (row,) = inbound(rapp)
    assert row.status == "applied" and game_row(rapp, game.id).seq == game.seq + 1
    print(
        f"{shape}: handled in {took * 1000:.0f} ms; another client waited {waited[0] * 1000:.0f} ms"
    )
    assert took < 1.0 and waited[0] < 1.0


# -- malformed mail ------------------------------------------------------------------------
def deep_multipart(depth: int, to_addr: str) -> bytes:
    head = (
        f"From: t1@example.org\r\nTo: {to_addr}\r\nSubject: deep\r\n"
        "Message-ID: <deep@example.org>\r\nMIME-Version: 1.0\r\n"
    ).encode()
    opening = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
        for i in range(depth)
    )
    closing = b"".join(b"\r\n--b%d--" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\n1" + closing + b"\r\n"


def malformed(case: str, to_addr: str) -> bytes:
    plain = (
        f"From: t1@example.org\r\nTo: {to_addr}\r\nSubject: Re: turn\r\n"
        "Message-ID: <malformed@example.org>\r\n\r\n1\r\n"
    ).encode()
    return {
        "NUL in the body": plain.replace(b"\r\n1\r\n", b"\r\n1\x00\r\n"),
        "NUL in the Subject": plain.replace(b"Re: turn", b"Re:\x00turn"),
        "NUL in From": plain.replace(b"t1@", b"t1\x00@"),
        "3,000 nested multiparts": deep_multipart(3000, to_addr),
    }[case]


@pytest.mark.parametrize(
    "case", ["NUL in the body", "NUL in the Subject", "NUL in From", "3,000 nested multiparts"]
)
def test_malformed_mail_is_refused_for_good(rapp, receiver, case):
    game = two_player_game(rapp, "t")
    _, _, reply = turn_reply(rapp, game.id, "1")
    raw = malformed(case, reply["To"])
    assert len(raw) < 256 * 1024
    with client(receiver.port) as smtp:
        with pytest.raises(smtplib.SMTPDataError) as refused:
            smtp.sendmail("t1@example.org", [reply["To"]], raw)
    assert refused.value.smtp_code == 554, refused.value
    assert inbound(rapp) == [] and game_row(rapp, game.id).seq == game.seq


def undecodable(reply: EmailMessage, case: str) -> bytes:
    head = b"".join(
        f"{name}: {reply[name]}\r\n".encode()
        for name in ("Authentication-Results", "From", "To", "Message-ID")
    )
    subject = f"Subject: {reply['Subject']}\r\n".encode()
    if case == "an encoded NUL in the Subject and From":
        head = head.replace(
            f"From: {reply['From']}".encode(),
            f"From: =?utf-8?q?Jan=00?= <{reply['From']}>".encode(),
        )
    return (
        head
        + {
            "an unknown charset": subject + b"Content-Type: text/plain; charset=x-no-such-charset"
            b"\r\n\r\n1\r\n",
            "bytes that are not UTF-8": subject + b"Content-Type: text/plain; charset=utf-8"
            b"\r\n\r\n1\xff\xfe\r\n",
            "broken base64": subject + b"Content-Type: text/plain\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\nM=Q!!=\r\n",
            "an unknown transfer encoding": subject + b"Content-Type: text/plain\r\n"
            b"Content-Transfer-Encoding: x-rot13\r\n"
            b"\r\n1\r\n",
            "an encoded NUL in the Subject and From": b"Subject: =?utf-8?q?Re=3A=00turn?="
            b"\r\n\r\n1\r\n",
            "an unknown charset in an encoded word": b"Subject: =?x-unknown?q?=00?=\r\n\r\n1\r\n",
        }[case]
    )


@pytest.mark.parametrize(
    "case",
    [
        "an unknown charset",
        "bytes that are not UTF-8",
        "broken base64",
        "an unknown transfer encoding",
        "an encoded NUL in the Subject and From",
        "an unknown charset in an encoded word",
    ],
)
def test_an_undecodable_part_is_read_as_well_as_it_goes_and_answered_once(rapp, receiver, case):
    game = two_player_game(rapp, "t")
    email, _, reply = turn_reply(rapp, game.id, "1")
    raw = undecodable(reply, case)
    for _ in range(2):  # and the retry of a server that missed the 250
        with client(receiver.port) as smtp:
            smtp.sendmail(email, [reply["To"]], raw)
    (row,) = inbound(rapp)
    assert row.status in ("applied", "refused"), row.outcome
    assert [k for k in outbox_kinds(rapp, email) if k.startswith("reply_")] in (
        ["reply_applied"],
        ["reply_refused"],
    )


# -- the IMAP poller keeps what it cannot read -----------------------------------------
@pytest.fixture(scope="module")
def imap():
    with dovecot() as server:
        yield server


def test_the_poller_keeps_a_mail_too_large_or_malformed_once_and_reads_it_no_more(
    sqlite_url, smtp, tmp_path, imap
):
    host, port, user, password = imap
    folder = f"limits-{id(tmp_path)}"
    app = reply_app(
        sqlite_url,
        smtp,
        tmp_path,
        INBOUND_MAX_BYTES=8192,
        IMAP_HOST=host,
        IMAP_PORT=port,
        IMAP_TLS="none",
        IMAP_USER=user,
        IMAP_PASSWORD=password,
        IMAP_FOLDER=folder,
        IMAP_DONE_FOLDER=f"{folder}-done",
    )
    address = ReplyAddresses("test-secret", DOMAIN).for_seat(1, 0, 1, 0)
    with MailBoxUnencrypted(host, port).login(user, password, "INBOX") as box:
        box.folder.create(folder)
        box.append(small_mail(address, 9000), folder, flag_set=[])
        box.append(deep_multipart(100, address), folder, flag_set=[])
    with app.app_context(), db.connection_context():
        assert poll_once(app.config, db) == {"handled": 2, "failed": 0}
        assert poll_once(app.config, db) == {"handled": 0, "failed": 0}
    rows = inbound(app)
    assert [r.status for r in rows] == ["ignored", "ignored"]
    assert "Larger than 8192 bytes" in rows[0].outcome, rows[0].outcome
    assert "too many nested MIME parts" in rows[1].outcome
    assert outbox_kinds(app, "t1@example.org") == []


def test_a_mail_that_breaks_the_handling_is_kept_answered_once_and_never_451(
    rapp, receiver, monkeypatch
):
    """A bug stands in for whatever mail this server cannot handle (not the
    database): everything the handling did is undone, the mail is kept, its
    sender told once, and the mail server hears 250, not 451 for days."""
    from server.models import Seat
    from server.services import replies

    def broken(*args):
        Seat.update(absent=True).execute()  # undone with the rest
        raise RuntimeError("a bug")

    monkeypatch.setattr(replies, "_handle", broken)
    game = two_player_game(rapp, "t")
    email, _, reply = turn_reply(rapp, game.id, "1")
    send(receiver.port, reply)
    send(receiver.port, reply)
    (row,) = inbound(rapp)
    assert row.status == "refused" and "Could not be handled" in row.outcome
    assert [k for k in outbox_kinds(rapp, email) if k.startswith("reply_")] == ["reply_refused"]
    with rapp.app_context(), db.connection_context():
        assert not Seat.select().where(Seat.absent == True).exists()  # noqa: E712
    assert game_row(rapp, game.id).seq == game.seq

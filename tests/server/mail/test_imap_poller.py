"""The IMAP poller against a real IMAP server: Debian's dovecot,
run by the test from a configuration in a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from dovecot_helpers import dovecot
from game_driver import Table
from imap_tools import AND, MailBoxUnencrypted
from reply_helpers import AUTHSERV, body_of, inbound, reply_app, write_reply
from test_mail_replies import turn_mail

from server.db import db
from server.processes.imap_poller import poll_once
from server.settings import ROOT


@pytest.fixture(scope="module")
def imap():
    with dovecot() as server:
        yield server


def imap_settings(imap, folder: str) -> dict:
    host, port, user, password = imap
    return {
        "IMAP_HOST": host,
        "IMAP_PORT": port,
        "IMAP_TLS": "none",
        "IMAP_USER": user,
        "IMAP_PASSWORD": password,
        "IMAP_FOLDER": folder,
        "IMAP_DONE_FOLDER": f"{folder}-done",
    }


def mailbox(imap, folder: str):
    host, port, user, password = imap
    box = MailBoxUnencrypted(host, port).login(user, password, "INBOX")
    if not box.folder.exists(folder):
        box.folder.create(folder)
    box.folder.set(folder)
    return box


def test_the_poller_plays_replies_from_the_mailbox_once(db_url, smtp, send_mail, tmp_path, imap):
    folder = f"replies-{os.getpid()}-{db_url[:5]}"
    app = reply_app(db_url, smtp, tmp_path, **imap_settings(imap, folder))
    table = Table(app, smtp, send_mail, 2, seed=5)
    table.set_up()
    email, mail = turn_mail(table)
    reply = write_reply(mail, email, "Mayor", "nl")
    auto = write_reply(mail, email, "I am on holiday", Auto_Submitted="auto-replied")
    with mailbox(imap, folder) as box:
        box.append(reply.as_bytes(), folder, flag_set=[])
        box.append(auto.as_bytes(), folder, flag_set=[])
        box.append(reply.as_bytes(), folder, flag_set=[])  # delivered twice
    with app.app_context(), db.connection_context():
        assert poll_once(app.config, db) == {"handled": 3, "failed": 0}
        assert poll_once(app.config, db) == {"handled": 0, "failed": 0}
    assert table.game().seq == 1
    assert [(r.status, r.via) for r in inbound(app)] == [("applied", "imap"), ("ignored", "imap")]
    (answer,) = table.new_mail(email)
    assert "- Mayor" in body_of(answer)
    with mailbox(imap, folder) as box:
        assert list(box.fetch(AND(all=True), mark_seen=False)) == []
        box.folder.set(f"{folder}-done")
        done = list(box.fetch(AND(seen=True), mark_seen=False))
        assert len(done) == 3


def test_the_poller_command_polls_once(sqlite_url, smtp, tmp_path, imap):
    folder = f"cmd-{os.getpid()}"
    app = reply_app(sqlite_url, smtp, tmp_path)
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "someone@example.org", "play+x@reply.test", "Hi"
    msg["Message-ID"] = "<cmd-test@example.org>"
    msg.set_content("1")
    with mailbox(imap, folder) as box:
        box.append(msg.as_bytes(), folder, flag_set=[])
    env = dict(
        os.environ,
        DATABASE_URL=app.config["DATABASE_URL"],
        SECRET_KEY="test-secret",
        PBEM_INSTANCE=app.config["INSTANCE_PATH"],
        REPLY_DOMAIN="reply.test",
        MAIL_AUTH_SERVERS=AUTHSERV,
        **{k: str(v) for k, v in imap_settings(imap, folder).items()},
    )
    done = subprocess.run(
        [sys.executable, "-m", "server.processes.imap_poller", "--once"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "'handled': 1" in done.stderr  # the log line (processes/logs.py)
    # A forged address: kept, neither acted on nor answered.
    (row,) = inbound(app)
    assert row.status == "ignored" and "not one the server gave out" in row.outcome


def test_a_poller_killed_mid_poll_loses_nothing_and_plays_once(
    sqlite_url, smtp, send_mail, tmp_path, imap
):
    """kill -9 the poller while it works through a full mailbox; restarted, it
    handles what is left: every mail kept once, the move played once."""
    import signal
    import time

    folder = f"killed-{os.getpid()}"
    app = reply_app(sqlite_url, smtp, tmp_path, **imap_settings(imap, folder))
    table = Table(app, smtp, send_mail, 2, seed=5)
    table.set_up()
    email, mail = turn_mail(table)
    noise = [
        write_reply(mail, email, f"away {i}", Auto_Submitted="auto-replied") for i in range(40)
    ]
    with mailbox(imap, folder) as box:
        for message in noise[:20] + [write_reply(mail, email, "1")] + noise[20:]:
            box.append(message.as_bytes(), folder, flag_set=[])
    env = dict(
        os.environ,
        DATABASE_URL=app.config["DATABASE_URL"],
        SECRET_KEY="test-secret",
        PBEM_INSTANCE=app.config["INSTANCE_PATH"],
        REPLY_DOMAIN="reply.test",
        MAIL_AUTH_SERVERS=AUTHSERV,
        IMAP_INTERVAL="1",
        **{k: str(v) for k, v in imap_settings(imap, folder).items()},
    )
    victim = subprocess.Popen(
        [sys.executable, "-m", "server.processes.imap_poller"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while len(inbound(app)) < 10 and time.monotonic() < deadline:
        time.sleep(0.02)
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=10)
    assert len(inbound(app)) < 41, "killed too late to show anything"
    for _ in range(2):
        again = subprocess.run(
            [sys.executable, "-m", "server.processes.imap_poller", "--once"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert again.returncode == 0, again.stderr
    rows = inbound(app)
    assert len(rows) == 41 and len({r.message_id for r in rows}) == 41
    assert [r.status for r in rows].count("applied") == 1 and table.game().seq == 1
    with mailbox(imap, folder) as box:
        assert list(box.fetch(AND(all=True), mark_seen=False)) == []

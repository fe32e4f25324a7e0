"""The operator's mail setup as docs/operators/mail.md gives it: a
real Postfix (Debian's package, its own instance from a temporary folder on a
loopback port, the system's /etc/postfix untouched) configured with the files
``pbem deploy-files`` writes, in front of the real receiver, and mail sent to
it from an address outside its networks, as the internet would."""

from __future__ import annotations

import os
import shutil
import smtplib
import subprocess
import tempfile
import time
from email import policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from conftest import Inbox, free_port
from reply_helpers import inbound, reply_app, start_receiver
from test_mail_authentication import EVIL, confirmations, dns, forged, new_key, signed  # noqa: F401
from test_mail_replies import turn_mail

from server import postfix_files

POSTFIX = shutil.which("postfix") or "/usr/sbin/postfix"
pytestmark = pytest.mark.skipif(
    not Path(POSTFIX).exists() or os.geteuid() != 0,
    reason="needs Debian's postfix (scripts/test.sh installs it) and root to start its master",
)

BASE = """\
compatibility_level = 3.6
queue_directory = {d}/queue
data_directory = {d}/data
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
meta_directory = /etc/postfix
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
maillog_file_prefixes = {d}
maillog_file = {d}/maillog
myhostname = mx.pbem.test
mydomain = pbem.test
mydestination =
# Loopback is not "our network" here: the test's client counts as the internet.
mynetworks = 192.0.2.1/32
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
smtp_host_lookup = native
# Whatever Postfix sends out (a bounce to a forged sender) lands here.
relayhost = [127.0.0.1]:{outside}
address_verify_poll_delay = 1s
"""
MASTER = """\
127.0.0.1:{port} inet n - n - - smtpd
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
lmtp unix - - n - - lmtp
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
"""


@pytest.fixture
def db_url(tmp_path):
    """SQLite only: Postfix is what is tested here, not the database."""
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


@pytest.fixture
def rapp(db_url, smtp, tmp_path, dns):  # noqa: F811
    return reply_app(db_url, smtp, tmp_path, MAIL_AUTH_SERVERS="", MAIL_AUTH_DNS=dns.address)


@pytest.fixture
def outside():
    """The internet beyond Postfix: where a bounce to a forged sender goes."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    inbox.port = controller.port
    yield inbox
    controller.stop()


def postfix(command: str, folder: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [POSTFIX, "-c", folder, command], capture_output=True, text=True, timeout=60
    )


def start_postfix(settings, outside, milter_port: int | None = None):
    """A running Postfix instance in a folder of its own (its queue owner,
    postfix, must reach it: not below pytest's private tmp_path)."""
    folder = tempfile.mkdtemp(prefix="pbem-postfix-")
    os.chmod(folder, 0o755)
    port = free_port()
    files = postfix_files.files(settings, postfix_dir=folder)
    for name, text in files.items():
        Path(folder, name).write_text(text)
    main = BASE.format(d=folder, outside=outside.port) + files[postfix_files.MAIN]
    if milter_port:
        main += f"smtpd_milters = inet:127.0.0.1:{milter_port}\n"
    Path(folder, "main.cf").write_text(main)
    Path(folder, "master.cf").write_text(MASTER.format(port=port) + files[postfix_files.MASTER])
    for sub in ("queue", "data"):
        os.mkdir(Path(folder, sub), 0o755)
    shutil.chown(Path(folder, "data"), "postfix")
    checked = postfix("check", folder)
    assert checked.returncode == 0, checked.stderr + Path(folder, "maillog").read_text()
    started = postfix("start", folder)
    assert started.returncode == 0, started.stderr
    deadline = time.monotonic() + 20
    while True:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
                client.noop()
            break
        except OSError:
            assert time.monotonic() < deadline, Path(folder, "maillog").read_text()
            time.sleep(0.2)
    return folder, port


@pytest.fixture
def mta(rapp, outside):
    """(folder, port) of Postfix in front of the receiver, over LMTP as
    deploy/env.example and the unit set it."""
    made = []

    def make(milter_port: int | None = None):
        receiver = start_receiver(rapp, protocol="lmtp")
        settings = dict(rapp.config, RECEIVER_PORT=receiver.port, RECEIVER_PROTOCOL="lmtp")
        folder, port = start_postfix(settings, outside, milter_port)
        made.append((receiver, folder))
        return folder, port

    yield make
    for receiver, folder in made:
        postfix("stop", folder)
        receiver.stop()
        shutil.rmtree(folder, ignore_errors=True)


def send(port: int, message, mail_from: str) -> None:
    raw = message if isinstance(message, bytes) else message.as_bytes(policy=policy.SMTP)
    to = str(__import__("email").message_from_bytes(raw)["To"])
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.sendmail(mail_from, [to], raw)


def until(condition, folder: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, Path(folder, "maillog").read_text()[-3000:]
        time.sleep(0.2)


def queue_empty(folder: str) -> bool:
    shown = subprocess.run(
        ["postqueue", "-c", folder, "-p"], capture_output=True, text=True, timeout=30
    )
    return "Mail queue is empty" in shown.stdout


def test_a_dkim_signed_reply_through_postfix_plays(duo, rapp, mta, dns):  # noqa: F811
    folder, port = mta()
    email, mail = turn_mail(duo)
    key = new_key(dns, "sel", "example.org")
    dns.txt["_dmarc.example.org"] = "v=DMARC1; p=reject"
    send(port, signed(forged(mail, email, "2"), "example.org", key), mail_from=email)
    until(lambda: inbound(rapp), folder)
    assert duo.game().seq == 1 and inbound(rapp)[0].status == "applied"
    assert confirmations(duo, email) == []


def test_an_unsigned_reply_through_postfix_is_held_then_confirmed(duo, rapp, mta):
    folder, port = mta()
    email, mail = turn_mail(duo)
    send(port, forged(mail, email, "2"), mail_from=EVIL)
    until(lambda: inbound(rapp), folder)
    assert duo.game().seq == 0 and inbound(rapp)[0].status == "held"
    (ask,) = confirmations(duo, email)
    send(port, forged(ask, email, "yes"), mail_from=email)
    until(lambda: len(inbound(rapp)) == 2, folder)
    assert duo.game().seq == 1


def test_an_unknown_reply_address_is_refused_at_rcpt_and_bounces_to_nobody(rapp, mta, outside):
    folder, port = mta()
    raw = (
        b"From: <victim@elsewhere.example>\r\nTo: <play+aaaa@reply.test>\r\nSubject: x\r\n\r\n1\r\n"
    )
    deadline = time.monotonic() + 30
    while True:  # the first try may be answered 450 while the probe runs
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            send(port, raw, mail_from="victim@elsewhere.example")
        ((code, text),) = refused.value.recipients.values()
        if code != 450 or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert code == 550 and b"undeliverable" in text, text
    until(lambda: queue_empty(folder), folder)
    time.sleep(2)
    assert outside.messages == [] and inbound(rapp) == []


def test_a_milter_that_fails_defers_the_mail(duo, rapp, mta):
    folder, port = mta(milter_port=free_port())  # nothing listens there
    email, mail = turn_mail(duo)
    with pytest.raises(smtplib.SMTPResponseException) as deferred:
        send(port, forged(mail, email, "2"), mail_from=email)
    assert deferred.value.smtp_code == 451, deferred.value
    assert queue_empty(folder) and inbound(rapp) == [] and duo.game().seq == 0

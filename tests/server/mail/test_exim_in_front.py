"""Exim instead of Postfix, as docs/operators/mail.md gives it: Debian's
real Exim 4 (the packages fetched with ``apt-get download`` and unpacked into
a cache folder, the system untouched), configured with the router, transport
and RCPT ACL text ``pbem deploy-files`` writes, run as a daemon on a loopback
port in front of the real receiver, and mail sent to it from an address
outside, as the internet would."""

from __future__ import annotations

import os
import shutil
import signal
import smtplib
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from conftest import free_port
from reply_helpers import inbound, start_receiver
from test_mail_authentication import EVIL, confirmations, dns, forged, new_key, signed  # noqa: F401
from test_mail_replies import turn_mail
from test_postfix_in_front import db_url, outside, rapp, send  # noqa: F401

from server import exim_files

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run Exim's daemon")

CACHE = Path(tempfile.gettempdir(), "pbem-exim")
PACKAGES = ("exim4-base", "exim4-config", "exim4-daemon-light", "libidn12")
USER = "Debian-exim"

# The main settings of this test only; the rest is the deploy-files text.
CONFIG = """\
exim_path = {root}/usr/sbin/exim4
keep_environment = LD_LIBRARY_PATH
exim_user = {user}
exim_group = {user}
spool_directory = {d}/spool
log_file_path = {d}/spool/%slog
primary_hostname = mx.pbem.test
tls_advertise_hosts =
.include {d}/{main}
acl_smtp_rcpt = acl_rcpt

begin acl
acl_rcpt:
  # Debian's ACL refuses other domains ("relay not permitted") first.
  deny !domains = +pbem_domains
.include CHECK_RCPT_LOCAL_ACL_FILE
  accept

begin routers
.include {d}/{router}
# Whatever Exim sends out (a bounce to a forged sender) lands here.
outside:
  driver = manualroute
  domains = ! +pbem_domains
  route_list = * 127.0.0.1::{outside}
  transport = outside_smtp
  self = send

begin transports
.include {d}/{transport}
outside_smtp:
  driver = smtp
  port = {outside}
  allow_localhost
"""


def fetch(command: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=CACHE, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="session")
def exim_root() -> Path:
    """Debian's Exim unpacked (fetched once into CACHE), and its user."""
    root = CACHE / "root"
    if not (root / "usr/sbin/exim4").exists():
        CACHE.mkdir(exist_ok=True)
        got = fetch(["apt-get", "download", *PACKAGES])
        if got.returncode != 0:
            fetch(["apt-get", "update"])
            got = fetch(["apt-get", "download", *PACKAGES])
        if got.returncode != 0:
            pytest.skip(f"apt-get download of Debian's Exim failed: {got.stderr[-500:]}")
        for package in sorted(CACHE.glob("*.deb")):
            subprocess.run(["dpkg", "-x", str(package), str(root)], check=True, timeout=120)
    # Not setuid: Exim re-runs itself as its user to deliver, and the loader
    # ignores LD_LIBRARY_PATH (libidn from CACHE) for a setuid program.
    (root / "usr/sbin/exim4").chmod(0o755)
    if subprocess.run(["id", USER], capture_output=True).returncode != 0:
        made = subprocess.run(
            ["useradd", "--system", "--no-create-home", USER], capture_output=True, text=True
        )
        if made.returncode != 0:
            pytest.skip(f"no user {USER} for Exim's deliveries: {made.stderr}")
    return root


def start_exim(root: Path, settings, outside_port: int):
    """(process, folder, port) of an Exim daemon in a folder of its own
    (its spool owned by Exim's user, who delivers: not below tmp_path)."""
    folder = tempfile.mkdtemp(prefix="pbem-exim-")
    os.chmod(folder, 0o755)
    files = exim_files.files(settings, acl_path=f"{folder}/{exim_files.ACL}")
    for name, text in files.items():
        Path(folder, name).write_text(text)
    names = {"main": exim_files.MAIN, "router": exim_files.ROUTER}
    names["transport"] = exim_files.TRANSPORT
    config = CONFIG.format(root=root, user=USER, d=folder, outside=outside_port, **names)
    Path(folder, "exim.conf").write_text(config)
    os.mkdir(Path(folder, "spool"), 0o750)
    shutil.chown(Path(folder, "spool"), USER, USER)
    port = free_port()
    command = [str(root / "usr/sbin/exim4"), "-C", f"{folder}/exim.conf"]
    env = dict(os.environ, LD_LIBRARY_PATH=str(root / "usr/lib/x86_64-linux-gnu"))
    checked = subprocess.run([*command, "-bV"], env=env, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    daemon = subprocess.Popen(
        [*command, "-bdf", "-oX", str(port), "-oP", f"{folder}/exim.pid", "-odi", "-q1s"],
        env=env,
        start_new_session=True,  # its delivery children go with it at the end
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
                client.noop()
            return daemon, folder, port
        except OSError:
            assert daemon.poll() is None and time.monotonic() < deadline, log(folder)
            time.sleep(0.2)


def log(folder: str) -> str:
    logs = sorted(Path(folder, "spool").glob("*log"))
    logs = [path for path in logs if path.is_file()]
    return "\n".join(f"{path.name}:\n{path.read_text()[-2000:]}" for path in logs)


@pytest.fixture
def mta(rapp, outside, exim_root):  # noqa: F811
    """(folder, port) of Exim in front of the receiver, over LMTP as
    deploy/env.example and the unit set it; receiver_port overrides where
    Exim looks for it (a port nothing listens on: the receiver is down)."""
    made = []

    def make(receiver_port: int | None = None):
        receiver = start_receiver(rapp, protocol="lmtp")
        port = receiver_port or receiver.port
        settings = dict(rapp.config, RECEIVER_PORT=port, RECEIVER_PROTOCOL="lmtp")
        daemon, folder, port = start_exim(exim_root, settings, outside.port)
        made.append((receiver, daemon, folder))
        return folder, port

    yield make
    for receiver, daemon, folder in made:
        os.killpg(daemon.pid, signal.SIGTERM)
        daemon.wait(timeout=30)
        receiver.stop()
        shutil.rmtree(folder, ignore_errors=True)


def until(condition, folder: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, log(folder)
        time.sleep(0.2)


def queue_empty(folder: str) -> bool:
    return not any(Path(folder, "spool", "input").glob("*-D"))


def test_a_dkim_signed_reply_through_exim_plays(duo, rapp, mta, dns):  # noqa: F811
    folder, port = mta()
    email, mail = turn_mail(duo)
    key = new_key(dns, "sel", "example.org")
    dns.txt["_dmarc.example.org"] = "v=DMARC1; p=reject"
    send(port, signed(forged(mail, email, "2"), "example.org", key), mail_from=email)
    until(lambda: inbound(rapp), folder)
    assert duo.game().seq == 1 and inbound(rapp)[0].status == "applied"
    assert confirmations(duo, email) == []
    until(lambda: queue_empty(folder), folder)


def test_an_unsigned_reply_through_exim_is_held(duo, rapp, mta):  # noqa: F811
    folder, port = mta()
    email, mail = turn_mail(duo)
    send(port, forged(mail, email, "2"), mail_from=EVIL)
    until(lambda: inbound(rapp), folder)
    assert duo.game().seq == 0 and inbound(rapp)[0].status == "held"
    assert len(confirmations(duo, email)) == 1


def test_an_unknown_reply_address_is_refused_at_rcpt_and_bounces_to_nobody(rapp, mta, outside):  # noqa: F811
    folder, port = mta()
    raw = (
        b"From: <victim@elsewhere.example>\r\nTo: <play+aaaa@reply.test>\r\nSubject: x\r\n\r\n1\r\n"
    )
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        send(port, raw, mail_from="victim@elsewhere.example")
    ((code, text),) = refused.value.recipients.values()
    assert code == 550, text
    time.sleep(2)  # the daemon runs its queue every second
    assert queue_empty(folder) and outside.messages == [] and inbound(rapp) == []


def test_a_receiver_that_is_down_defers_at_rcpt(duo, rapp, mta, outside):  # noqa: F811
    """No defer_ok on the callout: the sender is told 451 and tries again;
    nothing is queued here, so nothing can bounce."""
    folder, port = mta(receiver_port=free_port())  # nothing listens there
    email, mail = turn_mail(duo)
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        send(port, forged(mail, email, "2"), mail_from=email)
    ((code, text),) = refused.value.recipients.values()
    assert code == 451, text
    assert queue_empty(folder) and outside.messages == [] and inbound(rapp) == []

"""Exim instead of Postfix, as docs/operators/mail.md gives it: Debian's
real Exim 4 (the packages fetched with ``apt-get download`` and unpacked into
a cache folder, the system untouched), configured with the router, transport
and RCPT ACL text ``pbem deploy-files`` writes, run as a daemon on a loopback
port in front of the real receiver, and mail sent to it from an address
outside, as the internet would; and once on Debian's whole split
configuration, built by its update-exim4.conf with the files in conf.d."""

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


# Debian's debconf answers for an Internet host relaying the pbem domains,
# split configuration (docs/operators/mail.md).
DEBCONF = """\
dc_eximconfig_configtype='internet'
dc_other_hostnames=''
dc_local_interfaces='127.0.0.1'
dc_readhost=''
dc_relay_domains='{domains}'
dc_minimaldns='false'
dc_relay_nets=''
dc_smarthost=''
CFILEMODE='644'
dc_use_split_config='true'
dc_hide_mailname=''
dc_mailname_in_oh='true'
dc_localdelivery='mail_spool'
"""
# Test-only main settings ahead of Debian's (its macros are .ifndef):
# loopback is not a relay host here, so the test's client counts as the
# internet (Debian's ACL accepts its relay hosts without the callout).
DEBIAN_TOP = """\
MAIN_KEEP_ENVIRONMENT = LD_LIBRARY_PATH
log_file_path = {d}/spool/%slog
SPOOLDIR = {d}/spool
MAIN_RELAY_NETS = 192.0.2.1
"""


def debian_config(root: Path, folder: str, settings, files: dict[str, str]) -> str:
    """Debian's whole configuration, built by its update-exim4.conf from a
    copy of its conf.d with the pbem files where the docs put them."""
    confdir = Path(folder, "etc-exim4")
    shutil.copytree(root / "etc/exim4", confdir)
    for name, place in exim_files.PLACES.items():
        if place.startswith("/etc/exim4/conf.d/"):
            Path(confdir, place.removeprefix("/etc/exim4/")).write_text(files[name])
    domains = ":".join(exim_files.domains(settings))
    Path(confdir, "update-exim4.conf.conf").write_text(DEBCONF.format(domains=domains))
    output = Path(folder, "debian.conf")
    built = subprocess.run(
        ["sh", str(root / "usr/sbin/update-exim4.conf"), "-d", str(confdir), "-o", str(output)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert built.returncode == 0, built.stderr
    text = output.read_text().replace(
        "exim_path = /usr/sbin/exim4", f"exim_path = {root}/usr/sbin/exim4"
    )
    return DEBIAN_TOP.format(d=folder) + text


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


def start_exim(root: Path, folder: str, settings, outside_port: int, debian: bool, started):
    """The port of an Exim daemon in ``folder`` (its spool owned by Exim's
    user, who delivers: not below tmp_path); the daemon goes in ``started``."""
    files = exim_files.files(settings, acl_path=f"{folder}/{exim_files.ACL}")
    for name, text in files.items():
        Path(folder, name).write_text(text)
    names = {"main": exim_files.MAIN, "router": exim_files.ROUTER}
    names["transport"] = exim_files.TRANSPORT
    config = CONFIG.format(root=root, user=USER, d=folder, outside=outside_port, **names)
    if debian:
        config = debian_config(root, folder, settings, files)
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
    started.append(daemon)
    deadline = time.monotonic() + 20
    while True:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
                client.noop()
            return port
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
    receivers, daemons, folders = [], [], []

    def make(receiver_port: int | None = None, debian: bool = False, protocol: str = "lmtp"):
        receivers.append(start_receiver(rapp, protocol=protocol))
        port = receiver_port or receivers[-1].port
        settings = dict(rapp.config, RECEIVER_PORT=port, RECEIVER_PROTOCOL=protocol)
        folders.append(tempfile.mkdtemp(prefix="pbem-exim-"))
        os.chmod(folders[-1], 0o755)
        port = start_exim(exim_root, folders[-1], settings, outside.port, debian, daemons)
        return folders[-1], port

    yield make
    for daemon in daemons:
        os.killpg(daemon.pid, signal.SIGTERM)
        daemon.wait(timeout=30)
    for receiver in receivers:
        receiver.stop()
    for folder in folders:
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


@pytest.mark.parametrize("protocol", ["lmtp", "smtp"])
def test_an_unsigned_reply_through_exim_is_held(duo, rapp, mta, protocol):  # noqa: F811
    folder, port = mta(protocol=protocol)
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


def test_debians_own_configuration_with_the_files_in_place(duo, rapp, mta):  # noqa: F811
    """The docs' steps on Debian's whole split configuration: the files in
    conf.d, the domains in dc_relay_domains, update-exim4.conf."""
    folder, port = mta(debian=True)
    email, mail = turn_mail(duo)
    send(port, forged(mail, email, "2"), mail_from=EVIL)
    until(lambda: inbound(rapp), folder)
    assert inbound(rapp)[0].status == "held"
    raw = b"From: <victim@elsewhere.example>\r\nTo: <play+aaaa@reply.test>\r\n\r\n1\r\n"
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        send(port, raw, mail_from="victim@elsewhere.example")
    ((code, text),) = refused.value.recipients.values()
    assert code == 550, text
    until(lambda: queue_empty(folder), folder)
    assert len(inbound(rapp)) == 1

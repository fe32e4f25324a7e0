"""pbem signs its own mail with DKIM (DKIM_PRIVATE_KEY_FILE): every kind of
mail, signed as the sender signs it, verifies with dkimpy against the TXT
record ``pbem dns-records`` prints; a mail delivered through the real
sender to an SMTP server verifies too; a key that cannot sign stops the
sender's start with one line, not a round that fails."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from email import message_from_bytes, policy

import dkim
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from every_mail import queue_every_kind, site
from outbox_helpers import queue, smtp_server
from test_smtp_sender import Recorder

from server import dns_records
from server.db import db
from server.mail import dkim_signing, smtp_sender
from server.settings import SettingsError

FROM = "pbem <pbem@games.example.org>"


@pytest.fixture(scope="module")
def key_file(tmp_path_factory):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path = tmp_path_factory.mktemp("dkim") / "pbem.private"
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    return str(path)


def published(settings) -> dict[bytes, bytes]:
    """The DKIM record of ``pbem dns-records``, as a resolver answers it."""
    lines = dns_records.records(settings, "mx.games.example.org", ["192.0.2.7"])
    (line,) = [line for line in lines if "._domainkey." in line]
    name, _, _, _, value = line.split(" ", 4)
    text = "".join(re.findall(r'"([^"]*)"', value))
    return {name.encode(): text.encode()}


def dnsfunc(records):
    def lookup(name, timeout=5):
        return records.get(name, None)

    return lookup


def signed_headers(raw: bytes) -> list[str]:
    header = raw.split(b"\r\n\r\n", 1)[0].decode()
    field = re.search(r"\bh=([^;]+)", header.replace("\r\n", "")).group(1)
    return [name.strip().lower() for name in field.split(":")]


def test_every_kind_of_mail_verifies_against_the_published_record(tmp_path, key_file):
    app, ids = site(tmp_path, "fr", DKIM_PRIVATE_KEY_FILE=key_file, MAIL_FROM=FROM)
    records = published(app.config)
    assert list(records) == [b"pbem._domainkey.games.example.org."]
    signer = dkim_signing.check(app.config)
    mails = queue_every_kind(app, ids)
    kinds = set()
    for row in mails:
        unsigned = smtp_sender.wire_bytes(smtp_sender.build_message(row, FROM))
        present = {name.lower() for name in message_from_bytes(unsigned).keys()}
        raw = signer.sign(unsigned)
        assert dkim.verify(raw, dnsfunc=dnsfunc(records)), row.kind
        names = signed_headers(raw)
        assert names.count("from") == 2, row.kind  # an added From: breaks it
        for header in ("to", "subject", "date", "message-id", "auto-submitted", "content-type"):
            assert header in names, (row.kind, header)
        for header in ("list-unsubscribe", "list-unsubscribe-post", "list-id", "reply-to"):
            assert (header in names) == (header in present), (row.kind, header)
        # A changed subject no longer verifies: the signature covers it.
        tampered = raw.replace(b"\r\nSubject: ", b"\r\nSubject: Re: ", 1)
        assert not dkim.verify(tampered, dnsfunc=dnsfunc(records)), row.kind
        kinds.add(row.kind)
    assert {"turn", "invite", "reply_applied", "confirm", "final", "talk"} <= kinds


def test_a_mail_the_sender_delivers_verifies(sqlite_app, key_file):
    config = dict(sqlite_app.config, DKIM_PRIVATE_KEY_FILE=key_file, MAIL_FROM=FROM)
    queue(sqlite_app, headers={"List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
    with smtp_server(Recorder()) as server:
        config["SMTP_PORT"] = server.port
        with sqlite_app.app_context(), db.connection_context():
            assert smtp_sender.drain(config)["sent"] == 1
    ((_, _, raw),) = server.got
    assert raw.startswith(b"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;")
    assert b"d=games.example.org;" in raw and b"s=pbem;" in raw
    assert dkim.verify(raw, dnsfunc=dnsfunc(published(config)))
    assert "list-unsubscribe-post" in signed_headers(raw)
    assert not dkim.verify(raw, dnsfunc=dnsfunc({}))  # no record: no pass


def test_without_a_key_nothing_is_signed(sqlite_app):
    queue(sqlite_app)
    with smtp_server(Recorder()) as server:
        config = dict(sqlite_app.config, SMTP_PORT=server.port, DKIM_PRIVATE_KEY_FILE="")
        with sqlite_app.app_context(), db.connection_context():
            assert smtp_sender.drain(config)["sent"] == 1
    assert b"DKIM-Signature" not in server.got[0][2]


def test_a_key_that_cannot_sign_is_a_settings_error(tmp_path, key_file):
    settings = {"MAIL_FROM": FROM, "DKIM_SELECTOR": "pbem", "DKIM_DOMAIN": ""}
    not_pem = tmp_path / "not.pem"
    not_pem.write_text("hello\n")
    for path, said in ((tmp_path / "missing.pem", "cannot be read"), (not_pem, "not a PEM RSA")):
        with pytest.raises(SettingsError, match=said):
            dkim_signing.check(dict(settings, DKIM_PRIVATE_KEY_FILE=str(path)))
        with pytest.raises(SettingsError):
            smtp_sender.Connection(dict(settings, DKIM_PRIVATE_KEY_FILE=str(path)))
    assert dkim_signing.check(dict(settings, DKIM_PRIVATE_KEY_FILE="")) is None
    assert dkim_signing.check(dict(settings, DKIM_PRIVATE_KEY_FILE=key_file)) is not None


def test_the_sender_will_not_start_with_a_bad_key(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "server.processes.sender"],
        env={
            "PATH": "/usr/bin:/bin",
            "PBEM_INSTANCE": str(tmp_path),
            "SECRET_KEY": "x" * 32,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "DKIM_PRIVATE_KEY_FILE": str(tmp_path / "nowhere.pem"),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "DKIM_PRIVATE_KEY_FILE" in done.stderr and "cannot be read" in done.stderr
    assert "Traceback" not in done.stderr


def test_date_is_when_the_mail_goes_out_not_when_it_was_written(sqlite_app):
    long_ago = dt.datetime(2020, 1, 2, 3, 4, 5)
    queue(sqlite_app, created_at=long_ago, next_attempt_at=long_ago)
    with smtp_server(Recorder()) as server:
        config = dict(sqlite_app.config, SMTP_PORT=server.port)
        before = dt.datetime.now(dt.UTC).replace(microsecond=0)
        with sqlite_app.app_context(), db.connection_context():
            assert smtp_sender.drain(config)["sent"] == 1
        after = dt.datetime.now(dt.UTC)
    mail = message_from_bytes(server.got[0][2], policy=policy.default)
    assert before <= mail["Date"].datetime <= after

"""`pbem dns-records` prints what an operator publishes: MX for
the reply and bounce domains, SPF for the From: and bounce domains, the
DKIM record of DKIM_PRIVATE_KEY_FILE (a signature made with the key
verifies against it, by dkimpy), DMARC and a PTR note."""

from __future__ import annotations

import re
import subprocess

import dkim
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from test_cli import run


def test_the_records_of_the_configured_domains(tmp_path, monkeypatch):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )
    (tmp_path / "dkim.pem").write_bytes(pem)
    env = {
        "MAIL_FROM": "pbem <pbem@games.example>",
        "REPLY_DOMAIN": "reply.games.example",
        "BOUNCE_DOMAIN": "bounce.games.example",
        "DKIM_PRIVATE_KEY_FILE": str(tmp_path / "dkim.pem"),
        "DKIM_SELECTOR": "s1",
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    done = run(tmp_path, "dns-records", "--mail-host", "mx.games.example", "--ip", "192.0.2.7")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "reply.games.example. 3600 IN MX 10 mx.games.example." in out
    assert "bounce.games.example. 3600 IN MX 10 mx.games.example." in out
    assert 'bounce.games.example. 3600 IN TXT "v=spf1 ip4:192.0.2.7 -all"' in out
    assert 'games.example. 3600 IN TXT "v=spf1 ip4:192.0.2.7 -all"' in out
    assert '_dmarc.games.example. 3600 IN TXT "v=DMARC1; p=none' in out
    assert "PTR" in out
    (line,) = [x for x in out.splitlines() if x.startswith("s1._domainkey.games.example.")]
    record = "".join(re.findall(r'"([^"]*)"', line)).encode()
    message = b"From: pbem <pbem@games.example>\r\nTo: a@b.example\r\nSubject: hi\r\n\r\nhello\r\n"
    signature = dkim.sign(message, b"s1", b"games.example", pem)
    assert dkim.verify(signature + message, dnsfunc=lambda name, timeout=5: record)


def test_a_key_file_that_is_not_a_key_is_named(tmp_path, monkeypatch):
    (tmp_path / "bad.pem").write_text("nothing")
    monkeypatch.setenv("DKIM_PRIVATE_KEY_FILE", str(tmp_path / "bad.pem"))
    done = run(tmp_path, "dns-records", "--mail-host", "mx.example.org")
    assert done.returncode == 1 and "not a PEM key" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_postfix_files_pass_postfix_check_syntax(tmp_path):
    """postconf reads the written main.cf and master.cf fragments without a
    warning (an unknown or unused parameter would be one)."""
    done = run(tmp_path, "deploy-files", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    fragment = (tmp_path / "out" / "pbem-postfix-main.cf").read_text()
    (tmp_path / "main.cf").write_text(fragment)
    master = (tmp_path / "out" / "pbem-postfix-master.cf").read_text()
    (tmp_path / "master.cf").write_text(master)
    shown = subprocess.run(
        ["postconf", "-c", str(tmp_path), "-n"], capture_output=True, text=True, check=True
    )
    assert "relay_domains = reply.pbem.example.org, bounce.pbem.example.org" in shown.stdout
    assert "milter_default_action = tempfail" in shown.stdout
    assert "unverified_recipient_reject_code = 550" in shown.stdout
    assert "warning" not in shown.stderr, shown.stderr

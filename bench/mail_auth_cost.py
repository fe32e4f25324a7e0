"""What checking one hostile mail costs (server/mail/authentication.py): each
shape a sender who holds a genuine reply address may send, its keys and
records served by a dnslib server on loopback that the sender controls, with
the wall time and the CPU time of one check.  The CPU time holds the
interpreter lock (other mails wait for it); the rest is DNS waiting, bounded
by MAIL_AUTH_DNS_BUDGET and spent in a thread of the receiver's own.

    .venv/bin/python bench/mail_auth_cost.py

The receiver end to end (a normal mail answered while 40 hostile ones are
checked): ``pytest -s tests/server/mail/test_mail_auth_cost.py -k normal_mail``.
"""

from __future__ import annotations

import base64
import secrets
import socket
import sys
import time
from pathlib import Path

import dkim
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from dnslib import QTYPE, RR, TXT
from dnslib.dns import DNSError
from dnslib.server import BaseResolver, DNSLogger, DNSServer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.mail import authentication  # noqa: E402

FROM = "player@example.org"
SIGNED = [b"from", b"to", b"subject"]


class Records(BaseResolver):
    def __init__(self):
        self.txt: dict[str, str] = {}

    def resolve(self, request, handler):
        name = str(request.q.qname).rstrip(".").lower()
        if name.endswith("silent.example"):
            raise DNSError("never answered")
        reply = request.reply()
        value = self.txt.get(name)
        if value is not None and request.q.qtype == QTYPE.TXT:
            chunks = [value[i : i + 200] for i in range(0, len(value), 200)]
            reply.add_answer(RR(request.q.qname, QTYPE.TXT, rdata=TXT(chunks), ttl=60))
        return reply


def record_of(public) -> str:
    der = public.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return f"v=DKIM1; k=rsa; p={base64.b64encode(der).decode()}"


def signed(raw: bytes, domain: str, selectors, records: Records, huge: str = "") -> bytes:
    for selector in map(str, selectors):
        key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
        records.txt[f"s{selector}._domainkey.{domain}"] = huge or record_of(key.public_key())
        raw = (
            dkim.sign(raw, f"s{selector}".encode(), domain.encode(), pem, include_headers=SIGNED)
            + raw
        )
    return raw


def mail(domain: str, body: str = "2\r\n", head: str = "") -> bytes:
    return (
        f"{head}From: player@{domain}\r\nTo: play+abc@reply.test\r\nSubject: Re: x\r\n"
        f"Message-ID: <bench@{domain}>\r\n\r\n{body}"
    ).encode()


def shapes(records: Records) -> dict[str, tuple[bytes, str]]:
    modulus = secrets.randbits(16384) | (1 << 16383) | 1
    huge = record_of(rsa.RSAPublicNumbers(secrets.randbits(16380) | 1, modulus).public_key())
    big_body = ("word  \t " * 10 + "\r\n") * 3000
    many = "".join(f"X-F{i}: {'v' * 40}\r\n" for i in range(2000))
    out = {
        "5 signatures, 16,384-bit key and exponent": (
            signed(
                mail("huge.example", "2\r\n" + "x" * 15000), "huge.example", range(5), records, huge
            ),
            "player@huge.example",
        ),
        "5 signatures, name server never answers": (
            signed(mail("silent.example"), "silent.example", range(5), records),
            "player@silent.example",
        ),
        "250 KB, 2,000 headers, 5 broken signatures": (
            signed(mail("example.org", big_body, many), "example.org", range(5), records)[:-9]
            + b"tampered\n",
            FROM,
        ),
    }
    raw = signed(
        mail("example.org", head="".join(many.splitlines(True)[:1200])),
        "example.org",
        ["h"],
        records,
    )
    names = ":".join(f"n{i}" for i in range(20000))
    out["h= naming 20,000 headers"] = (
        raw.replace(b"h=from : to : subject", f"h=from : to : subject:{names}".encode(), 1),
        FROM,
    )
    return out


def main() -> None:
    records = Records()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = DNSServer(
        records,
        port=port,
        address="127.0.0.1",
        logger=DNSLogger("-request,-reply,-truncated,-error,-recv,-send,-data", False),
    )
    server.start_thread()
    settings = {"MAIL_AUTH_DNS": f"127.0.0.1:{port}", "SECRET_KEY": "bench"}
    authentication.organizational_domain("example.org")  # the suffix list, loaded once
    print(f"{'shape':48} {'wall s':>8} {'cpu s':>8}  verdict")
    for name, (raw, sender) in shapes(records).items():
        wall, cpu = time.monotonic(), time.process_time()
        verdict = authentication.check(raw, sender, settings, "play+abc@reply.test")
        wall, cpu = time.monotonic() - wall, time.process_time() - cpu
        print(f"{name:48} {wall:8.2f} {cpu:8.2f}  {verdict.how[:90]}")
    server.stop()


if __name__ == "__main__":
    main()

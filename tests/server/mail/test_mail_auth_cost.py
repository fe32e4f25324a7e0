"""What checking a reply may cost, and what a proven sender may do with it.

A sender who holds any genuine reply address chooses the DKIM key the
receiver fetches and the name server it asks: a 16,384-bit key with a
16,384-bit exponent costs seconds of RSA work a signature (holding the
interpreter lock), a name server that never answers costs the DNS timeout a
lookup.  So keys above 4,096 bits or with another exponent than 65537 are
refused before any RSA work, at most three signatures are tried, all DNS of
one mail shares one budget, and the receiver checks each mail in a thread of
its own, outside the database transaction, so a normal mail is answered at
once while hostile ones wait.

And a proven From: acts only on the address it was signed for: a player's
signed mail to anybody, re-sent to their seat's reply address, is held.

Keys and records are served by a real dnslib server on loopback."""

from __future__ import annotations

import base64
import logging
import secrets
import smtplib
import threading
import time
from email import policy

import dkim
import pytest
from conftest import free_port
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from dnslib import RCODE
from dnslib.dns import DNSError
from dnslib.server import DNSLogger, DNSServer
from reply_helpers import AUTHSERV, authenticated_by, inbound, reply_app
from test_mail_authentication import Records, confirmations, forged, new_key
from test_mail_replies import turn_mail

from server.mail import authentication

FROM = "player1@example.org"


class Hostile(Records):
    """Records, and names under which the server fails (SERVFAIL) or never
    answers at all."""

    def __init__(self):
        super().__init__()
        self.servfail: set[str] = set()
        self.silent: set[str] = set()

    def resolve(self, request, handler):
        name = str(request.q.qname).rstrip(".").lower()
        if any(name.endswith(d) for d in self.silent):
            raise DNSError("never answered")  # dnslib sends nothing
        if name in self.servfail:
            reply = request.reply()
            reply.header.rcode = RCODE.SERVFAIL
            return reply
        return super().resolve(request, handler)


@pytest.fixture(scope="module")
def dns():
    records = Hostile()
    server = DNSServer(
        records,
        port=free_port(),
        address="127.0.0.1",
        logger=DNSLogger("-request,-reply,-truncated,-error,-recv,-send,-data", False),
    )
    server.start_thread()
    records.address = f"127.0.0.1:{server.server.server_address[1]}"
    yield records
    server.stop()
    server.server.server_close()


@pytest.fixture
def rapp(db_url, smtp, tmp_path, dns):
    return reply_app(db_url, smtp, tmp_path, MAIL_AUTH_DNS=dns.address)


def settings_for(dns, **extra) -> dict:
    return {"MAIL_AUTH_DNS": dns.address, "SECRET_KEY": "x", **extra}


def huge_key_record() -> str:
    """The public key a hostile sender publishes: 16,384 bits, with a
    16,384-bit exponent (about 9 s of RSA work a signature here)."""
    modulus = secrets.randbits(16384) | (1 << 16383) | 1
    exponent = secrets.randbits(16380) | 1
    public = rsa.RSAPublicNumbers(exponent, modulus).public_key()
    der = public.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return f"v=DKIM1; k=rsa; p={base64.b64encode(der).decode()}"


def key_record(bits: int, exponent: int) -> str:
    """A public key record of ``bits`` bits (no private half needed: the
    key is judged, not used)."""
    modulus = secrets.randbits(bits) | (1 << (bits - 1)) | 1
    public = rsa.RSAPublicNumbers(exponent, modulus).public_key()
    der = public.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return f"v=DKIM1; k=rsa; p={base64.b64encode(der).decode()}"


def plain_mail(to: str = "play+x@reply.test", text: str = "2", **headers) -> bytes:
    lines = [f"From: {FROM}", f"To: {to}", "Subject: Re: x", "Message-ID: <m@example.org>"]
    lines += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + f"\r\n\r\n{text}\r\n").encode()


def sign(raw: bytes, domain: str, key: bytes, selector: str, headers=(b"from", b"to")) -> bytes:
    return (
        dkim.sign(raw, selector.encode(), domain.encode(), key, include_headers=list(headers)) + raw
    )


def signed_many(raw: bytes, dns, domain: str, selectors: list[str]) -> bytes:
    """``raw`` signed once for each selector (a fresh 1024-bit key each)."""
    for selector in selectors:
        raw = sign(raw, domain, new_key(dns, selector, domain), selector)
    return raw


# -- the cost of one mail ---------------------------------------------------------
def test_a_huge_key_with_a_huge_exponent_is_refused_before_any_rsa_work(dns):
    raw = signed_many(plain_mail(), dns, "example.org", ["huge1", "huge2"])
    record = huge_key_record()
    with dns.lock:
        dns.txt["huge1._domainkey.example.org"] = record
        dns.txt["huge2._domainkey.example.org"] = record
    started = time.monotonic()
    verdict = authentication.check(raw, FROM, settings_for(dns))
    took = time.monotonic() - started
    assert not verdict.authenticated
    assert "permerror: RSA key of 16384 bits refused" in verdict.how, verdict.how
    assert took < 1.0, took  # without the bound: 9 s a signature


@pytest.mark.parametrize(
    "bits, exponent, refused",
    [
        (8192, 65537, "8192 bits"),
        (4097, 65537, "4097 bits"),
        (2048, 3, "exponent"),
        (2048, 65535 + 2**20, "exponent"),
        (4096, 65537, ""),
        (1024, 65537, ""),
    ],
)
def test_keys_above_4096_bits_or_with_another_exponent_are_unverifiable(bits, exponent, refused):
    reason = authentication.unverifiable_key(key_record(bits, exponent).encode())
    if refused:
        assert refused in reason, reason
    else:
        assert reason == "", reason


def test_at_most_three_signatures_are_tried(dns):
    # Three valid signatures of another domain, then one aligned with From:.
    raw = signed_many(plain_mail(), dns, "example.org", ["four"])
    raw = signed_many(raw, dns, "evil.example", ["one", "two", "three"])
    verdict = authentication.check(raw, FROM, settings_for(dns))
    assert not verdict.authenticated
    assert "only the first 3 of 4 signatures tried" in verdict.how, verdict.how


def test_all_dns_of_one_mail_shares_one_budget(dns):
    dns.silent.add("silent.example")
    message = plain_mail().replace(b"example.org", b"silent.example")
    raw = signed_many(message, dns, "silent.example", ["s1", "s2", "s3"])
    settings = settings_for(dns, MAIL_AUTH_DNS_TIMEOUT=1.0, MAIL_AUTH_DNS_BUDGET=1.5)
    started = time.monotonic()
    verdict = authentication.check(raw, "player1@silent.example", settings)
    took = time.monotonic() - started
    assert not verdict.authenticated
    assert "temperror" in verdict.how, verdict.how
    # Two DMARC lookups and three keys at 1 s each were 5 s; now the budget.
    assert took < 2.2, took


# -- lookup failures named as such ------------------------------------------------------
@pytest.mark.parametrize(
    "case, words",
    [
        ("no record", "permerror: no key record at gone._domainkey.example.org"),
        ("servfail", "temperror: DNS failed for broken._domainkey.example.org"),
        ("timeout", "temperror: no DNS answer for "),
    ],
)
def test_a_failed_key_lookup_is_named_a_lookup_failure(dns, caplog, case, words):
    selector = {"no record": "gone", "servfail": "broken", "timeout": "slow"}[case]
    raw = signed_many(plain_mail(), dns, "example.org", [selector])
    with dns.lock:
        if case == "no record":
            del dns.txt["gone._domainkey.example.org"]
        elif case == "servfail":
            dns.servfail.add("broken._domainkey.example.org")
        else:
            dns.silent.add("slow._domainkey.example.org")
    settings = settings_for(dns, MAIL_AUTH_DNS_TIMEOUT=0.5)
    with caplog.at_level(logging.INFO, logger="server.mail.authentication"):
        verdict = authentication.check(raw, FROM, settings)
    assert not verdict.authenticated
    assert words in verdict.how and "does not verify" not in verdict.how, verdict.how
    assert any(words in r.getMessage() for r in caplog.records)


def test_the_moderator_reads_the_lookup_failure_in_the_mails_outcome(duo, rapp, receiver, dns):
    email, mail = turn_mail(duo)
    message = forged(mail, email, "2").as_bytes(policy=policy.SMTP)
    raw = signed_many(message, dns, "example.org", ["vanished"])
    with dns.lock:
        del dns.txt["vanished._domainkey.example.org"]
    deliver(receiver.port, raw, mail["Reply-To"])
    (row,) = inbound(rapp)
    assert row.status == "held"
    assert "permerror: no key record at vanished._domainkey.example.org" in row.outcome


# -- a signed mail acts only on the address it was signed for -------------------------
def deliver(port: int, raw: bytes, rcpt: str) -> float:
    """Over real SMTP to ``rcpt`` (whatever the headers say); the seconds
    until the receiver answered."""
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as client:
        started = time.monotonic()
        client.sendmail("someone@evil.example", [rcpt], raw)
        return time.monotonic() - started


def players_mail(mail, email: str, to: str, dns, headers=(b"from", b"to", b"subject")) -> bytes:
    """A genuine mail of the player, DKIM-signed by their domain, to ``to``."""
    message = forged(mail, email, "2")
    message.replace_header("To", to)
    raw = message.as_bytes(policy=policy.SMTP)
    return sign(raw, "example.org", new_key(dns, "genuine", "example.org"), "genuine", headers)


@pytest.mark.parametrize(
    "to, headers, plays",
    [
        ("friend@example.net", (b"from", b"to", b"subject"), False),  # re-sent elsewhere
        ("SEAT", (b"from", b"subject"), False),  # To: not signed: could be rewritten
        ("SEAT", (b"from", b"to", b"subject"), True),
        ("Friend <friend@example.net>, SEAT", (b"from", b"to", b"subject"), True),
    ],
)
def test_a_signed_mail_plays_only_when_signed_as_sent_to_that_address(
    duo, rapp, receiver, dns, to, headers, plays
):
    email, mail = turn_mail(duo)
    seat = str(mail["Reply-To"])
    with dns.lock:
        dns.txt["_dmarc.example.org"] = "v=DMARC1; p=reject"
    raw = players_mail(mail, email, to.replace("SEAT", seat), dns, headers)
    deliver(receiver.port, raw, seat)
    (row,) = inbound(rapp)
    assert (duo.game().seq == 1) is plays, row.outcome
    if not plays:
        assert row.status == "held" and "signed To:/Cc:" in row.outcome, row.outcome
        assert len(confirmations(duo, email)) == 1


def test_a_to_line_added_above_the_signed_one_is_not_signed(duo, rapp, receiver, dns):
    email, mail = turn_mail(duo)
    seat = str(mail["Reply-To"])
    raw = players_mail(mail, email, "friend@example.net", dns)
    deliver(receiver.port, f"To: {seat}\r\n".encode() + raw, seat)
    assert duo.game().seq == 0
    assert inbound(rapp)[0].status == "held"


@pytest.mark.parametrize(
    "case, plays",
    [
        ("to the seat", True),
        ("to a friend", False),
        ("two To: lines", False),
        ("To: unsigned", False),
    ],
)
def test_a_trusted_servers_pass_plays_only_for_the_address_in_to(
    duo, rapp, receiver, dns, case, plays
):
    email, mail = turn_mail(duo)
    seat = str(mail["Reply-To"])
    to = "friend@example.net" if case == "to a friend" else seat
    message = forged(mail, email, "2")
    message.replace_header("To", to)
    raw = message.as_bytes(policy=policy.SMTP)
    if case == "To: unsigned":
        raw = sign(raw, "example.org", new_key(dns, "nto", "example.org"), "nto", [b"from"])
    if case == "two To: lines":
        raw = f"To: {seat}\r\n".encode() + raw.replace(f"To: {seat}".encode(), b"To: a@b.example")
    ar = f"Authentication-Results: {authenticated_by(AUTHSERV, email)}\r\n".encode()
    deliver(receiver.port, ar + raw, seat)
    (row,) = inbound(rapp)
    assert (duo.game().seq == 1) is plays, row.outcome
    assert row.status == ("applied" if plays else "held")


# -- hostile mails hold up no other ---------------------------------------------------
def test_a_normal_mail_is_answered_at_once_while_hostile_mails_are_checked(
    duo, rapp, receiver, dns
):
    """20 mails of 5 signatures under a 16,384-bit key with a 16,384-bit
    exponent, and 20 of 5 signatures under a name server that never answers,
    all to a genuine reply address; a signed reply sent meanwhile is answered
    within 2 s (before: 48 s and 63 s)."""
    email, mail = turn_mail(duo)
    seat = str(mail["Reply-To"])
    record = huge_key_record()
    dns.silent.add("tarpit.example")
    hostile = []
    for kind in ("huge", "tarpit"):
        domain = "huge.example" if kind == "huge" else "tarpit.example"
        raw = forged(mail, f"x@{domain}", "2").as_bytes(policy=policy.SMTP)
        raw = signed_many(raw, dns, domain, [f"{kind}{i}" for i in range(5)])
        if kind == "huge":
            with dns.lock:
                for i in range(5):
                    dns.txt[f"huge{i}._domainkey.huge.example"] = record
        hostile += [
            raw.replace(b"Message-ID: <", f"Message-ID: <{kind}{n}.".encode()) for n in range(20)
        ]
    threads = [threading.Thread(target=deliver, args=(receiver.port, raw, seat)) for raw in hostile]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # all of them are being checked now
    with dns.lock:
        dns.txt["_dmarc.example.org"] = "v=DMARC1; p=reject"
    took = deliver(receiver.port, players_mail(mail, email, seat, dns), seat)
    print(f"a normal mail was answered in {took:.2f} s while 40 hostile mails were checked")
    assert took < 2.0, took
    assert duo.game().seq == 1
    for thread in threads:
        thread.join(30)
    rows = inbound(rapp)
    assert len(rows) == 41
    assert {r.status for r in rows if r.from_addr.startswith("x@")} <= {"held", "ignored"}


def test_a_signature_naming_too_many_headers_is_not_tried(dns):
    # dkimpy scans every header for each name of h=: 20,000 names over
    # 4,000 headers were 5 s a signature.
    filler = "".join(f"X-Filler-{i}: v\r\n" for i in range(4000)).encode()
    raw = signed_many(filler + plain_mail(), dns, "example.org", ["many"])
    names = ":".join(f"n{i}" for i in range(20000))
    raw = raw.replace(b"h=from : to", f"h=from : to:{names}".encode(), 1)
    assert f"{names}".encode() in raw
    started = time.monotonic()
    verdict = authentication.check(raw, FROM, settings_for(dns))
    took = time.monotonic() - started
    assert not verdict.authenticated
    assert "permerror: h= names 20002 headers" in verdict.how, verdict.how
    assert took < 1.0, took

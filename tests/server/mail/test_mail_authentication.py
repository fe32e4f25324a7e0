"""Mail you can trust: a reply acts at once only when it is
authenticated for its From: address, by an aligned DKIM signature checked
here (keys and DMARC records served by a real DNS server on loopback) or by
the Authentication-Results of the operator's own mail server.  Anything else
is held, and the account's own confirmed address is asked to confirm it
through a single-use address.  Senders without an account get no mail."""

from __future__ import annotations

import base64
import smtplib
import threading
from email import policy

import dkim
import pytest
from conftest import free_port
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from dnslib import QTYPE, RR, TXT
from dnslib.server import BaseResolver, DNSLogger, DNSServer
from game_driver import Table, db_state
from reply_helpers import (
    AUTHSERV,
    authenticated_by,
    body_of,
    inbound,
    news_of,
    reply_app,
    reply_to,
    write_reply,
)
from test_mail_replies import turn_mail

from server.db import db
from server.mail import authentication
from server.models import Outbox, ReplyConfirmation, TableMessage

EVIL = "someone@evil.example"
CONFIRM_NEWS = "Please confirm your mail"


# -- a DNS server for the test domains ------------------------------------------
class Records(BaseResolver):
    """TXT records by name, answered over real UDP."""

    def __init__(self):
        self.txt: dict[str, str] = {}
        self.lock = threading.Lock()

    def resolve(self, request, handler):
        reply = request.reply()
        name = str(request.q.qname).rstrip(".").lower()
        with self.lock:
            value = self.txt.get(name)
        if value is not None and request.q.qtype == QTYPE.TXT:
            chunks = [value[i : i + 200] for i in range(0, len(value), 200)]
            reply.add_answer(RR(request.q.qname, QTYPE.TXT, rdata=TXT(chunks), ttl=60))
        return reply


@pytest.fixture(scope="module")
def dns():
    records = Records()
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


def new_key(records: Records, selector: str, domain: str) -> bytes:
    """A fresh RSA key whose public half DNS serves for ``selector._domainkey.domain``."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    public = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    with records.lock:
        records.txt[f"{selector}._domainkey.{domain}"] = (
            f"v=DKIM1; k=rsa; p={base64.b64encode(public).decode()}"
        )
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )


def signed(message, domain: str, key: bytes, selector: str = "sel") -> bytes:
    raw = message.as_bytes(policy=policy.SMTP)
    header = dkim.sign(
        raw,
        selector.encode(),
        domain.encode(),
        key,
        include_headers=[b"from", b"to", b"subject", b"message-id"],
    )
    return header + raw


# -- the table ------------------------------------------------------------------
@pytest.fixture
def rapp(db_url, smtp, tmp_path, dns):
    return reply_app(db_url, smtp, tmp_path, MAIL_AUTH_DNS=dns.address, MAIL_AUTH_DNS_TIMEOUT=2.0)


def deliver(port: int, message, mail_from: str = EVIL) -> None:
    """Over real SMTP, as anyone can: any envelope sender, any From:."""
    raw = message if isinstance(message, bytes) else message.as_bytes(policy=policy.SMTP)
    to = str(__import__("email").message_from_bytes(raw)["To"])
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        client.sendmail(mail_from, [to], raw)


def forged(mail, email: str, text: str, **headers):
    """A reply with ``email`` in From: and nothing that proves it."""
    return write_reply(mail, email, text, authenticated=False, **headers)


def confirmations(table: Table, email: str) -> list:
    return [m for m in table.new_mail(email) if news_of(m) == CONFIRM_NEWS]


def outbox_to(app, fragment: str) -> int:
    with app.app_context(), db.connection_context():
        return Outbox.select().where(Outbox.to_addr.contains(fragment)).count()


# -- a forged From: -------------------------------------------------------------
def test_a_forged_from_plays_nothing_and_the_owners_confirmation_plays_it(duo, rapp, receiver):
    email, mail = turn_mail(duo)
    label = [line for line in body_of(mail).splitlines() if line.startswith("  2. ")][0][5:]
    before = db_state(rapp, duo.game_id)
    deliver(receiver.port, forged(mail, email, "2"))
    assert duo.game().seq == 0 and db_state(rapp, duo.game_id)[:6] == before[:6]
    (row,) = inbound(rapp)
    assert row.status == "held" and "Not authenticated" in row.outcome
    (ask,) = confirmations(duo, email)
    assert "We got this move by mail" in body_of(ask) and "    2\n" in body_of(ask)
    assert reply_to(ask) != reply_to(mail) and reply_to(ask).startswith("play+")
    assert outbox_to(rapp, "evil.example") == 0
    # The owner answers the confirmation; that reply proves nothing either,
    # but its address went to the owner's mailbox only.
    deliver(receiver.port, forged(ask, email, "yes"), mail_from=email)
    assert duo.game().seq == 1
    (answer,) = duo.new_mail(email)
    assert f"- {label}" in body_of(answer)
    assert [r.status for r in inbound(rapp)] == ["held", "applied"]


def test_a_reply_from_another_address_asks_the_seats_player_not_the_sender(duo, rapp, receiver):
    """Whatever the From: says, the request goes to the seat's player, and
    says which sender address the held mail came with."""
    email, mail = turn_mail(duo)
    deliver(receiver.port, forged(mail, "me.at.work@elsewhere.example", "Mayor"))
    assert duo.game().seq == 0 and outbox_to(rapp, "elsewhere.example") == 0
    (ask,) = confirmations(duo, email)
    assert "me.at.work@elsewhere.example" in body_of(ask)
    deliver(receiver.port, forged(ask, email, "yes"), mail_from=email)
    assert duo.game().seq == 1


def test_a_confirmation_after_the_game_moved_on_plays_nothing(duo, rapp, receiver):
    email, mail = turn_mail(duo)
    deliver(receiver.port, forged(mail, email, "1"))
    (ask,) = confirmations(duo, email)
    deliver(receiver.port, write_reply(mail, email, "Mayor"))  # the player, proven
    seq = duo.game().seq
    duo.new_mail(email)
    before = db_state(rapp, duo.game_id)
    deliver(receiver.port, forged(ask, email, "ok"), mail_from=email)
    assert duo.game().seq == seq and db_state(rapp, duo.game_id)[:6] == before[:6]
    row = inbound(rapp)[-1]
    assert row.status == "refused" and "moved on" in row.outcome


def test_a_confirmation_used_twice_plays_once(duo, rapp, receiver):
    email, mail = turn_mail(duo)
    deliver(receiver.port, forged(mail, email, "Settler"))
    (ask,) = confirmations(duo, email)
    deliver(receiver.port, forged(ask, email, "yes"), mail_from=email)
    deliver(receiver.port, forged(ask, email, "Yes!"), mail_from=email)
    assert duo.game().seq == 1
    rows = inbound(rapp)
    assert [r.status for r in rows] == ["held", "applied", "ignored"]
    assert "used before" in rows[-1].outcome
    with rapp.app_context(), db.connection_context():
        assert ReplyConfirmation.select().where(ReplyConfirmation.used_at.is_null()).count() == 0


def test_an_out_of_office_answer_confirms_nothing(duo, rapp, receiver):
    """An auto-reply that does not say it is one (no Auto-Submitted) lands
    on the confirmation address too: only a first line that says yes (in
    any of the site's languages) confirms, and the address still works."""
    email, mail = turn_mail(duo)
    deliver(receiver.port, forged(mail, email, "Settler"))
    (ask,) = confirmations(duo, email)
    away = "I am out of the office until Monday.\nYes, I will answer then."
    deliver(receiver.port, forged(ask, email, away), mail_from=email)
    assert duo.game().seq == 0
    assert "does not start with yes" in inbound(rapp)[-1].outcome
    assert duo.new_mail(email) == []
    deliver(receiver.port, forged(ask, email, "Ja."), mail_from=email)
    assert duo.game().seq == 1


def test_a_confirmation_address_with_a_wrong_signature_does_nothing(duo, rapp, receiver):
    email, mail = turn_mail(duo)
    deliver(receiver.port, forged(mail, email, "1"))
    (ask,) = confirmations(duo, email)
    address = reply_to(ask)
    local, domain = address.split("@")
    bent = local[:-1] + ("a" if local[-1] != "a" else "b") + "@" + domain
    message = forged(ask, email, "yes")
    message.replace_header("To", bent)
    kept = len(inbound(rapp))
    # The receiver checks the signature at RCPT: a bent address is refused
    # before the mail is read, and nothing is kept or answered.
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        deliver(receiver.port, message, mail_from=email)
    assert refused.value.recipients[bent][0] == 550
    assert duo.game().seq == 0 and len(inbound(rapp)) == kept
    assert duo.new_mail(email) == []


# -- DKIM checked here ----------------------------------------------------------
def test_a_dkim_signed_reply_from_the_players_domain_plays_at_once(duo, rapp, receiver, dns):
    email, mail = turn_mail(duo)
    key = new_key(dns, "sel", "example.org")
    dns.txt["_dmarc.example.org"] = "v=DMARC1; p=reject"
    deliver(receiver.port, signed(forged(mail, email, "2"), "example.org", key))
    assert duo.game().seq == 1
    (row,) = inbound(rapp)
    assert row.status == "applied"
    assert confirmations(duo, email) == []


@pytest.mark.parametrize("case", ["misaligned", "tampered", "unknown key"])
def test_a_bad_dkim_signature_is_held(duo, rapp, receiver, dns, case):
    email, mail = turn_mail(duo)
    if case == "misaligned":
        # A valid signature, but of another domain than the From:'s.
        raw = signed(forged(mail, email, "2"), "evil.example", new_key(dns, "sel", "evil.example"))
    elif case == "tampered":
        raw = signed(forged(mail, email, "2"), "example.org", new_key(dns, "sel", "example.org"))
        head, sep, body = raw.partition(b"\r\n\r\n")
        raw = head + sep + body.replace(b"2", b"1", 1)
    else:
        raw = signed(forged(mail, email, "2"), "example.org", new_key(dns, "gone", "example.org"))
        with dns.lock:
            del dns.txt["gone._domainkey.example.org"]
    deliver(receiver.port, raw)
    assert duo.game().seq == 0
    (row,) = inbound(rapp)
    assert row.status == "held" and "DKIM" in row.outcome
    assert len(confirmations(duo, email)) == 1


@pytest.mark.parametrize(
    "adkim, signer, trusted",
    [
        ("r", "example.org", True),
        ("r", "mail.example.org", True),
        ("s", "mail.example.org", False),
        ("s", "example.org", True),
        ("r", "example.org.evil.example", False),
    ],
)
def test_dkim_alignment_follows_the_domains_dmarc_record(dns, adkim, signer, trusted):
    from email.message import EmailMessage

    message = EmailMessage()
    message["From"], message["To"] = "player1@example.org", "play+x@reply.test"
    message["Subject"], message["Message-ID"] = "Re: x", "<a@example.org>"
    message.set_content("1")
    dns.txt["_dmarc.example.org"] = f"v=DMARC1; p=none; adkim={adkim}"
    raw = signed(message, signer, new_key(dns, "align", signer), selector="align")
    settings = {"MAIL_AUTH_DNS": dns.address, "MAIL_AUTH_DNS_TIMEOUT": 2.0, "SECRET_KEY": "x"}
    verdict = authentication.check(raw, "player1@example.org", settings)
    dns.txt["_dmarc.example.org"] = "v=DMARC1; p=reject"
    assert verdict.authenticated is trusted, verdict.how


def test_two_from_lines_are_never_authenticated(dns):
    from email.message import EmailMessage

    message = EmailMessage()
    message["From"] = "someone@evil.example"
    message["To"], message["Subject"] = "play+x@reply.test", "Re: x"
    message.set_content("1")
    raw = signed(message, "evil.example", new_key(dns, "two", "evil.example"), selector="two")
    raw = raw.replace(
        b"From: someone@evil.example", b"From: player1@example.org\r\nFrom: someone@evil.example", 1
    )
    ar = f"Authentication-Results: {authenticated_by(AUTHSERV, 'player1@example.org')}\r\n"
    settings = {"MAIL_AUTH_DNS": dns.address, "MAIL_AUTH_SERVERS": AUTHSERV, "SECRET_KEY": "x"}
    for mail in (raw, ar.encode() + raw):
        assert not authentication.check(mail, "player1@example.org", settings).authenticated


# -- Authentication-Results -----------------------------------------------------
@pytest.mark.parametrize(
    "case, plays",
    [
        ("trusted", True),
        ("trusted dkim", True),
        ("other authserv-id", False),
        ("below a forged one", False),
        ("trusted but fail", False),
        ("other From: domain", False),
    ],
)
def test_authentication_results_count_only_from_the_trusted_server(
    duo, rapp, receiver, case, plays
):
    email, mail = turn_mail(duo)
    message = forged(mail, email, "2")
    headers = {
        "trusted": [authenticated_by(AUTHSERV, email)],
        "trusted dkim": [f"{AUTHSERV}; dkim=pass header.d=example.org header.s=s1"],
        "other authserv-id": [authenticated_by("mx.evil.example", email)],
        # Topmost under the trusted id is what the server wrote; the pass
        # below it is the sender's own.
        "below a forged one": [
            f"{AUTHSERV}; dmarc=fail header.from=example.org",
            authenticated_by(AUTHSERV, email),
        ],
        "trusted but fail": [f"{AUTHSERV}; dkim=fail header.d=example.org"],
        "other From: domain": [authenticated_by(AUTHSERV, EVIL)],
    }[case]
    for value in reversed(headers):
        message._headers.insert(0, ("Authentication-Results", value))
    deliver(receiver.port, message)
    assert (duo.game().seq == 1) is plays
    assert inbound(rapp)[0].status == ("applied" if plays else "held")


@pytest.mark.parametrize(
    "headers, trusted",
    [
        ([f"{AUTHSERV}; dmarc=pass header.from=example.org"], True),
        ([f"{AUTHSERV.upper()} 1; dkim=pass header.i=@mail.example.org"], True),
        ([f"{AUTHSERV}; dkim=pass header.d=example.org.evil.example"], False),
        (
            [
                f"{AUTHSERV}; dmarc=pass header.from=example.org (((",
                f"{AUTHSERV}; dmarc=pass header.from=example.org",
            ],
            False,
        ),
        ([f"{AUTHSERV}; none", f"{AUTHSERV}; dmarc=pass header.from=example.org"], False),
        (
            [
                "mx.evil.example; dmarc=pass header.from=example.org",
                f"{AUTHSERV}; dmarc=pass header.from=example.org",
            ],
            True,
        ),
        ([f"{AUTHSERV}", "x" * 5000], False),
    ],
)
def test_only_the_topmost_trusted_authentication_results_count(headers, trusted):
    raw = (
        "".join(f"Authentication-Results: {h}\r\n" for h in headers)
        + "From: Player <player1@example.org>\r\nTo: play+x@reply.test\r\n\r\n1\r\n"
    )
    settings = {
        "MAIL_AUTH_SERVERS": f" {AUTHSERV} , mx.other.test",
        "MAIL_AUTH_DKIM": False,
        "SECRET_KEY": "x",
    }
    verdict = authentication.check(raw.encode(), "player1@example.org", settings)
    assert verdict.authenticated is trusted, verdict.how


def test_the_catchers_authserv_id_is_trusted_only_while_the_catcher_is_on(rapp):
    settings = dict(rapp.config)
    catcher_id = authentication.catcher_authserv_id(settings)
    raw = (
        f"Authentication-Results: {catcher_id}; dmarc=pass header.from=example.org\r\n"
        "From: player1@example.org\r\nTo: play+x@reply.test\r\nSubject: x\r\n\r\n1\r\n"
    ).encode()
    assert not authentication.check(raw, "player1@example.org", settings).authenticated
    settings["MAIL_CATCHER_DIR"] = "caught"
    assert authentication.check(raw, "player1@example.org", settings).authenticated
    assert catcher_id != authentication.catcher_authserv_id(dict(settings, SECRET_KEY="other"))


# -- the lobby and table talk ---------------------------------------------------
def lobby_state(app, game_id: int) -> tuple:
    from server.models import Game, Seat

    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        seats = [
            (s.index, s.user_id)
            for s in Seat.select().where(Seat.game == game_id).order_by(Seat.index)
        ]
        return game.status, dict(game.options), game.seq, seats


def test_a_forged_join_seats_nobody_until_the_account_confirms(rapp, smtp, send_mail, receiver):
    from test_mail_lobby import fresh, open_game
    from web_helpers import signup

    seen = {}
    game_id = open_game(rapp, smtp, send_mail, seen)
    (invitation,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    signup(rapp.test_client(), "Guest", "guest@example.org")
    fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    before = lobby_state(rapp, game_id)
    deliver(receiver.port, forged(invitation, "guest@example.org", "/join 2"))
    deliver(receiver.port, forged(invitation, "nobody@example.org", "/join 2"))
    deliver(receiver.port, forged(invitation, "host@example.org", "/option extension\n/start"))
    assert lobby_state(rapp, game_id) == before
    assert [r.status for r in inbound(rapp)] == ["held", "ignored", "held"]
    assert fresh(smtp, send_mail, rapp, "nobody@example.org", seen) == []
    assert outbox_to(rapp, "evil.example") == 0
    (ask,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    assert news_of(ask) == CONFIRM_NEWS and "/join 2" in body_of(ask)
    deliver(receiver.port, forged(ask, "guest@example.org", "yes"), mail_from="guest@example.org")
    (answer,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    assert "You sit in seat 2." in body_of(answer)
    with rapp.app_context(), db.connection_context():
        from server.models import Game

        assert Game.get_by_id(game_id).status == "open"  # the host's /start waits


def test_forged_table_talk_posts_nothing_until_confirmed_and_then_once(duo, rapp, receiver):
    from test_table_talk import say, talk_mails

    say(duo.clients[0], duo.game_id, "Shall we speed up?")
    (talk,) = talk_mails(duo, duo.emails[1])
    for _ in range(3):
        deliver(receiver.port, forged(talk, duo.emails[1], "I resign, you win."))
    with rapp.app_context(), db.connection_context():
        assert TableMessage.select().count() == 1
    asks = confirmations(duo, duo.emails[1])
    assert len(asks) == 3 and "I resign, you win." in body_of(asks[0])
    for _ in range(2):
        deliver(receiver.port, forged(asks[0], duo.emails[1], "yes"), mail_from=duo.emails[1])
    with rapp.app_context(), db.connection_context():
        assert [m.text for m in TableMessage.select().order_by(TableMessage.id)] == [
            "Shall we speed up?",
            "I resign, you win.",
        ]


# -- mail that must not be answered ---------------------------------------------
def test_forged_mail_never_makes_the_site_mail_anyone_else(duo, rapp, receiver):
    """20 forged mails in the owner's name: at most REPLY_CONFIRM_PER_HOUR
    requests to the owner's own address, nothing to anybody else; strangers
    named in From: (whose mails only count against the same limit),
    auto-replies and unsigned addresses get nothing at all."""
    email, mail = turn_mail(duo)
    with rapp.app_context(), db.connection_context():
        outbox = Outbox.select().count()
    for i in range(20):
        deliver(receiver.port, forged(mail, email, "1"))
    for i in range(5):
        deliver(receiver.port, forged(mail, f"victim{i}@elsewhere.example", "1"))
        deliver(receiver.port, write_reply(mail, email, "1", Auto_Submitted="auto-replied"))
    unsigned = forged(mail, email, "1")
    unsigned.replace_header("To", "play+aaaaaaaaaaaaaaaaaaaaaaaa@reply.test")
    with pytest.raises(smtplib.SMTPRecipientsRefused):  # 550 at RCPT: never read
        deliver(receiver.port, unsigned)
    with rapp.app_context(), db.connection_context():
        new = list(Outbox.select().where(Outbox.id > outbox))
    assert len(new) == rapp.config["REPLY_CONFIRM_PER_HOUR"] == 5
    assert {m.to_addr for m in new} == {email}
    assert {m.body_text.split("\n", 1)[0] for m in new} == {CONFIRM_NEWS}
    statuses = [r.status for r in inbound(rapp)]
    assert statuses.count("held") == 5 and statuses.count("ignored") == 25
    assert duo.game().seq == 0


def test_a_naive_auto_responder_that_signs_its_mail_gets_five_answers_not_forever(
    duo, rapp, receiver
):
    """A player's out-of-office that carries no Auto-Submitted but is
    authenticated answers each refusal; after REPLY_REFUSALS_PER_HOUR
    refusals that hour the server stops answering, and the loop ends."""
    email, mail = turn_mail(duo)
    answers = 0
    for _ in range(8):
        deliver(receiver.port, write_reply(mail, email, "I am away until Monday."), mail_from=email)
        new = duo.new_mail(email)
        answers += len(new)
        mail = new[-1] if new else mail
    assert answers == rapp.config["REPLY_REFUSALS_PER_HOUR"] == 5
    assert [r.status for r in inbound(rapp)] == ["refused"] * 5 + ["ignored"] * 3
    assert "refused too often" in inbound(rapp)[-1].outcome and duo.game().seq == 0

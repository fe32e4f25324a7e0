"""Helpers for the reply tests: an app with replies on, the receiver running
in this process, and replies written the way mail clients write them.

The app trusts the Authentication-Results of the authserv-id ``AUTHSERV``
(standing for the operator's own mail server), and ``write_reply`` adds such
a header by default (``authenticated=False``: none), so a reply counts as
sent by its From: address, as a reply through a DKIM-checking server does."""

from __future__ import annotations

import re
import smtplib
import uuid
from email.message import EmailMessage
from email.utils import make_msgid

from conftest import free_port, make_app

from server.db import db
from server.models import Game, InboundMail, Outbox

DOMAIN = "reply.test"
AUTHSERV = "mx.reply.test"

# The line a mail client puts above the quoted mail, per language; Outlook
# writes a block of header lines instead.
QUOTE_HEADERS = {
    "en": "On Mon, Jun 3, 2024 at 10:00 AM pbem <pbem@localhost> wrote:",
    "de": "Am Mo., 3. Juni 2024 um 10:00 Uhr schrieb pbem <pbem@localhost>:",
    "fr": "Le lun. 3 juin 2024 à 10:00, pbem <pbem@localhost> a écrit :",
    "nl": "Op ma 3 jun 2024 om 10:00 schreef pbem <pbem@localhost>:",
    "nl-outlook": (
        "Van: pbem <pbem@localhost>\nVerzonden: maandag 3 juni 2024 10:00\n"
        "Aan: player1@example.org\nOnderwerp: Re: [pbem] Test table"
    ),
}


def reply_app(db_url, smtp, tmp_path, **extra):
    extra.setdefault("MAIL_AUTH_SERVERS", AUTHSERV)
    return make_app(db_url, smtp, tmp_path, REPLY_DOMAIN=DOMAIN, **extra)


def authenticated_by(authserv: str, from_addr: str, result: str = "dmarc=pass") -> str:
    """An Authentication-Results value as a DMARC-checking server writes it."""
    domain = from_addr.rpartition("@")[2].rstrip(">")
    return f"{authserv}; {result} header.from={domain}"


def start_receiver(app, protocol: str = "smtp"):
    from server.processes.receiver import start

    return start(app.config, db, host="127.0.0.1", port=free_port(), protocol=protocol)


def reply_to(msg) -> str:
    return str(msg["Reply-To"] or "")


def body_of(msg) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def news_of(msg) -> str:
    """What a mail is: its text's first line (a game thread's mails share one subject)."""
    return body_of(msg).split("\n", 1)[0]


def choices_in(msg) -> list[str]:
    """The numbered choices a mail lists, in order."""
    return re.findall(r"^  \d+\. (.+)$", body_of(msg), re.M)


def write_reply(
    msg, from_addr: str, text: str, lang: str = "en", authenticated: bool = True, **headers
) -> EmailMessage:
    """A reply to ``msg`` as a mail client makes it: the text on top, then the
    quote header of ``lang`` and the quoted original; ``authenticated``: as
    the trusted server AUTHSERV passed it on (dmarc=pass for From:)."""
    reply = EmailMessage()
    if authenticated:
        reply["Authentication-Results"] = authenticated_by(AUTHSERV, from_addr)
    reply["From"] = from_addr
    reply["To"] = reply_to(msg) or str(msg["From"])
    reply["Subject"] = f"Re: {msg['Subject']}"
    reply["Message-ID"] = make_msgid(domain="client.example")
    reply["In-Reply-To"] = msg["Message-ID"]
    for name, value in headers.items():
        reply[name.replace("_", "-")] = value
    quoted = "\n".join(f"> {line}" for line in body_of(msg).splitlines())
    reply.set_content(f"{text}\n\n{QUOTE_HEADERS[lang]}\n{quoted}\n")
    return reply


def send(port: int, message: EmailMessage, lmtp: bool = False) -> None:
    cls = smtplib.LMTP if lmtp else smtplib.SMTP
    with cls("127.0.0.1", port, timeout=10) as client:
        client.send_message(message)


def inbound(app) -> list[InboundMail]:
    with app.app_context(), db.connection_context():
        return list(InboundMail.select().order_by(InboundMail.id))


def outbox_kinds(app, to_addr: str) -> list[str]:
    with app.app_context(), db.connection_context():
        return [
            r.kind for r in Outbox.select().where(Outbox.to_addr == to_addr).order_by(Outbox.id)
        ]


def game_row(app, game_id: int) -> Game:
    with app.app_context(), db.connection_context():
        return Game.get_by_id(game_id)


def unique() -> str:
    return uuid.uuid4().hex[:8]

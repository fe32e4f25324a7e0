"""Reading a mail that came in (a reply to one of ours): who sent it, to which
address, in answer to what, whether a machine sent it, and the command lines
a person typed at its top.

Commands come from the first non-empty lines of the plain text.  Quoted
text, "On ... wrote:" headers and signatures are cut by mail-parser-reply
(it knows the reply headers of Dutch, German, French and English mail
clients); of what it leaves, the first block of lines is read, one decision
a line, and lines still quoted with ">" (a reply below the quote) are skipped.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses

from mailparser_reply import EmailReplyParser

LANGUAGES = ["nl", "de", "fr", "en"]
MAX_COMMANDS = 20
MAX_LINE = 200
# Precedence values of list and bulk mail, and the senders of bounces.
BULK_PRECEDENCE = {"bulk", "list", "junk", "auto_reply"}
BOUNCE_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply)@", re.I)
HTML_TAG = re.compile(r"<[^>]+>")
SIGNATURE = re.compile(r"^--\s*$")

_parser = EmailReplyParser(languages=LANGUAGES)


@dataclass(frozen=True)
class ParsedMail:
    message_id: str
    sender: str            # the From address, lower case
    recipients: list[str]  # To, Cc and the envelope's RCPT TO, lower case
    subject: str
    in_reply_to: str
    text: str              # the plain text as sent
    commands: list[str] = field(default_factory=list)
    automatic: str = ""    # why a machine sent it ("" for a person)


def parse(raw: bytes, envelope_to: list[str] | None = None,
          envelope_from: str | None = None) -> ParsedMail:
    msg = message_from_bytes(raw, policy=policy.default)
    sender = _address(msg.get("From", "")) or (envelope_from or "").lower()
    recipients = [a.lower() for a in envelope_to or []]
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        recipients += [a.lower() for _, a in getaddresses(msg.get_all(name, []) or []) if a]
    text = plain_text(msg)
    message_id = str(msg.get("Message-ID", "")).strip()
    if not message_id:
        # Without one a redelivery is still known: by what it says.
        message_id = f"<sha256-{hashlib.sha256(raw).hexdigest()}@inbound>"
    return ParsedMail(message_id=message_id[:250], sender=sender,
                      recipients=list(dict.fromkeys(recipients)),
                      subject=str(msg.get("Subject", ""))[:200],
                      in_reply_to=str(msg.get("In-Reply-To", "")).strip()[:250],
                      text=text, commands=command_lines(text),
                      automatic=automatic_reason(msg, sender, envelope_from))


def _address(value) -> str:
    found = [a for _, a in getaddresses([str(value)]) if a]
    return found[0].strip().lower() if found else ""


def automatic_reason(msg: EmailMessage, sender: str, envelope_from: str | None) -> str:
    """Why this mail must not be answered, or "" when a person wrote it:
    auto-replies (RFC 3834), list and bulk mail, bounces."""
    auto = str(msg.get("Auto-Submitted", "no")).strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    if str(msg.get("Precedence", "")).strip().lower() in BULK_PRECEDENCE:
        return f"Precedence: {msg['Precedence']}"
    for name in ("List-Id", "X-Autoreply", "X-Autorespond"):
        if msg.get(name) is not None:
            return f"{name} header"
    if envelope_from is not None and envelope_from.strip() in ("", "<>"):
        return "bounce (empty envelope sender)"
    if BOUNCE_SENDERS.match(sender) or msg.get_content_type() == "multipart/report":
        return "bounce"
    return ""


def plain_text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain", "html"))
    if part is None:
        return ""
    try:
        text = part.get_content()
    except (LookupError, ValueError):
        return ""
    if part.get_content_type() == "text/html":
        text = HTML_TAG.sub("\n", text)
    return text.replace("\r\n", "\n")


def command_lines(text: str) -> list[str]:
    """The block of lines a person typed at the top of a reply, in order: the
    first run of non-empty lines once quotes and signatures are cut (a blank
    line ends it, so an "On ... wrote:" line the library does not know, below
    a blank line, is never read as a command)."""
    fragments = _parser.read(text).replies
    # The first fragment's body: without its "On ... wrote:" header when the
    # reply starts with one (a reply written below the quote).
    reply = fragments[0].body if fragments else ""
    lines: list[str] = []
    for line in reply.split("\n"):
        line = line.strip()
        if SIGNATURE.match(line) or (not line and lines) or len(lines) == MAX_COMMANDS:
            break
        if line and not line.startswith(">"):
            lines.append(line[:MAX_LINE])
    return lines

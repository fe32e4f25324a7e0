"""Reading a mail that came in (a reply to one of ours): who sent it, to which
address, in answer to what, whether a machine sent it, and the command lines
a person typed at its top.

Commands come from the first non-empty lines of the plain text.  Quoted
text, "On ... wrote:" headers and signatures are cut by mail-parser-reply
(it knows the reply headers of Dutch, German, French and English mail
clients); of what it leaves, the first block of lines is read, one decision
a line, and lines still quoted with ">" (a reply below the quote) are skipped.

Every mail is hostile until read, and reading must take bounded time:
- ``malformed`` refuses what no mail client sends (NUL bytes, more nested
  multiparts than a reply has) before anything parses it: the email
  package's parser is super-linear in the nesting;
- the headers are read as plain strings (``policy.compat32``), each cut to
  ``MAX_HEADER`` characters before its addresses are parsed: the structured
  header parser of ``policy.default`` and ``getaddresses`` take seconds on a
  long header and recurse on nested comments;
- mail-parser-reply sees only a window of the text (``PARSER_CHARS``, with
  quoted lines dropped and runs of blank lines and of spaces made one): its
  signature pattern is quadratic in runs of whitespace (1,000 blank lines:
  0.2 s; 4,000: 2.7 s; 40 KB of text: minutes).  bench/inbound_parse.py
  measures the worst shapes.
"""

from __future__ import annotations

import hashlib
import re
import typing
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.header import decode_header, make_header
from email.message import Message
from email.utils import getaddresses

from mailparser_reply import EmailReplyParser

LANGUAGES = ["nl", "de", "fr", "en"]
MAX_COMMANDS = 20
MAX_LINE = 200
# What the reply parser is given: the top of the text, where the commands are.
PARSER_CHARS = 4096
PARSER_LINES = 80
# A header value is cut to this before it is parsed (an address list of a
# reply is far shorter; a longer one only costs time).
MAX_HEADER = 2000
# More multipart containers than a reply has (a reply: one to three).
MAX_MULTIPARTS = 32
MAX_PARTS = 200
# Precedence values of list and bulk mail, and the senders of bounces.
BULK_PRECEDENCE = {"bulk", "list", "junk", "auto_reply"}
BOUNCE_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply)@", re.I)
HTML_TAG = re.compile(r"<[^>]{0,2000}>")
SIGNATURE = re.compile(r"^--\s*$")
MULTIPART = re.compile(rb"^content-type:[ \t]*(?:\r?\n[ \t]+)?multipart/", re.I | re.M)
ADDR_SPEC = re.compile(r"[^\s<>()\[\],;:\"@]{1,64}@[^\s<>()\[\],;:\"@]{1,255}")
# Control characters a stored text must not hold (PostgreSQL refuses NUL);
# a header keeps none, a text its line breaks and tabs.
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
TEXT_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

_parser = EmailReplyParser(languages=LANGUAGES)


class Malformed(ValueError):
    """A mail no mail client writes, or one that cannot be read; the message
    says why, in a few words (it goes into an SMTP reply)."""


@dataclass(frozen=True)
class ParsedMail:
    message_id: str
    sender: str  # the From address, lower case
    recipients: list[str]  # To, Cc and the envelope's RCPT TO, lower case
    subject: str
    in_reply_to: str
    text: str  # the plain text as sent
    commands: list[str] = field(default_factory=list)
    automatic: str = ""  # why a machine sent it ("" for a person)


def malformed(raw: bytes) -> str:
    """Why ``raw`` is refused before it is parsed, or "" when it may be read."""
    if b"\0" in raw:
        return "NUL bytes in the message"
    if len(MULTIPART.findall(raw, 0, len(raw))) > MAX_MULTIPARTS:
        return "too many nested MIME parts"
    return ""


def parse(
    raw: bytes, envelope_to: list[str] | None = None, envelope_from: str | None = None
) -> ParsedMail:
    """The mail in ``raw``; Malformed when it cannot be read."""
    reason = malformed(raw)
    if reason:
        raise Malformed(reason)
    try:
        return _parse(raw, envelope_to, envelope_from)
    except Exception as exc:  # noqa: BLE001 - whatever breaks on a mail, the mail is at fault
        raise Malformed(f"unreadable ({exc.__class__.__name__})") from exc


def _parse(raw: bytes, envelope_to, envelope_from) -> ParsedMail:
    msg = message_from_bytes(raw, policy=policy.compat32)
    found = header_addresses(msg, "From")
    sender = found[0] if found else clean(envelope_from or "", 250).lower()
    recipients = [clean(a, 250).lower() for a in envelope_to or []]
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        recipients += header_addresses(msg, name)
    text = plain_text(msg)
    message_id = header_text(msg, "Message-ID")
    if not message_id:
        # Without one a redelivery is still known: by what it says.
        message_id = f"<sha256-{hashlib.sha256(raw).hexdigest()}@inbound>"
    return ParsedMail(
        message_id=message_id[:250],
        sender=sender[:250],
        recipients=list(dict.fromkeys(recipients)),
        subject=header_text(msg, "Subject", decode=True)[:200],
        in_reply_to=header_text(msg, "In-Reply-To")[:250],
        text=text,
        commands=command_lines(text),
        automatic=automatic_reason(msg, sender, envelope_from),
    )


# -- headers --------------------------------------------------------------------
def clean(text: str, limit: int | None = None) -> str:
    """A header's ``text`` fit to store and show on one line: no control
    characters (no NUL), no lone surrogates (bytes that were not UTF-8), at
    most ``limit`` long."""
    text = str(text).encode("utf-8", "replace").decode("utf-8")
    return CONTROL.sub("", text.replace("\n", " "))[:limit]


def clean_text(text: str) -> str:
    """A text fit to store: its lines and tabs kept, no other control
    characters, no lone surrogates."""
    return TEXT_CONTROL.sub("", text.encode("utf-8", "replace").decode("utf-8"))


def header_text(msg: Message, name: str, decode: bool = False) -> str:
    """The first ``name`` header as one clean line; ``decode``: its encoded
    words (=?utf-8?q?...?=) decoded."""
    value = msg.get(name)
    if value is None:
        return ""
    value = str(value)[:MAX_HEADER]
    if decode:
        try:
            value = str(make_header(decode_header(value)))
        except (LookupError, ValueError, UnicodeError, AssertionError):
            pass  # an unknown charset or a broken encoded word: as written
    return " ".join(clean(value).split())


def header_addresses(msg: Message, name: str) -> list[str]:
    """The addresses in the ``name`` headers, lower case, each value cut to
    MAX_HEADER first."""
    found: list[str] = []
    for value in msg.get_all(name, [])[:20]:
        value = str(value)[:MAX_HEADER]
        try:
            pairs = getaddresses([value])
        except (RecursionError, ValueError, IndexError):
            pairs = [("", a) for a in ADDR_SPEC.findall(value)]
        found += [clean(a, 250).strip().lower() for _, a in pairs if "@" in a]
    return found


def automatic_reason(msg: Message, sender: str, envelope_from: str | None) -> str:
    """Why this mail must not be answered, or "" when a person wrote it:
    auto-replies (RFC 3834), list and bulk mail, bounces."""
    auto = header_text(msg, "Auto-Submitted").lower() or "no"
    if auto != "no":
        return f"Auto-Submitted: {auto[:60]}"
    precedence = header_text(msg, "Precedence").lower()
    if precedence in BULK_PRECEDENCE:
        return f"Precedence: {precedence}"
    for name in ("List-Id", "X-Autoreply", "X-Autorespond"):
        if msg.get(name) is not None:
            return f"{name} header"
    if envelope_from is not None and envelope_from.strip() in ("", "<>"):
        return "bounce (empty envelope sender)"
    if BOUNCE_SENDERS.match(sender) or msg.get_content_type() == "multipart/report":
        return "bounce"
    return ""


# -- the text -----------------------------------------------------------------------
def walk(msg: Message):
    """Every part of the message, each container before what it holds, at
    most MAX_PARTS (no recursion: the nesting is the sender's to choose)."""
    stack, seen = [msg], 0
    while stack and seen < MAX_PARTS:
        part = stack.pop()
        seen += 1
        yield part
        payload = part.get_payload()
        if part.is_multipart() and isinstance(payload, list):
            stack.extend(reversed(typing.cast(list[Message], payload)))  # a multipart's parts


def part_text(part: Message) -> str:
    """A part's text, decoded as well as it goes: an unknown charset or a
    broken transfer encoding gives replacement characters, not an error."""
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return data.decode(charset, "replace")
    except (LookupError, ValueError):
        return data.decode("utf-8", "replace")


def plain_text(msg: Message) -> str:
    """The first text/plain part that is not an attachment, else the first
    text/html one without its tags; clean of NUL and lone surrogates."""
    found: dict[str, Message] = {}
    for part in walk(msg):
        kind = part.get_content_type()
        if (
            kind in ("text/plain", "text/html")
            and kind not in found
            and not str(part.get("Content-Disposition", "")).lower().startswith("attach")
        ):
            found[kind] = part
    part = found.get("text/plain") or found.get("text/html")
    if part is None:
        return ""
    text = part_text(part)
    if part.get_content_type() == "text/html":
        text = HTML_TAG.sub("\n", text)
    return clean_text(text.replace("\r\n", "\n"))


def parser_window(text: str) -> str:
    """The top of ``text`` as the reply parser gets it: quoted lines
    dropped (they are never commands), each line's runs of white space
    made one space, runs of blank lines made one, at most PARSER_LINES
    lines and PARSER_CHARS characters.  The parser's patterns are
    quadratic in runs of white space, and the commands are at the top."""
    lines: list[str] = []
    size = 0
    for line in text[: PARSER_CHARS * 16].split("\n"):
        line = " ".join(line.split())[: MAX_LINE * 2]
        if line.startswith(">") or (not line and (not lines or not lines[-1])):
            continue
        lines.append(line)
        size += len(line) + 1
        if len(lines) >= PARSER_LINES or size >= PARSER_CHARS:
            break
    return "\n".join(lines)[:PARSER_CHARS]


def command_lines(text: str) -> list[str]:
    """The block of lines a person typed at the top of a reply, in order: the
    first run of non-empty lines once quotes and signatures are cut (a blank
    line ends it, so an "On ... wrote:" line the library does not know, below
    a blank line, is never read as a command)."""
    fragments = _parser.read(parser_window(text)).replies
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

"""Bounces of outgoing mail.

Every mail goes out with its own signed return path (VERP):
``bounce+<token>@BOUNCE_DOMAIN``, signed as signed_addresses.py says, its
payload the outbox row's id (big-endian, no leading zero bytes).  A
bounce comes back to that address, so it names the mail it is about even
when the report quotes nothing of it.

``read_bounce`` reads a delivery status notification (RFC 3464: a
multipart/report with a message/delivery-status part, as Postfix, Exim and
the big providers send it) into a ``Bounce``: which mail, whether delivery
failed for good, the status code and the remote server's diagnostic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import Message

from server.mail import inbound
from server.mail.signed_addresses import AddressError, SignedAddresses

PREFIX = "bounce+"
LIMIT = 2**63
STATUS = re.compile(r"^\s*([245])\.\d{1,3}\.\d{1,3}")
STATUS_IN_TEXT = re.compile(r"\b[245]\.\d{1,3}\.\d{1,3}\b")


@dataclass(frozen=True)
class Bounce:
    outbox_id: int  # from the signed return path it came to
    message_id: str  # of the bounced mail, when the report quotes its headers
    action: str  # failed, delayed, delivered, relayed, expanded
    status: str  # "5.1.1"
    diagnostic: str  # the remote server's words, or a summary

    @property
    def failed(self) -> bool:
        """Delivery failed for good: the mail will not arrive."""
        return self.action == "failed" or self.status.startswith("5.")


class ReturnPaths:
    def __init__(self, secret_key: str, domain: str):
        self._signed = SignedAddresses("bounce", PREFIX, secret_key, domain)
        self.domain = self._signed.domain

    @classmethod
    def from_settings(cls, settings) -> ReturnPaths:
        return cls(settings["SECRET_KEY"], settings["BOUNCE_DOMAIN"])

    @property
    def enabled(self) -> bool:
        return self._signed.enabled

    def for_outbox(self, outbox_id: int) -> str:
        if not 0 < outbox_id < LIMIT:
            raise ValueError(f"cannot encode {outbox_id}")
        return self._signed.make(outbox_id.to_bytes(8, "big").lstrip(b"\0"))

    def is_ours(self, address: str) -> bool:
        return self._signed.is_ours(address)

    def read(self, address: str) -> int:
        """The outbox id a return path names; AddressError when it is not
        ours or its signature is wrong."""
        payload = self._signed.payload(address)
        if len(payload) > 8:
            raise AddressError("unknown shape")
        return int.from_bytes(payload, "big")


def read_bounce(raw: bytes, paths: ReturnPaths, envelope_to=()) -> Bounce | None:
    """The bounce in ``raw``; None when it is not a bounce of one of our
    mails: no return path of ours with a good signature among the envelope
    recipients (else Delivered-To, X-Original-To, To).  A report that only
    quotes a Message-ID names nothing: anybody can write one.  Read as the
    receiver reads replies (mail/inbound.py): malformed mail is no bounce,
    headers cut before they are parsed, parts walked without recursion."""
    outbox_id = _signed_id(envelope_to, paths)
    if inbound.malformed(raw):
        return None
    msg = message_from_bytes(raw, policy=policy.compat32)
    if outbox_id is None:
        outbox_id = _signed_id(
            [
                a
                for name in ("Delivered-To", "X-Original-To", "To")
                for a in inbound.header_addresses(msg, name)
            ],
            paths,
        )
    if outbox_id is None:
        return None
    fields = _delivery_status(msg)
    quoted = _quoted_headers(msg)
    message_id = inbound.header_text(quoted, "Message-ID") if quoted is not None else ""
    text = inbound.plain_text(msg)
    if fields is None:
        # Not a standard report: a bounce to the return path is a failure.
        found = STATUS_IN_TEXT.search(text[:20_000])
        return Bounce(
            outbox_id,
            message_id,
            "failed",
            found.group(0) if found else "5.0.0",
            _squeeze(text[:2000])[:500] or "undeliverable",
        )
    action = fields.get("action", "failed").lower()
    status_match = STATUS.match(fields.get("status", ""))
    status = fields.get("status", "").split()[0] if status_match else ""
    diagnostic = fields.get("diagnostic-code", "") or _squeeze(text[:2000])[:500]
    return Bounce(
        outbox_id, message_id, action[:20], status[:20], inbound.clean(_squeeze(diagnostic))[:1000]
    )


def _signed_id(addresses, paths: ReturnPaths) -> int | None:
    for address in addresses:
        try:
            return paths.read(address)
        except AddressError:
            continue
    return None


def _delivery_status(msg: Message) -> dict | None:
    """The per-recipient fields of the first failed (else first) recipient of
    a message/delivery-status part, lower-case names; None without one."""
    for part in inbound.walk(msg):
        if part.get_content_type() != "message/delivery-status":
            continue
        groups = _field_groups(part)
        recipients = groups[1:] or groups
        chosen = next(
            (g for g in recipients if g.get("action", "").lower() == "failed"),
            recipients[0] if recipients else None,
        )
        if chosen is not None:
            return chosen
    return None


def _field_groups(part) -> list[dict]:
    """message/delivery-status is blocks of header fields: the message's,
    then one per recipient.  The email package parses them as sub-messages."""
    payload = part.get_payload()
    if isinstance(payload, list):
        return [
            {k.lower(): _squeeze(str(v)[: inbound.MAX_HEADER]) for k, v in block.items()}
            for block in payload
        ]
    groups = []
    for block in re.split(r"\r?\n\s*\r?\n", str(payload)):
        fields, name = {}, None
        for line in block.splitlines():
            if line[:1] in (" ", "\t") and name:
                fields[name] += " " + line.strip()
            elif ":" in line:
                name, _, value = line.partition(":")
                name = name.strip().lower()
                fields[name] = value.strip()
        if fields:
            groups.append(fields)
    return groups


def _quoted_headers(msg: Message) -> Message | None:
    for part in inbound.walk(msg):
        kind = part.get_content_type()
        if kind in ("message/rfc822", "message/global"):
            inner = part.get_payload()
            return inner[0] if isinstance(inner, list) and inner else None
        if kind in ("text/rfc822-headers", "message/global-headers"):
            text = part.get_payload(decode=True) or b""
            return message_from_bytes(text[: 64 * 1024], policy=policy.compat32)
    return None


def _squeeze(text: str) -> str:
    return " ".join((text or "").split())

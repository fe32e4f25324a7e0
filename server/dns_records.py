"""The DNS records an operator publishes for the configured domains
(``pbem dns-records``, docs/operators/mail.md), in zone-file form:

- MX for the reply and bounce domains, to the host Postfix runs on (without
  them no mail server on the internet finds where replies and bounces go);
- SPF for the From: domain and the bounce domain (the envelope sender of
  every mail is bounce+…@BOUNCE_DOMAIN, and SPF is checked there);
- DKIM: the public key of DKIM_PRIVATE_KEY_FILE under DKIM_SELECTOR;
- DMARC for the From: domain;
- a note on the PTR record, which the address's owner publishes.

Pure text from the settings and the key file; no DNS is queried."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from email.utils import parseaddr
from pathlib import Path

from server import postfix_files

TTL = 3600


class RecordsError(Exception):
    """A setting or the key file does not allow the records; says which."""


def from_domain(settings) -> str:
    address = parseaddr(settings["MAIL_FROM"])[1]
    return address.rpartition("@")[2].lower() or "localhost"


def dkim_public_key(key_file: str) -> str:
    """The p= value: base64 of the key's SubjectPublicKeyInfo (RFC 6376 3.6.1)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    try:
        key = serialization.load_pem_private_key(Path(key_file).read_bytes(), password=None)
    except OSError as exc:
        raise RecordsError(f"DKIM_PRIVATE_KEY_FILE {key_file}: {exc.strerror}") from None
    except (ValueError, TypeError) as exc:
        raise RecordsError(f"DKIM_PRIVATE_KEY_FILE {key_file}: not a PEM key ({exc})") from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise RecordsError(f"DKIM_PRIVATE_KEY_FILE {key_file}: not an RSA key")
    der = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return base64.b64encode(der).decode()


def txt(value: str) -> str:
    """A TXT value as quoted strings of at most 255 characters each."""
    parts = [value[start : start + 255] for start in range(0, len(value), 255)]
    return " ".join(f'"{part}"' for part in parts)


def spf(mail_host: str, addresses: list[str]) -> str:
    senders = [f"ip6:{ip}" if ":" in ip else f"ip4:{ip}" for ip in addresses]
    return "v=spf1 " + " ".join(senders or [f"a:{mail_host}"]) + " -all"


def records(settings, mail_host: str, addresses: Sequence[str] = ()) -> list[str]:
    """The lines to publish: comments start with ';'."""
    addresses = list(addresses)
    host = mail_host.rstrip(".").lower()
    sender = from_domain(settings)
    bounce = settings.get("BOUNCE_DOMAIN", "").strip().lower()
    lines = [f"; pbem: DNS records for {sender}, sent and received by {host}", ""]
    lines.append("; Replies and bounces reach the mail server (Postfix) on this host.")
    for domain in postfix_files.domains(settings):
        lines.append(f"{domain}. {TTL} IN MX 10 {host}.")
    lines += ["", "; SPF: who may send as the From: domain and the bounce domain."]
    for domain in dict.fromkeys([sender, bounce] if bounce else [sender]):
        lines.append(f"{domain}. {TTL} IN TXT {txt(spf(host, addresses))}")
    lines += ["", "; DKIM: the key the mails are signed with."]
    key_file = settings.get("DKIM_PRIVATE_KEY_FILE", "")
    if key_file:
        selector = settings.get("DKIM_SELECTOR") or "pbem"
        signing = (settings.get("DKIM_DOMAIN") or sender).lower()
        value = f"v=DKIM1; k=rsa; p={dkim_public_key(key_file)}"
        lines.append(f"{selector}._domainkey.{signing}. {TTL} IN TXT {txt(value)}")
    else:
        lines.append("; DKIM_PRIVATE_KEY_FILE is not set: publish the record of the")
        lines.append(
            "; key your mail server signs with (OpenDKIM: the .txt opendkim-genkey wrote)."
        )
    lines += ["", "; DMARC: start at p=none, read the reports, then p=quarantine."]
    dmarc = f"v=DMARC1; p=none; adkim=r; aspf=r; rua=mailto:postmaster@{sender}"
    lines.append(f"_dmarc.{sender}. {TTL} IN TXT {txt(dmarc)}")
    lines += ["", f"; PTR: the reverse DNS of {host}'s address must name {host}, and {host}"]
    lines.append(
        f"; must resolve to that address (your hosting provider sets the PTR): "
        f"{', '.join(addresses) or 'its IPv4 and IPv6 addresses'}."
    )
    return lines

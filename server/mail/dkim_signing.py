"""DKIM signatures on pbem's own mail (DKIM_PRIVATE_KEY_FILE), made by the
sender right before a mail goes to SMTP, over the bytes that go out.

rsa-sha256, relaxed/relaxed (a relay that refolds a header or trims a
space breaks nothing).  From is signed twice: the second names its absence,
so a From: added on the way makes the signature fail instead of hiding
ours.  The list-unsubscribe headers, Message-ID, Date and Auto-Submitted
are signed too (RFC 8058 asks for List-Unsubscribe-Post to be), which an
MTA's signer leaves out by default.  ``pbem dns-records`` prints the
record that publishes the key.

A key that cannot be read or used is a settings error when a process
starts (``check``), never a sender round that fails mail after mail."""

from __future__ import annotations

import functools
from email.parser import BytesHeaderParser
from email.utils import parseaddr
from pathlib import Path

import dkim

from server.settings import SettingsError

# In this order, each where the mail has it; From once more (see above).
SIGNED = (
    "From",
    "To",
    "Subject",
    "Date",
    "Message-ID",
    "List-Id",
    "List-Unsubscribe",
    "List-Unsubscribe-Post",
    "Auto-Submitted",
    "Reply-To",
    "MIME-Version",
    "Content-Type",
    "In-Reply-To",
    "References",
)


class Signer:
    def __init__(self, key: bytes, selector: str, domain: str):
        self.key, self.selector, self.domain = key, selector.encode(), domain.encode()

    def signature(self, message: bytes) -> bytes:
        """The DKIM-Signature header line (CRLF-ended) to put before ``message``."""
        present = {name.lower() for name in BytesHeaderParser().parsebytes(message).keys()}
        names = [name.encode() for name in SIGNED if name.lower() in present] + [b"From"]
        return dkim.sign(
            message,
            self.selector,
            self.domain,
            self.key,
            canonicalize=(b"relaxed", b"relaxed"),
            signature_algorithm=b"rsa-sha256",
            include_headers=names,
        )

    def sign(self, message: bytes) -> bytes:
        return self.signature(message) + message


def signing_domain(settings) -> str:
    domain = settings.get("DKIM_DOMAIN", "").strip()
    if not domain:
        domain = parseaddr(settings["MAIL_FROM"])[1].rpartition("@")[2]
    return domain.lower()


def check(settings) -> Signer | None:
    """The signer of the settings, None when DKIM_PRIVATE_KEY_FILE is empty;
    SettingsError, naming the file and what is wrong, when its key cannot
    sign (missing, unreadable, not a PEM RSA key)."""
    return _signer(
        settings.get("DKIM_PRIVATE_KEY_FILE", "").strip(),
        (settings.get("DKIM_SELECTOR") or "pbem").strip(),
        signing_domain(settings),
    )


@functools.lru_cache(maxsize=8)
def _signer(key_file: str, selector: str, domain: str) -> Signer | None:
    if not key_file:
        return None
    where = f"DKIM_PRIVATE_KEY_FILE {key_file}"
    try:
        key = Path(key_file).read_bytes()
    except OSError as exc:
        raise SettingsError(f"{where}: cannot be read ({exc.strerror})") from None
    if not domain or "." not in domain:
        raise SettingsError(f"DKIM_DOMAIN: no domain to sign for ({domain!r})")
    made = Signer(key, selector, domain)
    try:  # a trial signature: the same checks as every mail's
        made.signature(b"From: a@b.example\r\nSubject: trial\r\n\r\nbody\r\n")
    except (dkim.DKIMException, ValueError, TypeError, IndexError) as exc:
        raise SettingsError(f"{where}: not a PEM RSA private key ({exc})") from None
    return made

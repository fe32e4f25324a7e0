"""Sealing channel secrets, and signing the generic webhook's bodies.

A channel URL holds its credentials (a Discord webhook token, a Pushover
key): it is stored sealed with Fernet, under NOTIFY_KEY or, when that is
empty, a key derived from SECRET_KEY.  Changing the key makes the stored
channels unreadable: they then fail and their owners add them again."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

# Names of the generic webhook's headers (README "Notifications").
SIGNATURE_HEADER = "X-Pbem-Signature"
TIMESTAMP_HEADER = "X-Pbem-Timestamp"


class Unreadable(Exception):
    """A sealed value this key cannot open."""


def _fernet(settings) -> Fernet:
    material = (settings.get("NOTIFY_KEY") or settings["SECRET_KEY"]).encode()
    key = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=None, info=b"pbem notify channels"
    ).derive(material)
    return Fernet(base64.urlsafe_b64encode(key))


def seal(settings, text: str) -> str:
    return _fernet(settings).encrypt(text.encode()).decode()


def unseal(settings, token: str) -> str:
    try:
        return _fernet(settings).decrypt(token.encode()).decode()
    except InvalidToken:
        raise Unreadable("the channel was sealed with another key") from None


def destination(settings, place: str) -> str:
    """A name for where a URL posts to that says nothing of it."""
    return hmac.new(settings["SECRET_KEY"].encode(), place.encode(), hashlib.sha256).hexdigest()[
        :64
    ]


def new_signing_key() -> str:
    return secrets.token_urlsafe(32)


def signature(key: str, timestamp: str, body: bytes) -> str:
    """HMAC-SHA256 over "<timestamp>.<body>" (the timestamp header's value,
    a dot, the raw body), hex: a receiver recomputes it with its key and
    refuses a timestamp far from its clock (a replayed notice)."""
    mac = hmac.new(key.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()

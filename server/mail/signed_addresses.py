"""Signed mail addresses: ``<prefix><token>@<domain>``, where the token is
lowercase base32 (mail systems may fold the case of a local part) of a small
payload followed by an HMAC-SHA256 of it, keyed per purpose and cut to 64
bits.  Reply addresses (reply_address.py) and return paths (bounces.py) are
both made this way; each knows what its payload means."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac

MAC_BYTES = 8


class AddressError(ValueError):
    """Not one of our addresses, or its signature does not hold."""


class SignedAddresses:
    def __init__(self, purpose: str, prefix: str, secret_key: str, domain: str):
        self._key = hashlib.sha256(f"pbem-{purpose}:{secret_key}".encode()).digest()
        self.prefix = prefix
        self.domain = domain.strip().lower()

    @property
    def enabled(self) -> bool:
        return bool(self.domain)

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()[:MAC_BYTES]

    def make(self, payload: bytes) -> str:
        token = base64.b32encode(payload + self._mac(payload)).decode().rstrip("=").lower()
        return f"{self.prefix}{token}@{self.domain}"

    def is_ours(self, address: str) -> bool:
        local, _, domain = address.strip().strip("<>").lower().rpartition("@")
        return self.enabled and domain == self.domain and local.startswith(self.prefix)

    def payload(self, address: str) -> bytes:
        """What an address of ours carries; AddressError when it is not ours
        or its signature is wrong."""
        if not self.is_ours(address):
            raise AddressError(f"not a {self.prefix} address of ours")
        token = address.strip().strip("<>").lower().rpartition("@")[0][len(self.prefix) :]
        try:
            raw = base64.b32decode(token.upper() + "=" * (-len(token) % 8))
        except (binascii.Error, ValueError):
            raise AddressError("not base32") from None
        payload, mac = raw[:-MAC_BYTES], raw[-MAC_BYTES:]
        if len(raw) <= MAC_BYTES or not hmac.compare_digest(mac, self._mac(payload)):
            raise AddressError("bad signature")
        return payload

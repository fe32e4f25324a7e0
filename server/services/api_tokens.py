"""Personal access tokens for the API: made in Settings, shown once, kept
only as a sha256 (the token is 32 random bytes, so a plain hash is enough),
each with scopes, an expiry and the time it was last used; revocable.

A token acts for its account as a player: it never carries moderator
powers, whatever the account may do in a browser."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from engine.words import N_
from server.models import ApiToken, User, utcnow
from server.services.moves import MoveRejected

SCOPES = ("read", "play", "lobby")
PREFIX = "pbem_"
DAYS = (7, 30, 90, 365)
NAME_MAX = 60
# last_used_at is written at most this often: not one UPDATE per request.
TOUCH_EVERY = dt.timedelta(minutes=1)


class TokenError(MoveRejected):
    status = 400


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def create(
    user: User, name: str, scopes, days: int, now: dt.datetime | None = None
) -> tuple[ApiToken, str]:
    """A new token: the row and the token itself, which is not kept."""
    now = now or utcnow()
    name = " ".join((name or "").split())[:NAME_MAX]
    scopes = [s for s in SCOPES if s in set(scopes)]
    if not name:
        raise TokenError(N_("Give the token a name."))
    if not scopes:
        raise TokenError(N_("Choose at least one scope."))
    if days not in DAYS:
        raise TokenError(N_("Choose how long the token works."))
    token = PREFIX + secrets.token_urlsafe(32)
    row = ApiToken.create(
        user=user.id,
        name=name,
        token_hash=digest(token),
        scopes=scopes,
        created_at=now,
        expires_at=now + dt.timedelta(days=days),
    )
    return row, token


def find(token: str, now: dt.datetime | None = None) -> ApiToken | None:
    """The live token row (with its user) for ``token``, or None: unknown,
    revoked or expired.  Notes the time it was used."""
    if not token.startswith(PREFIX) or len(token) > 100:
        return None
    now = now or utcnow()
    row = (
        ApiToken.select(ApiToken, User)
        .join(User)
        .where(
            (ApiToken.token_hash == digest(token))
            & ApiToken.revoked_at.is_null()
            & (ApiToken.expires_at > now)
        )
        .first()
    )
    if row is not None and (row.last_used_at is None or row.last_used_at < now - TOUCH_EVERY):
        ApiToken.update(last_used_at=now).where(ApiToken.id == row.id).execute()
        row.last_used_at = now
    return row


def of(user: User, now: dt.datetime | None = None) -> list[ApiToken]:
    """The account's tokens that still work, newest first."""
    now = now or utcnow()
    return list(
        ApiToken.select()
        .where(
            (ApiToken.user == user.id) & ApiToken.revoked_at.is_null() & (ApiToken.expires_at > now)
        )
        .order_by(ApiToken.id.desc())
    )


def revoke(user: User, token_id: int, now: dt.datetime | None = None) -> bool:
    """Whether a token of ``user``'s was revoked (another's is not touched)."""
    return bool(
        ApiToken.update(revoked_at=now or utcnow())
        .where(
            (ApiToken.id == token_id) & (ApiToken.user == user.id) & ApiToken.revoked_at.is_null()
        )
        .execute()
    )


def revoke_all(user_id: int, now: dt.datetime | None = None) -> int:
    """Every live token of the account ends (signing out everywhere, a new
    password, a new address): a token is a way in like a session."""
    return (
        ApiToken.update(revoked_at=now or utcnow())
        .where((ApiToken.user == user_id) & ApiToken.revoked_at.is_null())
        .execute()
    )

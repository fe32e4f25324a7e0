"""Browser sessions kept on the server.

The session cookie is signed but lives in the browser, so by itself it cannot
be taken back: a copy made before "Sign out" would go on working.  Each
session therefore names a row here (its ``key``), and only a cookie whose row
still exists is signed in or opens a seat from a link.  Signing out deletes
this browser's row; "sign out everywhere", a new password or a new address
deletes every row of the account (and changes its ``session_token``, which
the cookie's user id and every mailed account link carry too).
"""

from __future__ import annotations

import datetime as dt
import secrets

from peewee import fn

from server.db import Prepared
from server.models import BrowserSession, User, utcnow

KEY_CHARS = 64  # 32 random bytes as hex


def start(user: User | None, lifetime: dt.timedelta) -> str:
    """A new session (for ``user``, or a browser that only opened seat links).
    Sessions older than ``lifetime`` end here: a session lasts that long at
    most, however busy (mail scanners that open seat links leave rows too)."""
    BrowserSession.delete().where(BrowserSession.created_at < utcnow() - lifetime).execute()
    key = secrets.token_hex(KEY_CHARS // 2)
    BrowserSession.create(key=key, user=user.id if user is not None else None)
    return key


def is_alive(key) -> bool:
    return is_key(key) and bool(SESSION_ROW.rows(key))


# Read on every request of a browser with a session.
SESSION_ROW = Prepared(
    lambda key: (
        BrowserSession.select(BrowserSession.key).where(BrowserSession.key == key).limit(1).tuples()
    ),
    kinds=(str,),
)


def alive_in_query(key):
    """Whether the session row ``key`` exists, as a column of a bigger query:
    a request that reads a row anyway learns it without a statement of its
    own (web/seat_access.py).  ``key`` must be a key (``as_key``)."""
    return fn.EXISTS(BrowserSession.select(BrowserSession.key).where(BrowserSession.key == key))


def as_key(key) -> str:
    """``key`` when it is one, else "" (which no row has)."""
    return key if is_key(key) else ""


def end(key) -> None:
    """This browser's session: whatever copy of its cookie exists stops working."""
    if is_key(key):
        BrowserSession.delete().where(BrowserSession.key == key).execute()


def end_all(user_id: int) -> None:
    """Every session the account is signed in with, on every device."""
    BrowserSession.delete().where(BrowserSession.user == user_id).execute()


def is_key(key) -> bool:
    return isinstance(key, str) and len(key) == KEY_CHARS and key.isascii() and key.isalnum()

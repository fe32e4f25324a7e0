"""This browser's session as the server keeps it (services/sessions.py): the
cookie carries the key of a row, and what the cookie holds (the signed-in
account, seat links) counts only while that row exists.  Signing in starts a
new row (the old one ends: a key seen before signing in is worth nothing
after), signing out ends it and empties the cookie."""

from __future__ import annotations

from flask import current_app, g, session
from flask_login import login_user, logout_user

from server.models import User
from server.services import sessions

KEY = "sid"


def key():
    return session.get(KEY)


def begin(user: User | None) -> None:
    """A new row for this browser.  What a dead session's cookie still holds
    (seat links of a copied cookie) is dropped, not carried into the new one."""
    if not is_alive():
        session.clear()
    sessions.end(key())
    session[KEY] = sessions.start(user, current_app.permanent_session_lifetime)
    g.pbem_session_alive = True


def sign_in(user: User) -> None:
    begin(user)
    # After begin: its clear() would drop the mark.  The cookie then lasts
    # as long as the session's row (PERMANENT_SESSION_LIFETIME_DAYS), not
    # until the browser closes.
    session.permanent = True
    login_user(user)


def sign_out() -> None:
    """This browser, and every copy of its cookie, is signed out and holds no seat."""
    sessions.end(key())
    logout_user()
    session.clear()
    g.pbem_session_alive = False


def is_alive() -> bool:
    """Whether this browser's session row exists (read once per request)."""
    if "pbem_session_alive" not in g:
        g.pbem_session_alive = sessions.is_alive(key())
    return g.pbem_session_alive


def found_alive(alive: bool) -> None:
    """What a query of this request read of the session row (sessions.alive_in_query)."""
    g.pbem_session_alive = alive


def keep_alive() -> None:
    """A session row for a browser that has none (opening a seat link)."""
    if not is_alive():
        begin(None)  # begin drops what the dead session held

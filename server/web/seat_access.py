"""Which seat this browser plays in a game: the signed-in account's own seat,
or a seat opened from a link in a mail.

A seat link hands over that seat and nothing else: this browser may see that
seat's pages and move for it, but it is not signed in to the account (no
other games, no settings), so a forwarded mail never hands over an account.
The link itself is kept in the session and checked again on every request,
so "Email me a new link" (which bumps the seat's link version) ends every
browser that opened one of the old links, and an expired link stops working.

The links count only while this browser's session lives on the server
(web/browser_session.py): signing out ends them, in every copy of the cookie.
Each is kept with the seat player's session token of the moment it was
opened, so the player's "sign out everywhere" (or a new password) ends every
browser's copy too; the link in the mail opens the seat again.
"""

from __future__ import annotations

from flask import current_app, session
from flask_login import current_user
from peewee import JOIN

from server.db import Prepared
from server.mail.links import LinkError
from server.models import Game, Seat, User
from server.services import sessions
from server.services.what_a_seat_sees import seat_with_user
from server.web import browser_session
from server.web.protection import BIGGEST_ID

OWN_SEAT = Prepared(
    lambda game_id, user_id: (
        Seat.select().where((Seat.game == game_id) & (Seat.user == user_id)).limit(1)
    )
)
# The seat a link names, with its user (mail/links.py's SEAT), and whether
# this browser's session row exists: one statement where there were two.
# A plain row, made into models as what_a_seat_sees.seats_with_users makes them.
SEAT_AND_SESSION = Prepared(
    lambda game_id, index, key: (
        Seat.select(Seat, User, sessions.alive_in_query(key).alias("pbem_session_alive"))
        .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
        .where((Seat.game == game_id) & (Seat.index == index))
        .limit(1)
        .tuples()
    ),
    kinds=(int, int, str),
)
SESSION_KEY = "seat_links"
KEEP = 20  # seat links remembered per browser, newest first


def links():
    return current_app.extensions["pbem_mailer"].links


def open_link(token: str) -> Seat:
    """Remember a seat link in this browser; LinkError when it is not valid."""
    seat = links().read_seat(token, seat_and_session(token))
    if seat.user_id is None:
        raise LinkError("revoked")
    browser_session.keep_alive()
    kept = {k: v for k, v in session.get(SESSION_KEY, {}).items() if k != str(seat.game_id)}
    entry = (str(seat.game_id), [token, seat.user.session_token])
    session[SESSION_KEY] = dict([entry, *list(kept.items())[: KEEP - 1]])
    return seat


def viewer_seat(game: Game) -> Seat | None:
    """The seat this browser plays in ``game``, or None (a spectator)."""
    return viewer_seat_in(game.id)


def viewer_seat_in(game_id: int, seats: list[Seat] | None = None) -> Seat | None:
    """The same, by the game's id alone (the move reads the game later);
    ``seats``: the game's seats, when the caller has read them already."""
    user = current_user._get_current_object()  # looked up once, not per seat
    if user.is_authenticated:
        if seats is None:
            own = OWN_SEAT.first(game_id, user.id)
        else:
            own = next((s for s in seats if s.user_id == user.id), None)
        if own is not None:
            return own
    entry = session.get(SESSION_KEY, {}).get(str(game_id))
    if not (isinstance(entry, list) and len(entry) == 2 and all(isinstance(v, str) for v in entry)):
        return None
    if seats is None:
        seats = seat_and_session(entry[0])  # learns whether the session lives too
        if seats == []:
            return None  # no such seat: read_seat would say so
    if not browser_session.is_alive():
        return None
    try:
        seat = links().read_seat(entry[0], seats)
    except LinkError:
        return None
    if seat.game_id != game_id or seat.user_id is None or seat.user.session_token != entry[1]:
        return None
    return seat


def seat_and_session(token: str) -> list[Seat] | None:
    """The seat ``token`` names, read with whether this browser's session
    lives (browser_session.found_alive), as ``seats`` for ``read_seat``: [the
    seat], or [] when there is no such seat.  None when the token does not
    verify: ``read_seat`` then says why.  Only a token whose signature and
    age check out makes the server read a row."""
    try:
        data = links().seat_claims(token)
    except LinkError:
        return None
    if not all(is_id(data.get(k)) for k in ("g", "s")):
        return None
    row = SEAT_AND_SESSION.first(data["g"], data["s"], sessions.as_key(browser_session.key()))
    if row is None:
        return []
    *seat_and_user, alive = row
    browser_session.found_alive(bool(alive))
    return [seat_with_user(seat_and_user)]


def is_id(value) -> bool:
    """An int a column holds: a number too big for the database would fail
    the query (a 500, not a 404)."""
    return type(value) is int and 0 <= value <= BIGGEST_ID


def acting_user(seat: Seat) -> User:
    """Who a move through this seat is recorded for."""
    return User.get_by_id(seat.user_id)

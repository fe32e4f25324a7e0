"""The signed-in user is read on every request with a statement
built once (services/accounts.py SIGNED_IN); it answers as the query built
on each request did: the user only for their own live session and their
current token.  SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt

from moderation_helpers import in_db, service_game

from server.models import BrowserSession, Seat, User
from server.services import accounts, sessions


def built_each_time(session_id: str, key) -> User | None:
    """The read as it was: the query built anew."""
    ident, _, token = session_id.partition(":")
    user = (
        User.select()
        .join(BrowserSession)
        .where((User.id == int(ident)) & (BrowserSession.key == key))
        .first()
    )
    return user if user is not None and user.session_token == token else None


def test_the_signed_in_user_is_read_as_before(app):
    gid = service_game(app, "si", players=2)

    def check():
        ann, bob = (
            User.get_by_id(s.user_id)
            for s in Seat.select().where(Seat.game == gid).order_by(Seat.index)
        )
        day = dt.timedelta(days=1)
        ann_key, bob_key = sessions.start(ann, day), sessions.start(bob, day)
        cases = [
            (ann.get_id(), ann_key),  # the user
            (ann.get_id(), bob_key),  # another user's session
            (f"{ann.id}:{bob.session_token}", ann_key),  # a token not theirs
            (f"{10**17}:{ann.session_token}", ann_key),  # no such user
        ]
        found = [accounts.user_for_session(*case) for case in cases]
        assert [u and u.__data__ for u in found] == [
            u and u.__data__ for u in (built_each_time(*case) for case in cases)
        ]
        assert found[0].id == ann.id and found[1:] == [None, None, None]
        sessions.end(ann_key)  # signed out: the session row is gone
        assert accounts.user_for_session(ann.get_id(), ann_key) is None

    in_db(app, check)

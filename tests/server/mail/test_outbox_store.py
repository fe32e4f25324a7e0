"""A mail written with the prepared INSERT (compose.store) is the row
Outbox.create wrote: every column the same, defaults included, on SQLite and
PostgreSQL; and the returned Outbox is that row, with its id."""

from __future__ import annotations

import datetime as dt

from server.db import db
from server.mail.compose import store
from server.models import Game, Outbox, User, utcnow

SKIP = {"id", "message_id", "created_at", "next_attempt_at"}  # unique, or the moment of writing


def columns(row: Outbox) -> dict:
    return {name: value for name, value in row.__data__.items() if name not in SKIP}


def test_a_stored_mail_is_the_row_create_wrote(app):
    with app.app_context(), db.connection_context():
        host = User.create(email="h@example.org", name="H", password_hash="-")
        game = Game.create(
            kind="puerto_rico",
            name="g",
            host=host,
            seat_count=2,
            seed=1,
            move_hours=24,
            thread_id="<t@x>",
        )
        turn = dt.datetime(2026, 11, 25, 13, 0, 0, 123456)
        for given in (
            dict(game=game, headers={"Reply-To": "r@example.org"}, turn_of=turn, holds_clock=True),
            dict(game=None, headers={}, turn_of=None, holds_clock=False),
        ):
            fields = dict(
                kind="turn",
                to_addr="p@example.org",
                subject="Your turn: é",
                body_text="text\n",
                body_html="<p>html</p>",
                in_reply_to="<t@x>",
                references="<t@x>",
                author=host,
                **given,
            )
            before = utcnow()
            mail = store(message_id=f"<s{given['holds_clock']}@x>", **fields)
            made = Outbox.create(message_id=f"<c{given['holds_clock']}@x>", **fields)
            stored = Outbox.get_by_id(mail.id)
            assert columns(stored) == columns(Outbox.get_by_id(made.id))
            assert stored.message_id == mail.message_id
            assert before <= stored.created_at == stored.next_attempt_at <= utcnow()
            # What the caller gets back is what was stored, as create's was.
            assert mail.__data__.keys() == made.__data__.keys()
            assert {name: stored.__data__[name] for name in mail.__data__} == mail.__data__
            assert not mail.is_dirty()

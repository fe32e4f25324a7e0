"""After a turn mail went out the sender lets go of the turn's other mails
that held the clock (services/clock/reach.reached), by an UPDATE whose SQL
is built once (``REACHED``): it changes the rows the query built anew
selects, for each seat and turn asked about, not those of an earlier call."""

from __future__ import annotations

import datetime as dt

from server.db import db
from server.models import Outbox, Seat, User, utcnow
from server.services import games as lobby
from server.services.clock import reach


def holding(seat: Seat) -> set[int]:
    """The rows reached(seat) is to let go of, by the query built anew."""
    query = Outbox.select(Outbox.id).where(reach._holding(seat) & (Outbox.kind == "turn"))
    return {row.id for row in query}


def turn_mail(seat: Seat, to_addr: str, **fields) -> int:
    return Outbox.create(
        **dict(
            dict(
                game=seat.game_id,
                kind="turn",
                to_addr=to_addr,
                subject="s",
                body_text="t",
                body_html="<p>t</p>",
                message_id=f"<{to_addr}.{Outbox.select().count()}@x>",
                turn_of=seat.turn_started_at,
                holds_clock=True,
            ),
            **fields,
        )
    ).id


def test_reached_lets_go_of_the_rows_the_query_built_anew_selects(app):
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        now = utcnow()
        a, b = (
            User.create(email=f"{n}@Example.org", name=n, password_hash="-", email_verified_at=now)
            for n in ("Ann", "Bob")
        )
        game = lobby.create_game(a, "puerto_rico", "Reach", 2, {}, 48, [24, 6], mailer)
        lobby.join(game.id, b, 1)
        lobby.start(game.id, a, mailer)
        seats = list(Seat.select().where(Seat.game == game.id).order_by(Seat.index))
        for seat in seats:
            seat.turn_started_at = seat.turn_started_at or now - dt.timedelta(minutes=seat.index)
            seat.save()
        for seat, user in zip(seats, (a, b), strict=True):
            turn_mail(seat, user.email.upper())  # the address in another case
            turn_mail(seat, user.email, status="deferred")
            turn_mail(seat, user.email, status="sent")  # out already
            turn_mail(seat, user.email, kind="reminder")  # not a turn mail
            turn_mail(seat, user.email, turn_of=now - dt.timedelta(days=1))  # another turn
        for seat in seats:
            expected = holding(seat)
            others = {
                row.id
                for row in Outbox.select(Outbox.id).where(Outbox.holds_clock == True)  # noqa: E712
            } - expected
            assert expected
            assert reach.reached(seat) == len(expected)
            still = {
                row.id
                for row in Outbox.select(Outbox.id).where(Outbox.holds_clock == True)  # noqa: E712
            }
            assert still == others  # only the seat's own rows, not the last call's
            assert reach.reached(seat) == 0

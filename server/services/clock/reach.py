"""Whether the player of a pending turn was reached.

A turn's mails are tagged with the turn they tell of (``Outbox.turn_of`` is
the seat's ``turn_started_at``).  Two rules follow from what the sender did
with them, not from what was queued:

- a reminder or last call warns the player once the sender delivered it
  (``Seat.reminded_at`` is set then, services/outbox.py);
- a turn notice on a chat or push channel (server/notify, ``Outbox.recipient``)
  holds the clock like the turn mail; once one of the turn's notices, mail
  or channel, got through, the player was reached and the others of the
  turn no longer hold it (``reached``), and a turn mail failing or bouncing
  after a channel notice got through does not stop the clock;
- while a mail that ``holds_clock`` (the turn mail, a last call) waits in the
  outbox (queued, deferred, failed), the seat's clock stands still
  (``Seat.mail_hold_since``), however long the clock is: a timeout never
  plays for a seat whose player was never reached.  The sweep holds the
  clock when it meets such a seat (``hold_while_waiting``); the delivery
  releases it, and the deadline moves on by the time it stood still, so the
  turn's time counts from the delivery.
"""

from __future__ import annotations

import datetime as dt

from peewee import fn

from server.db import Prepared
from server.models import Outbox, Seat, User
from server.services.clock import seat_clock

UNDELIVERED = ("queued", "deferred", "failed")  # mail/smtp_sender.py: not out


def of_this_turn(row: Outbox, seat: Seat) -> bool:
    return row.turn_of is not None and row.turn_of == seat.turn_started_at


def _to_player(user_id):
    """Mails to the seat's player, and notices on channels telling them."""
    email = User.select(User.email).where(User.id == user_id)
    return (fn.LOWER(Outbox.to_addr) == fn.LOWER(email)) | (Outbox.recipient == user_id)


def _holding(seat: Seat):
    """The mails and notices of the seat's pending turn that hold its clock
    and have not gone out (to the seat's player, in case two turns began at
    once)."""
    return _holding_of(seat.game_id, seat.turn_started_at, seat.user_id)


def _holding_of(game_id, turn_of, user_id):
    return (
        (Outbox.game == game_id)
        & (Outbox.turn_of == turn_of)
        & (Outbox.holds_clock == True)  # noqa: E712
        & Outbox.status.in_(UNDELIVERED)
        & _to_player(user_id)
    )


def waiting(seat: Seat) -> Outbox | None:
    """The oldest mail of the seat's pending turn that holds its clock and
    has not gone out."""
    if seat.turn_started_at is None or seat.user_id is None:
        return None
    return WAITING.first(seat.game_id, seat.turn_started_at, seat.user_id)


# Asked at every timeout and reminder: its SQL is built once.
WAITING = Prepared(
    lambda game_id, turn_of, user_id: (
        Outbox.select(Outbox.id, Outbox.kind, Outbox.created_at)
        .where(_holding_of(game_id, turn_of, user_id))
        .order_by(Outbox.id)
        .limit(1)
    ),
    kinds=(int, dt.datetime, int),
)


def hold_while_waiting(seat: Seat, now: dt.datetime) -> bool:
    """Hold the seat's clock when a mail of its turn that holds it has not
    gone out; True when it now stands still.  A waiting turn mail holds it
    from the turn's start: the player never knew of the turn.  Run in a
    transaction: the seat stays locked until it ends (seat_clock.lock)."""
    return hold_if_waiting(seat_clock.lock(seat.id) or seat, now)


def hold_if_waiting(seat: Seat, now: dt.datetime) -> bool:
    """hold_while_waiting for a seat the caller read locked in this
    transaction: as it is now, so it is not read again."""
    row = waiting(seat)
    if row is None:
        return False
    since = seat.turn_started_at if row.kind == "turn" else now
    seat_clock.hold(seat.id, now, since)
    return True


def warned(seat: Seat, turn_of: dt.datetime | None, now: dt.datetime) -> bool:
    """A reminder or last call of the turn that began at ``turn_of`` reached
    the player: if that turn is still pending, it is the turn's warning."""
    return (
        Seat.update(reminded_at=now)
        .where(
            (Seat.id == seat.id) & (Seat.turn_started_at == turn_of) & Seat.reminded_at.is_null()
        )
        .execute()
    ) == 1


def reached_otherwise(seat: Seat, now: dt.datetime) -> None:
    """The player learnt of the turn without its mails (they opened the
    game): those still waiting no longer hold the clock, and a last call
    still waiting counts as delivered (the page shows the deadline)."""
    row = waiting(seat)
    if row is None:
        return
    if row.kind == "reminder":
        warned(seat, seat.turn_started_at, now)
    Outbox.update(holds_clock=False).where(_holding(seat)).execute()


def reached(seat: Seat) -> int:
    """A turn notice of the pending turn got through (mail or channel): the
    turn's other notices no longer hold the clock; how many were let go."""
    if seat.turn_started_at is None or seat.user_id is None:
        return 0
    return REACHED.run(seat.game_id, seat.turn_started_at, seat.user_id)


# Run by the sender after every turn mail it got out: its SQL is built once
# (building it cost a sender more than turning the mail into bytes).
REACHED = Prepared(
    lambda game_id, turn_of, user_id: Outbox.update(holds_clock=False).where(
        _holding_of(game_id, turn_of, user_id) & (Outbox.kind == "turn")
    ),
    kinds=(int, dt.datetime, int),
)


def reached_on_channel(seat: Seat) -> bool:
    """A turn notice of the pending turn got through on a channel."""
    if seat.turn_started_at is None or seat.user_id is None:
        return False
    return (
        Outbox.select()
        .where(
            (Outbox.game == seat.game_id)
            & (Outbox.turn_of == seat.turn_started_at)
            & (Outbox.kind == "turn")
            & (Outbox.status == "sent")
            & Outbox.channel.is_null(False)
            & (Outbox.recipient == seat.user_id)
        )
        .exists()
    )

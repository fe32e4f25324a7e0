"""A seat's clock: the columns that are its state, when it is due, and the
few ways it changes.

    stopped ──start_turn──▶ running ──(deadline passes)──▶ due
       ▲                      │  ▲                         │
       └──── TURN_OVER ───────┘  └──release── held ◀─hold──┘ (or from running)

- **stopped**: not the seat's turn; every clock column is empty.
- **running**: ``deadline`` is set and no hold; reminders go out at
  ``next_reminder_at``.
- **held**: ``mail_hold_since`` is set: its turn mail (or last call) has not
  gone out, so the clock stands still until it has; ``release`` moves the
  deadline and next reminder on by the time it stood.
- **due**: running and the deadline has passed while the game runs, is not
  paused and waits for this seat (``is_due``, and ``due_condition`` for the
  sweep's SQL: one rule, written for Python and for SQL side by side, and
  tests/server/services/test_seat_clock.py checks that they agree).

Who claims a due seat (``claimed_until``/``claimed_by``) is the sweep's
business (services/clock/sweep.py); the contributor guide has the whole
story (docs/contributors/seat-clock.md).
"""

from __future__ import annotations

import datetime as dt

from server.db import Prepared
from server.db import locked as db_locked
from server.models import Game, Seat
from server.services.clock import deadlines, own_time

# The seat's columns that are its clock (everything else of a seat is who
# sits there and how they play).
CLOCK_COLUMNS = (
    "turn_started_at",
    "deadline",
    "next_reminder_at",
    "reminded_at",
    "mail_hold_since",
    "claimed_until",
    "claimed_by",
    "timeouts_in_row",
    "absent",
)


# -- when a seat is due ---------------------------------------------------------
def is_due(game: Game, seat: Seat, now: dt.datetime) -> bool:
    """The seat's time is up: its turn in a running game, its deadline
    passed, its clock not held.  ``due_condition`` is the same rule in SQL."""
    return (
        game.status == "active"
        and not game.paused
        and game.to_move == seat.index
        and seat.deadline is not None
        and seat.deadline <= now
        and seat.mail_hold_since is None
    )


def due_condition(now: dt.datetime):
    """``is_due`` as a condition over Seat joined with its Game."""
    return (
        (Game.status == "active")
        & (Game.paused == False)  # noqa: E712
        & (Game.to_move == Seat.index)
        & (Seat.deadline <= now)
        & Seat.mail_hold_since.is_null()
    )


def start_turn(game: Game, seat: Seat, now: dt.datetime) -> None:
    """The seat's turn begins now: set its deadline and first reminder.

    An absent or withdrawn seat (moderation.is_autopass) or a bot's seat is
    due at once (the scheduler plays it); a
    player on vacation gets the full time after the vacation ends (the clock
    stands still meanwhile)."""
    seat.turn_started_at = now
    if seat.absent or seat.withdrawn or seat.bot:
        seat.deadline, seat.next_reminder_at = now, None
    else:
        vacation = deadlines.vacation_at(seat.user_id, now) if seat.user_id else None
        begins = vacation.ends_at if vacation else now
        user = seat.user if seat.user_id else None
        seat.deadline = own_time.deadline_from(game, user, begins, game.move_hours)
        seat.next_reminder_at = own_time.first_reminder(
            game, user, seat.deadline, begins, deadlines.reminder_hours(game)
        )
    seat.claimed_until = None
    seat.mail_hold_since = None
    seat.reminded_at = None
    TURN_STARTS.run(seat.id, seat.turn_started_at, seat.deadline, seat.next_reminder_at)
    seat._dirty.difference_update(TURN_STARTED_FIELDS)  # saved, as seat.save(only=…) leaves it


# The seat's clock starts (every move that passes the turn on): as
# seat.save(only=…) would write it, its SQL built once.
TURN_STARTS = Prepared(
    lambda seat_id, started, deadline, reminder: Seat.update(
        turn_started_at=started,
        deadline=deadline,
        next_reminder_at=reminder,
        claimed_until=None,
        mail_hold_since=None,
        reminded_at=None,
    ).where(Seat.id == seat_id),
    kinds=(int, dt.datetime, Seat.deadline, Seat.next_reminder_at),
)
TURN_STARTED_FIELDS = (
    "turn_started_at",
    "deadline",
    "next_reminder_at",
    "claimed_until",
    "mail_hold_since",
    "reminded_at",
)


# The seat's turn is over: its clock stops (moves.py writes these with the
# rest of the move's changes to the seat, in one UPDATE).
TURN_OVER = {
    "deadline": None,
    "next_reminder_at": None,
    "turn_started_at": None,
    "claimed_until": None,
    "mail_hold_since": None,
    "reminded_at": None,
}


# -- a turn mail that did not get through (services/outbox.py) ---------------------
def lock(seat_id: int) -> Seat | None:
    """The seat as it is now, locked until the transaction ends.

    Whoever stops a seat's clock because a mail of its turn has not gone
    out (the sweep), and whoever runs it again because that mail went out
    (the senders) or the player came (the game page), lock the seat before
    they look at its mails.  Otherwise a sweep could read the turn mail as
    waiting while a sender marked it sent and, finding no hold yet, let it
    be: the clock would stand still for good.  The seat comes first, then
    its mails, in every transaction that changes both, so none waits on
    another for ever."""
    return SEAT_LOCKED.first(seat_id)


# Read by every timeout, reminder and delivery of a turn mail: built once.
SEAT_LOCKED = Prepared(lambda seat_id: locked(Seat.select().where(Seat.id == seat_id).limit(1)))


def locked(query):
    """``query`` with FOR UPDATE of its seats (server/db.py ``locked``)."""
    return db_locked(query, of=Seat)


def hold(seat_id: int, now: dt.datetime, since: dt.datetime | None = None) -> bool:
    """Stop the seat's clock from ``since`` (when its player was last known
    to be reachable; ``now`` when not given, never later); False when it
    already stands still."""
    since = now if since is None else min(since, now)
    return HOLD.run(seat_id, since) == 1


HOLD = Prepared(
    lambda seat_id, since: Seat.update(mail_hold_since=since, claimed_until=None).where(
        (Seat.id == seat_id) & Seat.mail_hold_since.is_null() & Seat.deadline.is_null(False)
    ),
    kinds=(int, dt.datetime),
)


def release(seat_id: int, now: dt.datetime) -> bool:
    """Run the seat's clock again: its deadline and next reminder move on by
    the time it stood still.  False when it was running."""
    seat = Seat.get_or_none(Seat.id == seat_id)
    if seat is None or seat.mail_hold_since is None:
        return False
    stood = max(now - seat.mail_hold_since, dt.timedelta(0))
    changes: dict[str, dt.datetime | None] = {"mail_hold_since": None}
    if seat.deadline is not None:
        changes["deadline"] = seat.deadline + stood
    if seat.next_reminder_at is not None:
        changes["next_reminder_at"] = seat.next_reminder_at + stood
    return (
        Seat.update(**changes)
        .where((Seat.id == seat_id) & (Seat.mail_hold_since == seat.mail_hold_since))
        .execute()
    ) == 1

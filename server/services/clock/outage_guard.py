"""The outage guard: a server that was not running must not burn turns.

Every sweep beats the scheduler's heartbeat (one row in ``heartbeat``).  A
sweep that finds the last beat older than OUTAGE_GRACE_SECONDS knows that
nobody swept in between: the deadlines and reminders that fell inside the
gap move on by its length, each player whose deadline moved is told, and
the moderators get one summary.  The beat moves by compare-and-set in the
same transaction as the shift, so of several schedulers that come back at
once exactly one shifts the clocks, and a shift that fails is tried again.

The sender beats its own heartbeat (the moderators see it); a turn whose
turn mail has not left yet is not timed out, whether the sender is silent or
the SMTP server is down (services/clock/reach.py), and a turn mail that leaves
late starts its clock late (``mail_left_late``).
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import TypeGuard

from peewee import IntegrityError

from server.db import Prepared, db
from server.mail.compose import Mailer
from server.models import Game, Heartbeat, Outbox, Seat, User
from server.services.clock import deadlines
from server.services.state_store import rules

log = logging.getLogger("pbem.outages")
SCHEDULER, SENDER = "scheduler", "sender"
SUMMARY_GAMES = 50  # games listed by name in the moderators' summary


@dataclass(frozen=True)
class Outage:
    began: dt.datetime
    ended: dt.datetime

    @property
    def length(self) -> dt.timedelta:
        return self.ended - self.began

    def covers(self, when: dt.datetime | None) -> TypeGuard[dt.datetime]:
        return when is not None and self.began < when <= self.ended


# -- heartbeats -----------------------------------------------------------------
def beat(name: str, now: dt.datetime) -> dt.datetime | None:
    """Record that ``name`` is alive at ``now``; returns the beat before this
    one when this call moved it (None: first beat ever, or another process of
    the same kind beat at ``now`` or later)."""
    row = HEARTBEAT.first(name)
    if row is None:
        try:
            with db.atomic():
                Heartbeat.create(name=name, beat_at=now)
        except IntegrityError:  # another process wrote the first beat
            pass
        return None
    if row.beat_at >= now:
        return None
    won = BEAT.run(name, now, row.beat_at)
    return row.beat_at if won == 1 else None


# Read by every sender and scheduler round.
HEARTBEAT = Prepared(
    lambda name: Heartbeat.select().where(Heartbeat.name == name).limit(1), kinds=(str,)
)


BEAT = Prepared(
    lambda name, now, before: Heartbeat.update(beat_at=now).where(
        (Heartbeat.name == name) & (Heartbeat.beat_at == before)
    ),
    kinds=(str, dt.datetime, dt.datetime),
)


def last_beat(name: str) -> dt.datetime | None:
    row = HEARTBEAT.first(name)
    return row.beat_at if row else None


def silent(name: str, now: dt.datetime, grace_seconds: int) -> bool:
    """A process of kind ``name`` has beaten before but not for longer than
    the grace: it is down."""
    last = last_beat(name)
    return (
        bool(grace_seconds)
        and last is not None
        and now - last > dt.timedelta(seconds=grace_seconds)
    )


@dataclass(frozen=True)
class ProcessStatus:
    name: str
    last: dt.datetime | None
    down: bool


def process_status(settings, now: dt.datetime) -> list[ProcessStatus]:
    """When the scheduler and the sender last worked, for the moderators: a
    process silent for longer than the outage grace (or twice its interval,
    when the guard is off) is shown as down."""
    grace = settings["OUTAGE_GRACE_SECONDS"] or 2 * settings["SCHEDULER_INTERVAL"]
    return [
        ProcessStatus(name, last_beat(name), silent(name, now, grace) or last_beat(name) is None)
        for name in (SCHEDULER, SENDER)
    ]


# -- the scheduler's outage -------------------------------------------------------
def guard(settings, mailer: Mailer, now: dt.datetime) -> Outage | None:
    """Beat the scheduler's heartbeat; after an outage, shift the clocks that
    ran during it and tell the players and moderators.  Runs first in a sweep."""
    grace = dt.timedelta(seconds=max(settings["OUTAGE_GRACE_SECONDS"], 0))
    with db.atomic():
        before = beat(SCHEDULER, now)
        if not grace or before is None or now - before <= grace:
            return None
        outage = Outage(before, now)
        moved = shift_clocks(outage)
        tell(mailer, outage, moved)
    log.warning(
        "no sweep from %s to %s: moved %d deadline(s) on by %s",
        outage.began,
        outage.ended,
        len(moved),
        outage.length,
    )
    return outage


def shift_clocks(outage: Outage) -> list[Seat]:
    """Move every deadline and reminder that fell inside the outage on by its
    length; returns the seats whose deadline moved.  A reminder that would
    now come after its deadline is dropped: the last call (sweep.py) makes
    sure a warning still goes out."""
    fell = ((Seat.deadline > outage.began) & (Seat.deadline <= outage.ended)) | (
        (Seat.next_reminder_at > outage.began) & (Seat.next_reminder_at <= outage.ended)
    )
    running = (
        Seat.select(Seat, User)
        .join(User)
        .switch(Seat)
        .join(Game)
        .where(
            fell
            & Seat.deadline.is_null(False)
            & (Game.status == "active")
            & (Game.to_move == Seat.index)
        )
        .order_by(Seat.id)
    )
    moved: list[Seat] = []
    for seat in running:
        if seat.deadline is None:  # never: the query wants one
            continue
        changes: dict[str, dt.datetime | None] = {}
        if outage.covers(seat.deadline):
            changes["deadline"] = seat.deadline + outage.length
        deadline = changes.get("deadline") or seat.deadline
        if outage.covers(seat.next_reminder_at):
            reminder = seat.next_reminder_at + outage.length
            changes["next_reminder_at"] = reminder if reminder < deadline else None
        Seat.update(**changes).where(Seat.id == seat.id).execute()
        if "deadline" in changes:
            seat.deadline = deadline
            moved.append(seat)
    return moved


def tell(mailer: Mailer, outage: Outage, moved: list[Seat]) -> None:
    """One mail per player whose deadline moved, one summary per moderator."""
    games: dict[int, Game] = {}
    for seat in moved:
        game = games.setdefault(seat.game_id, Game.get_by_id(seat.game_id))
        if seat.absent or seat.withdrawn:
            continue
        zone, language = seat.user.timezone, seat.user.language
        mailer.outage(
            game,
            rules(game).title,
            seat,
            deadlines.local_text(outage.began, zone, language),
            deadlines.local_text(outage.ended, zone, language),
            deadlines.local_text(seat.deadline, zone, language),
        )
    listed = sorted(games.values(), key=lambda g: g.id)
    for moderator in User.select().where(User.is_moderator).order_by(User.id):
        zone, language = moderator.timezone, moderator.language
        mailer.outage_summary(
            moderator,
            deadlines.local_text(outage.began, zone, language),
            deadlines.local_text(outage.ended, zone, language),
            len(moved),
            [g.name for g in listed[:SUMMARY_GAMES]],
            max(len(listed) - SUMMARY_GAMES, 0),
        )


# -- the sender's outage ------------------------------------------------------------
def mail_left_late(settings, row: Outbox, seat: Seat | None, now: dt.datetime) -> bool:
    """The turn mail of the seat's pending turn left ``now``: when it waited
    in the outbox MAIL_WAIT_GRACE_SECONDS or longer, the player learnt of the
    turn only now, so the seat's clock moves on by the whole wait.  (A clock
    that stood still meanwhile is released by the time it stood instead.)"""
    waited = now - row.created_at
    if (
        seat is None
        or seat.deadline is None
        or seat.mail_hold_since is not None
        or waited < dt.timedelta(seconds=settings["MAIL_WAIT_GRACE_SECONDS"])
    ):
        return False
    shift = waited
    changes = {"deadline": seat.deadline + shift}
    if seat.next_reminder_at is not None:
        changes["next_reminder_at"] = seat.next_reminder_at + shift
    return (
        Seat.update(**changes)
        .where((Seat.id == seat.id) & (Seat.deadline == seat.deadline))
        .execute()
        == 1
    )

"""Declaring and ending vacations: the clocks of all the player's games stop."""

from __future__ import annotations

import datetime as dt

from engine.words import N_, msg
from server.db import Prepared, db
from server.models import Game, Seat, User, Vacation
from server.services.clock import deadlines, seat_clock

DAY = dt.timedelta(days=1)
# How far ahead a vacation may be declared.  Also keeps date arithmetic away
# from year 9999 (and year 1), where it overflows.
AHEAD = dt.timedelta(days=366)


class VacationError(ValueError):
    """A vacation that cannot be declared; the message is for the player."""


def local_midnight(day: dt.date, tzname: str) -> dt.datetime:
    local = dt.datetime.combine(day, dt.time(0), tzinfo=deadlines.zone(tzname))
    return local.astimezone(dt.UTC).replace(tzinfo=None)


def days_used(user: User, year: int) -> int:
    used = 0
    for v in Vacation.select().where(Vacation.user == user.id):
        if v.starts_at.year == year:
            used += -(-(v.ends_at - v.starts_at) // DAY)  # whole days, rounded up
    return used


def declare(
    user: User, first: dt.date, last: dt.date, now: dt.datetime, allowance: int
) -> Vacation:
    """Days ``first`` to ``last`` (inclusive, in the user's zone).  A vacation
    may start today (the user's today): it then starts now, and the
    deadlines of their pending turns move on at once."""
    if last < first:
        raise VacationError(N_("The last day comes before the first."))
    if first < now.date() - DAY:  # exactly checked below, once it can be computed
        raise VacationError(N_("A vacation starts today or later."))
    if last > now.date() + AHEAD:
        raise VacationError(
            N_(
                "A vacation may be declared at most a year ahead: "
                "its last day must be within a year from today."
            )
        )
    today = now.replace(tzinfo=dt.UTC).astimezone(deadlines.zone(user.timezone)).date()
    if first < today:
        raise VacationError(N_("A vacation starts today or later."))
    starts = max(local_midnight(first, user.timezone), now)
    ends = local_midnight(last + DAY, user.timezone)
    days = (last - first).days + 1
    with db.atomic():
        used = days_used(user, starts.year)
        if used + days > allowance:
            raise VacationError(
                msg(
                    "That is %(days)s days; %(left)s of your %(allowance)s "
                    "days for %(year)s are left.",
                    days=days,
                    left=allowance - used,
                    allowance=allowance,
                    year=starts.year,
                )
            )
        overlap = (
            Vacation.select()
            .where(
                (Vacation.user == user.id)
                & (Vacation.starts_at < ends)
                & (Vacation.ends_at > starts)
            )
            .exists()
        )
        if overlap:
            raise VacationError(N_("It overlaps a vacation you declared already."))
        begun = starts <= now
        vacation = Vacation.create(user=user, starts_at=starts, ends_at=ends, started=begun)
        if begun:  # the sweep starts the others (services/clock/sweep.py)
            deadlines.shift_pending(user.id, ends - now, now)
    return vacation


def cancel(user: User, vacation_id: int, now: dt.datetime) -> None:
    """Drop a vacation that has not begun; a running one is ended by ``come_back``."""
    deleted = (
        Vacation.delete()
        .where(
            (Vacation.id == vacation_id)
            & (Vacation.user == user.id)
            & (Vacation.starts_at > now)
            & (Vacation.started == False)
        )  # noqa: E712
        .execute()
    )
    if not deleted:
        raise VacationError(N_("There is no such vacation still to come."))


def come_back(user: User, now: dt.datetime) -> list[str]:
    """ "I'm back": end a running vacation early and stop auto-passing."""
    done = []
    with db.atomic():
        running = deadlines.vacation_at(user.id, now)
        if running is not None:
            if running.started:
                deadlines.shift_pending(user.id, -(running.ends_at - now), now)
            running.ends_at = now
            running.save(only=[Vacation.ends_at])
            done.append("Your vacation has ended: your clocks run again.")
        absent = list(Seat.select().where((Seat.user == user.id) & (Seat.absent == True)))  # noqa: E712
        for seat in absent:
            # A bot that played for them stops (services/bot_seats.py).
            seat.absent, seat.timeouts_in_row, seat.bot = False, 0, None
            seat.save(only=[Seat.absent, Seat.timeouts_in_row, Seat.bot])
            game = Game.get_by_id(seat.game_id)
            if game.status == "active" and game.to_move == seat.index:
                seat_clock.start_turn(game, seat, now)  # a fresh full clock
        if absent:
            done.append("You are no longer marked absent: your seats play again.")
    return done


def declared(user_ids: list[int], now: dt.datetime) -> dict[int, list[Vacation]]:
    """The vacations of these players that have not ended (running or to
    come), soonest first: the other players see them as soon as they are set."""
    found: dict[int, list[Vacation]] = {}
    for v in DECLARED.rows(now, *user_ids) if user_ids else []:
        found.setdefault(v.user_id, []).append(v)
    return found


# Every game page asks it for its players: one SQL per number of players.
DECLARED = Prepared(
    lambda now, *user_ids: (
        Vacation.select()
        .where(Vacation.user.in_(user_ids) & (Vacation.ends_at > now))
        .order_by(Vacation.starts_at)
    ),
    kinds=(dt.datetime,),
)


def days_of(vacation: Vacation, tzname: str) -> tuple[dt.date, dt.date]:
    """The first and last day of a vacation, as its player declared them (in
    their zone)."""
    tz = deadlines.zone(tzname)
    first = vacation.starts_at.replace(tzinfo=dt.UTC).astimezone(tz).date()
    last = (
        vacation.ends_at.replace(tzinfo=dt.UTC).astimezone(tz) - dt.timedelta(microseconds=1)
    ).date()
    return first, max(first, last)


def is_away(user: User, now: dt.datetime) -> bool:
    """On vacation now, or a seat marked absent: "I'm back" is for them."""
    absent = Seat.select().where((Seat.user == user.id) & (Seat.absent == True))  # noqa: E712
    return deadlines.vacation_at(user.id, now) is not None or absent.exists()


def on_vacation(user_ids: list[int], now: dt.datetime) -> dict[int, dt.datetime]:
    """Who of these players is away now, and until when (for the game page)."""
    rows = Vacation.select().where(
        Vacation.user.in_(user_ids) & (Vacation.starts_at <= now) & (Vacation.ends_at > now)
    )
    return {v.user_id: v.ends_at for v in rows}

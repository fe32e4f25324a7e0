"""The moderators' dashboard: games in progress that need attention (mail
failing, overdue, absent seats, no move for a long time, paused), with who
holds them up.  Games whose mail to a player does not get through come first,
whatever the sort: nobody else can tell that player it is their turn."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from peewee import fn

from engine.words import N_
from server.models import Event, Game, Seat, User
from server.services.outbox import failing_since
from server.services.state_store import rules

# A game is stalled when nobody moved for this many times its time per move.
STALLED_FACTOR = 2


@dataclass
class Row:
    game: Game
    title: str
    holder: str
    deadline: dt.datetime | None
    idle: dt.timedelta
    overdue: dt.timedelta | None
    absent: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    # Players whose mail bounced or failed, and since when.
    mail_failing: dict[str, dt.datetime] = field(default_factory=dict)


SORTS = {
    "idle": lambda r: r.idle,
    "overdue": lambda r: r.overdue or dt.timedelta(0),
    "deadline": lambda r: r.deadline or dt.datetime.max,
    "game": lambda r: r.game.name.lower(),
    "absent": lambda r: len(r.absent),
}


def rows(
    user: User,
    now: dt.datetime,
    everything: bool = False,
    sort: str = "idle",
    descending: bool = True,
) -> list[Row]:
    """Active games ``user`` moderates: all of them for a site moderator, their
    own for a host; only those needing attention unless ``everything``."""
    query = Game.select().where(Game.status == "active")
    if not user.is_moderator:
        query = query.where(Game.host == user.id)
    games = list(query)
    ids = [g.id for g in games]
    if not ids:
        return []
    seats = defaultdict(list)
    for seat in Seat.select(Seat, User).join(User).where(Seat.game.in_(ids)).order_by(Seat.index):
        seats[seat.game_id].append(seat)
    last_move = {
        row.game_id: row.last
        for row in (
            Event.select(Event.game, fn.MAX(Event.created_at).alias("last"))
            .where(Event.game.in_(ids) & (Event.kind == "move") & (Event.undone == False))  # noqa: E712 (SQL)
            .group_by(Event.game)
        )
    }
    failing = failing_since(s.user.email for group in seats.values() for s in group)
    found = [
        _row(g, seats[g.id], last_move.get(g.id) or g.started_at or now, now, failing)
        for g in games
    ]
    found = [r for r in found if everything or r.reasons]
    found.sort(key=SORTS.get(sort, SORTS["idle"]), reverse=descending)
    return sorted(found, key=lambda r: not r.mail_failing)  # stable: mail failing first


def _row(
    game: Game,
    seats: list[Seat],
    last: dt.datetime,
    now: dt.datetime,
    failing: dict[str, dt.datetime],
) -> Row:
    pending = next((s for s in seats if s.index == game.to_move), None)
    deadline = pending.deadline if pending else None
    # An auto-passing seat is due at once: it shows as absent, not overdue;
    # a seat whose clock stands still for a failing mail is not overdue either.
    late = (
        deadline is not None
        and deadline < now
        and not game.paused
        and not (pending.withdrawn or pending.absent or pending.mail_hold_since)
    )
    row = Row(
        game,
        rules(game).title,
        pending.user.name if pending else "",
        deadline,
        max(now - last, dt.timedelta(0)),
        now - deadline if late and deadline is not None else None,
        [s.user.name for s in seats if s.withdrawn or s.absent],
        mail_failing={
            s.user.name: failing[s.user.email.lower()]
            for s in seats
            if s.user.email.lower() in failing and not s.withdrawn
        },
    )
    if row.mail_failing:
        row.reasons.append(N_("mail failing"))
    if game.paused:
        row.reasons.append(N_("paused"))
    if row.overdue:
        row.reasons.append(N_("overdue"))
    if row.absent:
        row.reasons.append(N_("absent seats"))
    if row.idle > dt.timedelta(hours=STALLED_FACTOR * game.move_hours):
        row.reasons.append(N_("no move for a long time"))
    return row


def span(delta: dt.timedelta | None) -> str:
    """A duration the way people say it: "3 d 4 h", "5 h 10 min"."""
    if delta is None:
        return ""
    minutes = int(delta.total_seconds() // 60)
    days, hours, minutes = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        return f"{days} d {hours} h"
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"

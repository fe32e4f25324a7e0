"""While you were away: the moves others played for a seat (the server when
its time ran out, a moderator), listed to its player until they move again
or say they have seen them.  Built from the event log; ``Seat.away_seen_seq``
marks what the player has seen."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from peewee import JOIN

from engine.interface import Event as EngineEvent
from server.i18n import say
from server.models import Event, Game, Seat, User

LIMIT = 50  # moves listed; a seat away for weeks gets the newest


@dataclass(frozen=True)
class PlayedForYou:
    seq: int
    by: str  # who or what played it
    text: str  # what was played, as this seat reads it


def who(row: Event, moderator_name: str | None) -> str:
    if row.actor == "timeout":
        return "the server, when your time ran out"
    if row.actor == "bot":
        return "a bot, while you were away"
    if row.actor == "moderator":
        return f"moderator {moderator_name}" if moderator_name else "a moderator"
    return row.actor


def played_for(
    game: Game, seat: Seat, names: list[str], language: str | None = None
) -> list[PlayedForYou]:
    """The moves played for ``seat`` by others since its player last acted."""
    if seat.last_move_seq <= seat.away_seen_seq:
        # Every move for a seat sets last_move_seq and the player's own sets
        # away_seen_seq too: nobody else moved for it since (no query).
        return []
    rows = (
        Event.select(Event, User.name.alias("by_name"))
        .join(User, JOIN.LEFT_OUTER, on=(Event.user == User.id))
        .where(
            (Event.game == game.id)
            & (Event.seat == seat.index)
            & (Event.kind == "move")
            & (Event.undone == False)  # noqa: E712 (SQL)
            & (Event.actor != "player")
            & (Event.seq > seat.away_seen_seq)
        )
        .order_by(Event.seq.desc())
        .limit(LIMIT)
        .objects()
    )
    found = []
    for row in reversed(list(rows)):
        texts = [
            EngineEvent.from_json(data).text_for(seat.index, names, partial(say, language))
            for data in row.events
        ]
        found.append(
            PlayedForYou(
                row.seq, who(row, row.by_name), " ".join(t for t in texts if t) or "a move"
            )
        )
    return found


def seen(seat_id: int, seq: int) -> None:
    """The player has seen everything up to ``seq`` (they moved, or said so)."""
    Seat.update(away_seen_seq=seq).where(
        (Seat.id == seat_id) & (Seat.away_seen_seq < seq)
    ).execute()

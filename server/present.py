"""What a viewer may see of a game, as plain data for pages and mails.

Everything here goes through the engine's per-seat view and ``text_for``, so a
page or mail built from it can hold no other seat's hidden information.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from engine import Event as EngineEvent
from peewee import JOIN

from server.clock import local_text
from server.gamestate import rules
from server.models import Event, Game, Seat, User


@dataclass(frozen=True)
class LogLine:
    seq: int
    text: str


def seat_names(game: Game) -> list[str]:
    seats = (Seat.select(Seat, User)
             .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
             .where(Seat.game == game.id)
             .order_by(Seat.index))
    return [seat.user.name if seat.user_id else f"Player {seat.index + 1}" for seat in seats]


def board(game: Game, state, viewer: int | None, names: list[str]):
    kind = rules(game)
    return kind.board(kind.view(state, viewer), names)


def log_lines(game: Game, viewer: int | None, names: list[str], after: int = 0,
              upto: int | None = None) -> list[LogLine]:
    query = (Event.select(Event.seq, Event.events, Event.undone)
             .where((Event.game == game.id) & (Event.seq > after))
             .order_by(Event.seq))
    if upto is not None:
        query = query.where(Event.seq <= upto)
    lines = []
    for row in query:
        for data in row.events:
            text = EngineEvent.from_json(data).text_for(viewer, names)
            if text:
                lines.append(LogLine(row.seq, f"(undone) {text}" if row.undone else text))
    return lines


def outcome_rows(game: Game, names: list[str]) -> list[dict]:
    """Final scores, best first, from the outcome stored when the game ended."""
    if not game.outcome:
        return []
    winners = set(game.outcome["winners"])
    rows = [{"name": names[s["seat"]], "seat": s["seat"] + 1, "total": s["total"],
             "tiebreak": s["tiebreak"], "breakdown": s["breakdown"],
             "winner": s["seat"] in winners} for s in game.outcome["scores"]]
    return sorted(rows, key=lambda r: (-r["total"], -r["tiebreak"]))


def deadline_text(deadline: dt.datetime | None, tzname: str = "UTC") -> str:
    return local_text(deadline, tzname)

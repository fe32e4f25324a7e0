"""Lobbies that never start: LOBBY_REMIND_AFTER_DAYS after a game was made
its host is reminded once; LOBBY_CLOSE_AFTER_DAYS after it, an unstarted game
is closed (status "closed") and its host and joined players are told.  Runs
in every sweep; each step is claimed by a conditional UPDATE, so two
schedulers never send a reminder or close a game twice."""

from __future__ import annotations

import datetime as dt

from server.db import db
from server.mail.compose import Mailer
from server.models import Game, Seat, User
from server.services.state_store import rules

BATCH = 100


def sweep_lobbies(settings, mailer: Mailer, now: dt.datetime) -> tuple[int, int]:
    """(hosts reminded, games closed) at ``now``."""
    remind_days = settings["LOBBY_REMIND_AFTER_DAYS"]
    close_days = settings["LOBBY_CLOSE_AFTER_DAYS"]
    reminded = closed = 0
    if close_days > 0:
        due = _open_since(now - dt.timedelta(days=close_days))
        closed = sum(_close(mailer, row.id, now, close_days) for row in list(due))
    if remind_days > 0:
        due = _open_since(now - dt.timedelta(days=remind_days)).where(
            Game.lobby_reminded_at.is_null()
        )
        reminded = sum(_remind(mailer, row.id, now, close_days) for row in list(due))
    return reminded, closed


def _open_since(when: dt.datetime):
    return (
        Game.select(Game.id)
        .where((Game.status == "open") & (Game.created_at <= when))
        .order_by(Game.id)
        .limit(BATCH)
    )


def _remind(mailer: Mailer, game_id: int, now: dt.datetime, close_days: int) -> int:
    with db.atomic():
        won = (
            Game.update(lobby_reminded_at=now)
            .where(
                (Game.id == game_id) & Game.lobby_reminded_at.is_null() & (Game.status == "open")
            )
            .execute()
        )
        if won != 1:
            return 0
        game = Game.get_by_id(game_id)
        closes = game.created_at + dt.timedelta(days=close_days) if close_days > 0 else None
        mailer.lobby_reminder(game, rules(game).title, User.get_by_id(game.host_id), closes)
        return 1


def _close(mailer: Mailer, game_id: int, now: dt.datetime, days: int) -> int:
    with db.atomic():
        won = (
            Game.update(status="closed", closed_at=now)
            .where((Game.id == game_id) & (Game.status == "open"))
            .execute()
        )
        if won != 1:
            return 0
        game = Game.get_by_id(game_id)
        people = (
            User.select()
            .join(Seat, on=(Seat.user == User.id))
            .where(Seat.game == game_id)
            .order_by(Seat.index)
        )
        for person in people:
            mailer.lobby_closed(
                game, rules(game).title, person, days, is_host=person.id == game.host_id
            )
        return 1

"""What a move writes: its game row, its log row and the new snapshot.  On
PostgreSQL a move that does not end the game writes them in one statement
(services/move_store.py, MOVE_SAVED), elsewhere in three; both write the same
columns, which these tests read back on both databases."""

from __future__ import annotations

import datetime as dt

import pytest
from clock_helpers import started_game, to_move

from engine import get_game
from server.db import db
from server.models import Event, Game, Snapshot, utcnow
from server.services.moves import StaleMove, play
from server.services.state_store import load_state

RULES = get_game("puerto_rico")


def _move(app, game_id: int, now: dt.datetime, pick: int = 0):
    """The seat to move plays its ``pick``-th legal action; what the engine
    says the move makes: (seat, action, state after, its events as JSON)."""
    seat = to_move(app, game_id)
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        state = load_state(game, save=False)
        action = RULES.legal_actions(state, seat.index)[pick]
        after, events = RULES.apply(state, seat.index, action)
        play(
            game_id,
            seat.index,
            action,
            game.seq,
            "player",
            now,
            mailer=app.extensions["pbem_mailer"],
            user_id=seat.user_id,
        )
    return seat, action, after, [e.to_json() for e in events]


def test_a_move_writes_its_game_row_log_row_and_snapshot(app):
    game = started_game(app, players=2, tag="writes")
    for n in range(1, 4):
        now = utcnow().replace(microsecond=0) + dt.timedelta(minutes=n)
        seat, action, after, events = _move(app, game.id, now)
        with app.app_context(), db.connection_context():
            row = Game.get_by_id(game.id)
            assert (row.seq, row.status, row.finished_at, row.outcome) == (n, "active", None, None)
            assert row.to_move == RULES.to_move(after)
            assert row.prompt == RULES.prompt(after)[:250]
            logged = Event.get((Event.game == game.id) & (Event.seq == n))
            assert (logged.seat, logged.action, logged.actor, logged.user_id) == (
                seat.index,
                action,
                "player",
                seat.user_id,
            )
            assert (logged.events, logged.created_at) == (events, now)
            assert (logged.kind, logged.undone) == ("move", False)
            snap = Snapshot.get(Snapshot.game == game.id)
            assert (snap.seq, snap.state_version) == (n, RULES.state_version)
            assert snap.state == RULES.to_json(after)


def test_a_stale_move_writes_nothing(app):
    game = started_game(app, players=2, tag="stale")
    seat = to_move(app, game.id)
    with app.app_context(), db.connection_context():
        state = load_state(Game.get_by_id(game.id), save=False)
    first, second = RULES.legal_actions(state, seat.index)[:2]
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        play(game.id, seat.index, first, 0, "player", mailer=mailer)
        before = Snapshot.get(Snapshot.game == game.id).state
        with pytest.raises(StaleMove):
            play(game.id, seat.index, second, 0, "player", mailer=mailer, state=state)
        assert Game.get_by_id(game.id).seq == 1
        assert Event.select().where(Event.game == game.id).count() == 1
        assert Snapshot.get(Snapshot.game == game.id).state == before


def test_a_move_of_a_game_without_a_snapshot_stores_one(app):
    game = started_game(app, players=2, tag="nosnap")
    with app.app_context(), db.connection_context():
        Snapshot.delete().where(Snapshot.game == game.id).execute()
    _, _, after, _ = _move(app, game.id, utcnow())
    with app.app_context(), db.connection_context():
        snap = Snapshot.get(Snapshot.game == game.id)
        assert (snap.seq, snap.state) == (1, RULES.to_json(after))

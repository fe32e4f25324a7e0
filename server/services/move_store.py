"""Where a move is written: its game row (claimed at the seq the player saw),
its log row, the new snapshot, and the row of the seat that moved.

Two ways write the same columns: on PostgreSQL a move that does not end the
game writes its game row, log row and snapshot in one statement (each
statement costs the web worker and the database a round of their own);
elsewhere, and for the move that ends the game, in three.  The statements'
SQL is built once (server/db.py, Prepared).
"""

from __future__ import annotations

import datetime as dt

from peewee import SQL, Cast, PostgresqlDatabase, Select, Value, fn

from server.db import Prepared, db
from server.models import Event, Game, Seat, Snapshot
from server.services.clock import deadlines, seat_clock
from server.services.state_store import add_missing_snapshot, save_snapshot, snapshot_values


def save(game: Game, game_rules, expected_seq: int, changes: dict, logged: tuple, state) -> bool:
    """Write the move: ``changes`` to the game row, claimed at
    ``expected_seq``; its log row (``logged``: EVENT_ROW's values after the
    seq); the snapshot of ``state``.  False, and nothing written, when
    another move came first."""
    if changes["status"] != "finished" and isinstance(db.obj, PostgresqlDatabase):
        return _save_at_once(game, game_rules, expected_seq, changes, logged, state)
    return _save_in_steps(game, game_rules, expected_seq, changes, logged, state)


def seat_moved(game_id: int, index: int, seq: int, by_player: bool, turn_over: bool) -> int:
    """The row of the seat that moved, in one UPDATE: the seq it last moved
    at; a player who moved is back (their timeout count restarts and the
    moves played for them while away are seen); a seat whose turn is over
    has its clock stopped.  A seat that moves again keeps its clock: then
    the count of rows changed says whether that clock was running."""
    if by_player:
        return (PLAYER_TURN_OVER if turn_over else PLAYER_AGAIN).run(game_id, index, seq)
    mine = (Seat.game == game_id) & (Seat.index == index)
    if turn_over:
        return Seat.update(last_move_seq=seq, **seat_clock.TURN_OVER).where(mine).execute()
    return Seat.update(last_move_seq=seq).where(mine & Seat.deadline.is_null(False)).execute()


def seat_moved_again(game_id: int, index: int, seq: int, by_player: bool) -> None:
    """The seat that moved and moves again, its clock not running (a
    moderator acted for it): its row as seat_moved writes it; the caller
    starts its clock."""
    mine = (Seat.game == game_id) & (Seat.index == index)
    Seat.update(**_moved(seq, by_player)).where(mine).execute()


def game_over(game_id: int, index: int, seq: int, by_player: bool) -> None:
    """The seat that made the last move, and every seat's clock stopped."""
    mine = (Seat.game == game_id) & (Seat.index == index)
    Seat.update(**_moved(seq, by_player)).where(mine).execute()
    Seat.update(
        deadline=None, next_reminder_at=None, turn_started_at=None, claimed_until=None
    ).where(Seat.game == game_id).execute()


def _moved(seq: int, by_player: bool) -> dict:
    changes: dict[str, object] = {"last_move_seq": seq}
    if by_player:
        changes.update(deadlines.PLAYER_BACK, away_seen_seq=seq)
    return changes


def _save_in_steps(game: Game, game_rules, expected_seq: int, changes: dict, logged: tuple, state):
    if changes["status"] == "finished":
        claimed = (
            Game.update(**changes)
            .where((Game.id == game.id) & (Game.seq == expected_seq))
            .execute()
        )
    else:
        claimed = GAME_MOVED.run(
            game.id, expected_seq, changes["seq"], changes["to_move"], changes["prompt"]
        )
    if claimed != 1:
        return False
    EVENT_ROW.run(game.id, changes["seq"], *logged)
    save_snapshot(game, game_rules, state, changes["seq"])
    return True


def _save_at_once(game: Game, game_rules, expected_seq: int, changes: dict, logged: tuple, state):
    snapshot = snapshot_values(game_rules, state, changes["seq"])
    claimed, snapped = MOVE_SAVED.first(
        game.id,
        expected_seq,
        changes["seq"],
        changes["to_move"],
        changes["prompt"],
        *logged,
        snapshot["state_version"],
        snapshot["state"],
        snapshot["updated_at"],
    )
    if claimed != 1:
        return False
    if not snapped:
        add_missing_snapshot(game.id, snapshot)
    return True


def _move_saved(
    game_id, expected, seq, to_move, prompt, seat, action, actor, user_id, events, at,
    state_version, state, updated_at,
):  # fmt: skip
    """MOVE_SAVED's query: GAME_MOVED's UPDATE, EVENT_ROW's INSERT (the
    model's defaults spelled out: an INSERT from a SELECT gets none) for the
    game row it claimed, and SNAPSHOT_SAVED's UPDATE for that game, as
    data-modifying WITH queries; it answers how many game rows were claimed
    (1, or 0: another move came first) and snapshots updated."""
    moved = (
        Game.update(
            seq=seq, to_move=to_move, prompt=prompt, status="active", finished_at=None, outcome=None
        )
        .where((Game.id == game_id) & (Game.seq == expected))
        .returning(Game.id)
        .cte("moved")
    )
    row = (
        moved.c.id,
        Value(seq),
        Cast(Value(seat), "integer"),  # typed: a parameter in a SELECT list is text
        Value(action, converter=Event.action.db_value),
        Value(actor),
        Cast(Value(user_id), "integer"),
        Value(events, converter=Event.events.db_value),
        Value(at),
        Value("move"),
        Value(False),
    )
    columns = [Event.game, Event.seq, Event.seat, Event.action, Event.actor, Event.user]
    columns += [Event.events, Event.created_at, Event.kind, Event.undone]
    logged = (
        Event.insert_from(Select((moved,), row), fields=columns).returning(Event.id).cte("logged")
    )
    snapped = (
        Snapshot.update(seq=seq, state_version=state_version, state=state, updated_at=updated_at)
        .where(Snapshot.game.in_(Select((moved,), (moved.c.id,))) & (Snapshot.seq <= seq))
        .returning(Snapshot.game)
        .cte("snapped")
    )
    counted = [Select((cte,), (fn.COUNT(SQL("*")),)) for cte in (moved, snapped)]
    return Select(columns=counted).with_cte(moved, logged, snapped).bind(db).tuples()


MOVE_SAVED = Prepared(
    _move_saved,
    kinds=(int, int, int, Game.to_move, str)
    + (Event.seat, Event.action, str, Event.user, Event.events, dt.datetime)
    + (int, Snapshot.state, dt.datetime),
)
GAME_MOVED = Prepared(
    lambda game_id, expected, seq, to_move, prompt: Game.update(
        seq=seq, to_move=to_move, prompt=prompt, status="active", finished_at=None, outcome=None
    ).where((Game.id == game_id) & (Game.seq == expected)),
    kinds=(int, int, int, Game.to_move, str),
)
EVENT_ROW = Prepared(
    lambda game_id, seq, seat, action, actor, user_id, events, at: Event.insert(
        game=game_id,
        seq=seq,
        seat=seat,
        action=action,
        actor=actor,
        user=user_id,
        events=events,
        created_at=at,
    ),
    kinds=(int, int, Event.seat, Event.action, str, Event.user, Event.events, dt.datetime),
)
PLAYER_TURN_OVER = Prepared(
    lambda game_id, index, seq: Seat.update(
        last_move_seq=seq, **deadlines.PLAYER_BACK, away_seen_seq=seq, **seat_clock.TURN_OVER
    ).where((Seat.game == game_id) & (Seat.index == index))
)
PLAYER_AGAIN = Prepared(
    lambda game_id, index, seq: Seat.update(
        last_move_seq=seq, **deadlines.PLAYER_BACK, away_seen_seq=seq
    ).where((Seat.game == game_id) & (Seat.index == index) & Seat.deadline.is_null(False))
)

"""Loading a game's state: the snapshot when it is current, else a replay of
the event log from the seed (the log is the truth, the snapshot a cache)."""

from __future__ import annotations

import datetime as dt

from peewee import JOIN

from engine import Rules, get_game
from server.db import Prepared
from server.models import Event, Game, Snapshot, utcnow

UNREAD = object()  # load_state: the snapshot was not read with the game


def rules(game: Game) -> Rules:
    return get_game(game.kind)


def load_state(game: Game, save: bool = True):
    """The state at ``game.seq``, the position the caller checked the move
    against: a snapshot or log rows another move committed since the game
    row was read are not used (PostgreSQL reads each statement's own
    committed data).  ``save=False`` for pages: a GET never writes, not even
    the cache."""
    game_rules = rules(game)
    snap = getattr(game, "snap", UNREAD)
    if snap is UNREAD:
        snap = Snapshot.get_or_none(Snapshot.game == game.id)
    if snap is not None and snap.seq == game.seq and snap.state_version == game_rules.state_version:
        return game_rules.from_json(snap.state)
    state = replay(game, upto=game.seq)
    if save:
        save_snapshot(game, game_rules, state, game.seq)
    return state


GAME_WITH_SNAPSHOT = Prepared(
    lambda game_id: (
        Game.select(Game, Snapshot)
        .join(Snapshot, JOIN.LEFT_OUTER, on=(Snapshot.game == Game.id), attr="snap")
        .where(Game.id == game_id)
        .limit(1)
    )
)


def game_with_snapshot(game_id: int) -> Game | None:
    """The game row with its snapshot (``game.snap``, None if there is none)
    in one statement, so both come from the same moment: load_state then
    uses it without reading again."""
    game = GAME_WITH_SNAPSHOT.first(game_id)
    if game is not None:
        game.snap = getattr(game, "snap", None)
    return game


def forget_snapshot(game: Game) -> None:
    """The snapshot read with ``game`` is out of date (a move was saved):
    load_state reads again."""
    vars(game).pop("snap", None)


def replay(game: Game, upto: int | None = None):
    """The state after the log rows up to seq ``upto`` (all by default), from
    the log alone: moves in order, skipping undone moves and notes."""
    game_rules = rules(game)
    state = game_rules.new_game(game.seat_count, game.options, game.seed)
    query = (
        Event.select(Event.seat, Event.action)
        .where((Event.game == game.id) & (Event.kind == "move") & (Event.undone == False))  # noqa: E712 (SQL, not Python)
        .order_by(Event.seq)
    )
    if upto is not None:
        query = query.where(Event.seq <= upto)
    for row in query:
        if row.seat is None:
            raise ValueError(f"a move of game {game.id} has no seat")
        state, _ = game_rules.apply(state, row.seat, row.action)
    return state


SNAPSHOT_SAVED = Prepared(
    lambda game_id, seq, version, state, at: Snapshot.update(
        seq=seq, state_version=version, state=state, updated_at=at
    ).where((Snapshot.game == game_id) & (Snapshot.seq <= seq)),
    kinds=(int, int, int, Snapshot.state, dt.datetime),
)


def snapshot_values(game_rules: Rules, state, seq: int) -> dict:
    """A snapshot row's columns for the state at ``seq`` (all but the game)."""
    return {
        "seq": seq,
        "state_version": game_rules.state_version,
        "state": game_rules.to_json(state),
        "updated_at": utcnow(),
    }


def save_snapshot(game: Game, game_rules: Rules, state, seq: int) -> None:
    """Store the state at ``seq``, unless a newer one is stored already."""
    values = snapshot_values(game_rules, state, seq)
    if not SNAPSHOT_SAVED.run(game.id, *values.values()):
        add_missing_snapshot(game.id, values)


def add_missing_snapshot(game_id: int, values: dict) -> None:
    """After an UPDATE of the snapshot that changed no row: the game has no
    snapshot yet (else a newer one is stored, which stays)."""
    if not Snapshot.select().where(Snapshot.game == game_id).exists():
        Snapshot.insert(game=game_id, **values).execute()

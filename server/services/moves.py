"""Applying an action to a game: the one function the web pages, the scheduler
(timeouts) and moderators all call.

A move, its log row, the new snapshot, the seats' deadlines and the mails it
causes commit in one transaction, or none of it does.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from peewee import SQL, Cast, PostgresqlDatabase, Select, Value, fn

from engine import IllegalMove
from engine.words import N_
from server.db import Prepared, db
from server.mail.compose import Mailer
from server.models import Event, Game, Seat, Snapshot, User, utcnow
from server.notify import notices
from server.services import metrics, ratings, reply_menu
from server.services.clock import deadlines, while_away
from server.services.seat_views import (
    board,
    log_lines,
    names_of,
    outcome_reason,
    outcome_rows,
    result_names,
    seat_names,
    seats_with_users,
    unseen_talk,
)
from server.services.state_store import (
    add_missing_snapshot,
    forget_snapshot,
    game_with_snapshot,
    load_state,
    rules,
    save_snapshot,
    snapshot_values,
)

ACTORS = ("player", "timeout", "moderator", "bot")
SUMMARY_LINES = 40


class MoveRejected(Exception):
    """The action was not applied; the message is for the player."""

    status = 409


class StaleMove(MoveRejected):
    """The form was made against an older position (second tab, old mail)."""


class NotFound(MoveRejected):
    status = 404


@dataclass(frozen=True)
class Played:
    seq: int
    next_seat: int | None
    over: bool
    state: object = None  # the engine state after the move


def canonical(action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def find_legal(kind, state, seat: int, action) -> dict:
    """The engine's own legal action equal to ``action``; IllegalMove if none."""
    wanted = canonical(action)
    for legal in kind.legal_actions(state, seat):
        if canonical(legal) == wanted:
            return legal
    raise IllegalMove(N_("That move is not one of the moves you may make now."))


def play(
    game_id: int,
    seat: int,
    action,
    expected_seq: int,
    actor: str = "player",
    now: dt.datetime | None = None,
    *,
    mailer: Mailer,
    user_id: int | None = None,
    notify: bool = True,
    state=None,
) -> Played:
    """Apply one action.  ``notify=False``: the caller mails once for a chain
    of actions (a timeout that plays a seat's whole turn); ``state``: the
    state at ``expected_seq`` when the caller has it from the same
    transaction (the previous move of such a chain), so it is not read again."""
    if actor not in ACTORS:
        raise ValueError(f"unknown actor {actor!r}")
    now = now or utcnow()
    with db.atomic():
        game = _check_turn(game_with_snapshot(game_id), seat, expected_seq, actor)
        kind = rules(game)
        state = state if state is not None else load_state(game)
        legal = find_legal(kind, state, seat, action)
        new_state, events = kind.apply(state, seat, legal)
        seq = expected_seq + 1
        next_seat = kind.to_move(new_state)
        over = next_seat is None
        outcome = kind.outcome(new_state) if over else None
        changes = {
            "seq": seq,
            "to_move": next_seat,
            "prompt": "" if over else kind.prompt(new_state)[:250],
            "status": "finished" if over else "active",
            "finished_at": now if over else None,
            "outcome": outcome.to_json() if outcome else None,
        }
        logged = (seat, legal, actor, user_id, [e.to_json() for e in events], now)
        if not over and isinstance(db.obj, PostgresqlDatabase):
            _save_move_at_once(game, kind, expected_seq, changes, logged, new_state)
        else:
            _save_move(game, kind, expected_seq, changes, logged, new_state)
        metrics.count_move(actor)
        forget_snapshot(game)
        for name, value in changes.items():
            setattr(game, name, value)
        if over:
            ratings.game_ended(game, now)  # with the end, or not at all
        _after_move(game, seat, actor, now, mailer, notify, new_state)
    return Played(seq, next_seat, over, new_state)


def _save_move(game: Game, kind, expected_seq: int, changes: dict, logged: tuple, state):
    """The move's game row, claimed at ``expected_seq`` (StaleMove if another
    move came first), its log row (``logged``: EVENT_ROW's values after the
    seq) and the snapshot of ``state``."""
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
        raise StaleMove(N_("The game has moved on since this page was made."))
    EVENT_ROW.run(game.id, changes["seq"], *logged)
    save_snapshot(game, kind, state, changes["seq"])


def _save_move_at_once(game: Game, kind, expected_seq: int, changes: dict, logged: tuple, state):
    """On PostgreSQL, a move that does not end the game writes its game row,
    log row and snapshot in one statement (MOVE_SAVED), not three: each
    statement costs the web worker and the database a round of their own.
    What it writes is what _save_move writes."""
    snapshot = snapshot_values(kind, state, changes["seq"])
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
        raise StaleMove(N_("The game has moved on since this page was made."))
    if not snapped:
        add_missing_snapshot(game.id, snapshot)


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


def _check_turn(game: Game | None, seat: int, expected_seq: int, actor: str) -> Game:
    if game is None:
        raise NotFound(N_("There is no such game."))
    if game.status == "finished":
        raise StaleMove(N_("This game is over."))
    if game.status != "active":
        raise MoveRejected(N_("This game has not started yet."))
    if game.paused and actor != "moderator":
        raise MoveRejected(N_("This game is paused."))
    if game.seq != expected_seq:
        raise StaleMove(N_("The game has moved on since this page was made."))
    if game.to_move != seat:
        raise MoveRejected(N_("It is not your turn."))
    return game


def _after_move(
    game: Game,
    seat: int,
    actor: str,
    now: dt.datetime,
    mailer: Mailer,
    notify: bool = True,
    state=None,
) -> None:
    """Clocks and mails that follow a move.  The seat that moved changes in
    one UPDATE (bench/server_move_roundtrip.py counts the statements)."""
    mine = (Seat.game == game.id) & (Seat.index == seat)
    changes: dict[str, object] = {"last_move_seq": game.seq}
    player = actor == "player"
    if player:
        # They are back: the timeout count restarts and the list of moves
        # played for them while away is done (services/clock/while_away.py).
        changes.update(deadlines.PLAYER_BACK, away_seen_seq=game.seq)
    if game.status == "finished":
        Seat.update(**changes).where(mine).execute()
        Seat.update(
            deadline=None, next_reminder_at=None, turn_started_at=None, claimed_until=None
        ).where(Seat.game == game.id).execute()
        if notify:
            notify_final(game, mailer)
    elif game.to_move != seat:
        if player:
            PLAYER_TURN_OVER.run(game.id, seat, game.seq)
        else:
            Seat.update(**changes, **deadlines.TURN_OVER).where(mine).execute()
        if notify:
            notify_turn(game, now, mailer, state=state)
    elif not (
        PLAYER_AGAIN.run(game.id, seat, game.seq)
        if player
        else Seat.update(**changes).where(mine & Seat.deadline.is_null(False)).execute()
    ):
        # Same seat again, but its clock was not running (e.g. a moderator
        # acted for it): start one.  Otherwise one clock covers the whole
        # turn, however many decisions the rules ask of the seat in a row,
        # and the UPDATE above was the only statement.
        Seat.update(**changes).where(mine).execute()
        deadlines.start_turn(game, Seat.get(mine), now)


# A move's writes, their SQL built once (server/db.py): the game row of a
# move that does not end the game, the log row, and the seat of a player
# who moved (their turn over, or the same seat again with its clock running).
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
        last_move_seq=seq, **deadlines.PLAYER_BACK, away_seen_seq=seq, **deadlines.TURN_OVER
    ).where((Seat.game == game_id) & (Seat.index == index))
)
PLAYER_AGAIN = Prepared(
    lambda game_id, index, seq: Seat.update(
        last_move_seq=seq, **deadlines.PLAYER_BACK, away_seen_seq=seq
    ).where((Seat.game == game_id) & (Seat.index == index) & Seat.deadline.is_null(False))
)


def notify_turn(
    game: Game, now: dt.datetime, mailer: Mailer, names: list[str] | None = None, state=None
) -> None:
    """Start the clock of the seat to move and mail it (unless it reads a
    digest).  ``names`` and ``state``: when the caller has them."""
    # Every seat with its user in one statement: the one to move, and the names.
    if game.to_move is None:
        raise ValueError(f"game {game.id} has nobody to move")
    seats = seats_with_users(game)
    seat = seats[game.to_move]
    deadlines.start_turn(game, seat, now)
    if seat.bot or seat.absent or seat.withdrawn:
        return
    if seat.user.mail_mode == "digest":  # no turn mail; the chat channels still hear of it
        if not notices.any_for(game.id, seat.user_id):
            return
        state = state if state is not None else load_state(game, save=False)
        template, values = rules(game).prompt_message(state)
        mailer.turn_notices(
            game,
            seat,
            mailer.words(seat.user, template, **values),
            deadlines.local_text(seat.deadline, seat.user.timezone, seat.user.language),
        )
        return
    names, language = names or names_of(seats), seat.user.language
    summary = [
        line.text
        for line in log_lines(game, seat.index, names, after=seat.last_move_seq, language=language)
    ]
    state = state if state is not None else load_state(game, save=False)
    menu = reply_menu.menu(mailer.settings, game, seat, state=state)
    # The board as this seat sees it: tables in the HTML part (mail clients
    # show no inline SVG), rows in the text part, which stands on its own.
    sections = [
        {"title": s.title, "rows": list(s.rows)}
        for s in board(game, state, seat.index, names, language)
    ]
    template, values = rules(game).prompt_message(state)
    prompt = mailer.game_words(seat.user, rules(game), template, values)  # the player's language
    mailer.turn(
        game,
        rules(game).title,
        seat,
        prompt,
        summary[-SUMMARY_LINES:],
        deadlines.local_text(seat.deadline, seat.user.timezone, language),
        menu.context() if menu else None,
        unseen_talk(game, seat, names),
        away=[vars(p) for p in while_away.played_for(game, seat, names, language)],
        board=sections,
    )


def notify_final(game: Game, mailer: Mailer) -> None:
    notices.announce_result(mailer, game)
    names = seat_names(game)
    seats = Seat.select(Seat, User).join(User).where(Seat.game == game.id)
    for seat in seats:
        language = seat.user.language
        mailer.final(
            game,
            rules(game).title,
            seat,
            outcome_rows(game, result_names(game, names, language), language),
            outcome_reason(game, language),
        )

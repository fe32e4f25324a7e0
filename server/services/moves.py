"""Applying an action to a game: the one function the web pages, the scheduler
(timeouts) and moderators all call.

A move reads: check the turn, apply the rules, store it (services/move_store.py),
then the seats' clocks and who hears of it (services/move_news.py).  All of it
commits in one transaction, or none of it does.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from engine import IllegalMove
from engine.words import N_
from server.db import db
from server.mail.compose import Mailer
from server.models import Game, Seat, utcnow
from server.services import metrics, move_news, move_store, ratings
from server.services.clock import seat_clock
from server.services.state_store import forget_snapshot, game_with_snapshot, load_state, rules

ACTORS = ("player", "timeout", "moderator", "bot")


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


def find_legal(game_rules, state, seat: int, action) -> dict:
    """The engine's own legal action equal to ``action``; IllegalMove if none."""
    wanted = canonical(action)
    for legal in game_rules.legal_actions(state, seat):
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
    game: Game | None = None,
) -> Played:
    """Apply one action.  ``notify=False``: the caller mails once for a chain
    of actions (a timeout that plays a seat's whole turn); ``state``: the
    state at ``expected_seq`` when the caller has it from the same
    transaction (the previous move of such a chain), so it is not read again;
    ``game``: likewise the game row, read locked in the caller's transaction
    (play changes it as it changes the row)."""
    if actor not in ACTORS:
        raise ValueError(f"unknown actor {actor!r}")
    now = now or utcnow()
    with db.atomic():
        game = game if game is not None else game_with_snapshot(game_id)
        game = _check_turn(game, seat, expected_seq, actor)
        game_rules = rules(game)
        state = state if state is not None else load_state(game)
        legal = find_legal(game_rules, state, seat, action)
        new_state, events = game_rules.apply(state, seat, legal)
        changes = _game_changes(game_rules, new_state, expected_seq + 1, now)
        logged = (seat, legal, actor, user_id, [e.to_json() for e in events], now)
        if not move_store.save(game, game_rules, expected_seq, changes, logged, new_state):
            raise StaleMove(N_("The game has moved on since this page was made."))
        metrics.count_move(actor)
        forget_snapshot(game)
        for name, value in changes.items():
            setattr(game, name, value)
        if game.status == "finished":
            ratings.game_ended(game, now)  # with the end, or not at all
        _after_move(game, seat, actor, now, mailer, notify, new_state)
    return Played(game.seq, game.to_move, game.status == "finished", new_state)


def _game_changes(game_rules, state, seq: int, now: dt.datetime) -> dict:
    """The game row after the move that led to ``state``."""
    next_seat = game_rules.to_move(state)
    over = next_seat is None
    outcome = game_rules.outcome(state) if over else None
    return {
        "seq": seq,
        "to_move": next_seat,
        "prompt": "" if over else game_rules.prompt(state)[:250],
        "status": "finished" if over else "active",
        "finished_at": now if over else None,
        "outcome": outcome.to_json() if outcome else None,
    }


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
    player = actor == "player"
    if game.status == "finished":
        move_store.game_over(game.id, seat, game.seq, player)
        if notify:
            move_news.result(game, mailer)
    elif game.to_move != seat:
        move_store.seat_moved(game.id, seat, game.seq, player, turn_over=True)
        if notify:
            move_news.next_turn(game, now, mailer, state=state)
    elif not move_store.seat_moved(game.id, seat, game.seq, player, turn_over=False):
        # Same seat again, but its clock was not running (e.g. a moderator
        # acted for it): start one.  Otherwise one clock covers the whole
        # turn, however many decisions the rules ask of the seat in a row,
        # and the UPDATE above was the only statement.
        move_store.seat_moved_again(game.id, seat, game.seq, player)
        mine = (Seat.game == game.id) & (Seat.index == seat)
        seat_clock.start_turn(game, Seat.get(mine), now)

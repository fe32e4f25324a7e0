"""Helpers for the clock tests: games made through the services, sweeps run
at any time we like (the scheduler's functions take ``now``)."""

from __future__ import annotations

import datetime as dt
import random
import threading

from web_helpers import csrf
from werkzeug.security import generate_password_hash

from engine import get_game
from server.db import db
from server.models import Event, Game, Outbox, Seat, User, utcnow
from server.services import games
from server.services.clock.sweep import sweep
from server.services.moves import play
from server.services.outbox import deliver as drain_outbox
from server.services.state_store import load_state

HOUR = dt.timedelta(hours=1)


def user(email: str, name: str | None = None, **fields) -> User:
    """An account whose owner has confirmed the address."""
    fields.setdefault("email_verified_at", utcnow())
    return User.create(
        email=email,
        name=name or email.split("@")[0],
        password_hash=generate_password_hash("password1"),
        **fields,
    )


def sign_in(app, email: str):
    """A test client signed in as ``email`` (made by ``user``: password1)."""
    client = app.test_client()
    page = client.get("/login")
    client.post(
        "/login", data={"csrf_token": csrf(page.text), "email": email, "password": "password1"}
    )
    return client


def started_game(
    app,
    players: int = 3,
    kind: str = "puerto_rico",
    move_hours: int = 48,
    reminders=(24, 6),
    tag: str = "g",
) -> Game:
    """A started game whose seats are users ``{tag}{i}@example.org``."""
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        people = [user(f"{tag}{i}@example.org", f"{tag.upper()} {i + 1}") for i in range(players)]
        game = games.create_game(
            people[0], kind, f"Game {tag}", players, {}, move_hours, list(reminders), mailer
        )
        for i, person in enumerate(people[1:], start=1):
            games.join(game.id, person, i)
        return games.start(game.id, people[0], mailer)


def run_sweep(app, now: dt.datetime, deliver: bool = True):
    """One sweep at ``now``.  ``deliver``: first the sender drains the outbox
    (at the real time), as it does beside a running scheduler: a seat whose
    turn mail never went out is not timed out, and a reminder warns only
    once delivered.  The sender drains in batches (SENDER_BATCH)
    until nothing is due, as a running sender does."""
    with app.app_context(), db.connection_context():
        while deliver and drain_outbox(app.config)["sent"]:
            pass
        return sweep(app.config, app.extensions["pbem_mailer"], now)


def sweeps_at_once(app, now: dt.datetime, count: int = 2) -> list:
    """``count`` sweeps at ``now`` started together on threads, as schedulers
    running side by side; their reports (an error in one fails the test)."""
    reports, errors = [], []
    barrier = threading.Barrier(count)

    def worker():
        try:
            barrier.wait()
            reports.append(run_sweep(app, now))
        except Exception as exc:  # re-raised below, with the others
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return reports


def sweep_past_deadline(app, game_id: int, after: dt.timedelta = HOUR):
    """What a scheduler that kept running does: it reminds the seat to move
    before its deadline (a minute before, the latest any reminder is due),
    then sweeps ``after`` the deadline.  Returns the second sweep's report."""
    deadline = to_move(app, game_id).deadline
    run_sweep(app, deadline - dt.timedelta(minutes=1))
    return run_sweep(app, deadline + after)


def to_move(app, game_id: int) -> Seat:
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        return (
            Seat.select(Seat, User)
            .join(User)
            .where((Seat.game == game_id) & (Seat.index == game.to_move))
            .get()
        )


def game_row(app, game_id: int) -> Game:
    with app.app_context(), db.connection_context():
        return Game.get_by_id(game_id)


def engine_state(app, game_id: int):
    with app.app_context(), db.connection_context():
        return load_state(Game.get_by_id(game_id), save=False)


def random_move(app, game_id: int, rnd: random.Random, now: dt.datetime | None = None) -> None:
    """The seat to move plays a random legal action, as a player."""
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        kind = get_game(game.kind)
        state = load_state(game)
        action = rnd.choice(kind.legal_actions(state, game.to_move))
        play(
            game_id,
            game.to_move,
            action,
            game.seq,
            "player",
            now,
            mailer=app.extensions["pbem_mailer"],
        )


def events(app, game_id: int, actor: str | None = None) -> list[Event]:
    with app.app_context(), db.connection_context():
        q = Event.select().where(Event.game == game_id).order_by(Event.seq)
        if actor:
            q = q.where(Event.actor == actor)
        return list(q)


def outbox(app, kind: str, to: str | None = None) -> list[Outbox]:
    with app.app_context(), db.connection_context():
        q = Outbox.select().where(Outbox.kind == kind).order_by(Outbox.id)
        if to:
            q = q.where(Outbox.to_addr == to)
        return list(q)

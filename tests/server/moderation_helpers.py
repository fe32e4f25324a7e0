"""Helpers for the moderation tests: a site moderator made with the real CLI
command, moderation forms read from the page and posted back, and a look at
the rows a moderation action must leave behind."""

from __future__ import annotations

import datetime as dt

from web_helpers import form_for, post_form, signup

from server.db import db
from server.models import Event, Game, Outbox, Seat, Snapshot, User, utcnow
from server.services.clock.sweep import sweep
from server.services.outbox import deliver as drain_outbox
from server.services.state_store import load_state, rules

HOUR = dt.timedelta(hours=1)
ACTIONS = ("extend", "default", "pause", "resume", "replace", "remove", "undo", "abandon")


def make_moderator(app, email: str, revoke: bool = False):
    args = ["pbem", "make-moderator", email] + (["--revoke"] if revoke else [])
    return app.test_cli_runner().invoke(args=args)


def site_moderator(app, email: str = "mod@example.org", name: str = "Mo"):
    client = app.test_client()
    signup(client, name, email)
    result = make_moderator(app, email)
    assert result.exit_code == 0, result.output
    return client


def moderation_page(client, game_id: int):
    page = client.get(f"/moderation/games/{game_id}")
    assert page.status_code == 200, page.text
    return page


def moderate(client, game_id: int, action: str, **values):
    """Fill and post one action's form from the moderation page."""
    page = moderation_page(client, game_id)
    form = form_for(page.text, f"/moderation/games/{game_id}/{action}")
    return post_form(client, form, **{f"{action}-{k}": v for k, v in values.items()})


def in_db(app, fn):
    with app.app_context(), db.connection_context():
        return fn()


def game_row(app, game_id: int) -> Game:
    return in_db(app, lambda: Game.get_by_id(game_id))


def seat_row(app, game_id: int, index: int) -> Seat:
    return in_db(
        app,
        lambda: (
            Seat.select(Seat, User)
            .join(User)
            .where((Seat.game == game_id) & (Seat.index == index))
            .get()
        ),
    )


def notes(app, game_id: int) -> list[Event]:
    return in_db(
        app,
        lambda: list(
            Event.select()
            .where((Event.game == game_id) & (Event.kind == "note"))
            .order_by(Event.seq)
        ),
    )


def moves(app, game_id: int) -> list[Event]:
    return in_db(
        app,
        lambda: list(
            Event.select()
            .where((Event.game == game_id) & (Event.kind == "move"))
            .order_by(Event.seq)
        ),
    )


def state_json(app, game_id: int, cached: bool = True) -> dict:
    """The game's full state (hidden parts too), from the snapshot or a replay."""

    def read():
        game = Game.get_by_id(game_id)
        if not cached:
            Snapshot.delete().where(Snapshot.game == game_id).execute()
        return rules(game).to_json(load_state(game, save=False))

    return in_db(app, read)


def outbox(app, kind: str, to: str | None = None) -> list[Outbox]:
    def read():
        q = Outbox.select().where(Outbox.kind == kind).order_by(Outbox.id)
        return list(q.where(Outbox.to_addr == to) if to else q)

    return in_db(app, read)


def run_sweep(app, now: dt.datetime, deliver: bool = True):
    """A sweep at ``now``, after the sender drained the outbox (at the real
    time), as beside a running sender: see clock_helpers.run_sweep."""
    if deliver:
        in_db(app, lambda: drain_outbox(app.config))
    return in_db(app, lambda: sweep(app.config, app.extensions["pbem_mailer"], now))


def turn_mails(table, email: str) -> list:
    return [m for m in table.new_mail(email) if "It is your turn in" in _text(m)]


def _text(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def backdate(app, game_id: int, delta: dt.timedelta) -> None:
    """Pretend everything in the game happened ``delta`` earlier."""

    def shift():
        game = Game.get_by_id(game_id)
        Game.update(started_at=game.started_at - delta).where(Game.id == game_id).execute()
        for event in Event.select().where(Event.game == game_id):
            Event.update(created_at=event.created_at - delta).where(Event.id == event.id).execute()
        for seat in Seat.select().where((Seat.game == game_id) & Seat.deadline.is_null(False)):
            Seat.update(deadline=seat.deadline - delta).where(Seat.id == seat.id).execute()

    in_db(app, shift)


def service_game(app, tag: str, players: int = 3, move_hours: int = 48) -> int:
    """A started game made through the services; its seats are the users
    ``{tag}{i}@example.org`` (password "password1"), the first one hosts."""
    from werkzeug.security import generate_password_hash

    from server.services import games

    mailer = app.extensions["pbem_mailer"]

    def make():
        people = [
            User.create(
                email=f"{tag}{i}@example.org",
                name=f"{tag.title()} {i + 1}",
                password_hash=generate_password_hash("password1"),
                email_verified_at=utcnow(),
            )
            for i in range(players)
        ]
        game = games.create_game(
            people[0], "puerto_rico", f"Game {tag}", players, {}, move_hours, [24], mailer
        )
        for i, person in enumerate(people[1:], start=1):
            games.join(game.id, person, i)
        return games.start(game.id, people[0], mailer).id

    return in_db(app, make)


def random_moves(app, game_id: int, count: int, rnd) -> list[tuple[int, dict]]:
    """The seats to move play ``count`` random legal actions; returns them."""
    from server.services.moves import play

    def one():
        game = Game.get_by_id(game_id)
        kind = rules(game)
        action = rnd.choice(kind.legal_actions(load_state(game), game.to_move))
        play(
            game_id, game.to_move, action, game.seq, "player", mailer=app.extensions["pbem_mailer"]
        )
        return game.to_move, action

    return [in_db(app, one) for _ in range(count)]

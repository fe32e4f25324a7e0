"""The game page's seats (with their users) and its game row (with
its snapshot) are read as plain rows and made into models by
services/model_rows.py; they are the models peewee makes of the same
select: the same values, nothing marked changed, the same relations
loaded (a bot's seat has no user).  SQLite and PostgreSQL."""

from __future__ import annotations

from clock_helpers import started_game
from peewee import JOIN

from server.db import db
from server.models import Game, Seat, Snapshot, User, utcnow
from server.services import games, model_rows
from server.services.what_a_seat_sees import seats_with_users
from server.web.play import page_game


def as_peewee_makes_it(model):
    """What a model instance holds, its relations' too."""
    if model is None:
        return None
    related = {name: as_peewee_makes_it(value) for name, value in model.__rel__.items()}
    return (type(model), model.__data__, model._dirty, related)


def peewee_seats(game_id: int) -> list[Seat]:
    return list(
        Seat.select(Seat, User)
        .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
        .where(Seat.game == game_id)
        .order_by(Seat.index)
    )


def peewee_game(game_id: int) -> Game:
    return (
        Game.select(Game, Snapshot)
        .join(Snapshot, JOIN.LEFT_OUTER, on=(Snapshot.game == Game.id), attr="snap")
        .where(Game.id == game_id)
        .get()
    )


def test_seats_and_game_are_the_models_peewee_makes(app):
    played = started_game(app, players=3, tag="mr")
    with app.app_context(), db.connection_context():
        host = User.get_by_id(played.host_id)
        practice = games.create_practice(
            host, "puerto_rico", "Solo", 3, {}, "random", 24, app.extensions["pbem_mailer"]
        )
        lobby = games.create_game(
            host, "puerto_rico", "Lobby", 2, {}, 48, [24, 6], app.extensions["pbem_mailer"]
        )  # no snapshot yet, an empty seat
        for game in (played, practice, lobby):
            made = seats_with_users(game)
            assert [as_peewee_makes_it(s) for s in made] == [
                as_peewee_makes_it(s) for s in peewee_seats(game.id)
            ]
            found, _, _ = page_game(game.id, "", utcnow())
            expected = peewee_game(game.id)
            assert as_peewee_makes_it(found) == as_peewee_makes_it(expected)
            assert as_peewee_makes_it(found.snap) == as_peewee_makes_it(expected.snap)
        assert any(s.user is None for s in seats_with_users(practice))
        assert page_game(lobby.id, "", utcnow())[0].snap is None


def test_a_missing_row_of_an_outer_join_is_told_by_its_primary_key():
    """made_or_none reads the first column as the primary key."""
    for model in (Game, Snapshot, Seat, User):
        assert model_rows.field_names(model)[0] == model._meta.primary_key.name


def test_a_seat_links_seat_is_the_model_peewee_makes(app):
    """The seat a link names, read with whether the session lives
    (web/seat_access.py), is made the same way."""
    from server.web import browser_session, seat_access

    played = started_game(app, players=2, tag="ml")
    links = app.extensions["pbem_mailer"].links
    with app.test_request_context(), db.connection_context():
        for expected in peewee_seats(played.id):
            [found] = seat_access.seat_and_session(links.seat_token(expected))
            assert as_peewee_makes_it(found) == as_peewee_makes_it(expected)
            assert browser_session.is_alive() is False  # this request has no session

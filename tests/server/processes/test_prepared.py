"""server.db.Prepared: a SELECT whose SQL is built once.  It must give the
same rows as the query it stands for, with joined models, on both databases."""

from __future__ import annotations

import pytest
from clock_helpers import started_game
from peewee import JOIN

from server.db import Prepared, db
from server.models import Seat, Snapshot, User
from server.services import games as lobby
from server.services.state_store import game_with_snapshot
from server.services.what_a_seat_sees import seats_with_users


def test_the_same_rows_as_the_query_it_stands_for(app):
    games = [started_game(app, players=n, tag=f"p{n}") for n in (2, 3)]
    with app.app_context(), db.connection_context():
        for game in games:
            plain = list(
                Seat.select(Seat, User)
                .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
                .where(Seat.game == game.id)
                .order_by(Seat.index)
            )
            prepared = seats_with_users(game)
            assert [(s.id, s.index, s.user.email) for s in prepared] == [
                (s.id, s.index, s.user.email) for s in plain
            ]
            row = game_with_snapshot(game.id)
            assert row.seq == game.seq and row.snap.seq == Snapshot.get_by_id(game.id).seq
        assert game_with_snapshot(10**9) is None


def test_a_game_without_a_snapshot_has_none(app):
    with app.app_context(), db.connection_context():
        host = User.create(email="h@example.org", name="H", password_hash="-")
        game = lobby.create_game(
            host, "puerto_rico", "Lobby", 2, {}, 48, [24, 6], app.extensions["pbem_mailer"]
        )
        assert game_with_snapshot(game.id).snap is None


def test_the_sql_is_built_once_per_kind_of_database(app):
    built = []

    def build(user_id):
        built.append(user_id)
        return User.select().where(User.id == user_id)

    query = Prepared(build)
    with app.app_context(), db.connection_context():
        ids = [
            User.create(email=f"u{i}@example.org", name=f"U{i}", password_hash="-").id
            for i in range(3)
        ]
        assert [query.first(i).email for i in ids] == [f"u{i}@example.org" for i in range(3)]
        assert query.first(max(ids) + 1) is None
    assert len(built) == 1


def test_a_parameter_that_is_no_value_in_the_sql_is_refused(app):
    query = Prepared(lambda user_id: User.select().where(User.id > 0))
    with app.app_context(), db.connection_context(), pytest.raises(ValueError):
        query.rows(1)


def test_text_times_and_lists_stand_in_too(app):
    import datetime as dt

    from server.models import Vacation

    by_name = Prepared(lambda name: User.select().where(User.name == name), kinds=(str,))
    ending = Prepared(
        lambda now, *ids: (
            Vacation.select()
            .where(Vacation.user.in_(ids) & (Vacation.ends_at > now))
            .order_by(Vacation.id)
        ),
        kinds=(dt.datetime,),
    )
    day = dt.datetime(2030, 1, 1)
    with app.app_context(), db.connection_context():
        users = [
            User.create(email=f"t{i}@example.org", name=f"T{i}", password_hash="-")
            for i in range(3)
        ]
        for user in users:
            Vacation.create(
                user=user.id, starts_at=day, ends_at=day + dt.timedelta(days=user.id % 3)
            )
        assert [u.id for u in by_name.rows("T1")] == [users[1].id]
        for ids in ([users[0].id], [u.id for u in users], [users[1].id, users[2].id]):
            plain = Vacation.select().where(Vacation.user.in_(ids) & (Vacation.ends_at > day))
            assert [v.id for v in ending.rows(day, *ids)] == [
                v.id for v in plain.order_by(Vacation.id)
            ]


def test_a_write_converts_its_values_as_the_columns_do(app):
    from server.models import Outbox

    rename = Prepared(
        lambda user_id, name: User.update(name=name).where(User.id == user_id), kinds=(int, str)
    )
    headers = Prepared(
        lambda row_id, value: Outbox.update(headers=value).where(Outbox.id == row_id),
        kinds=(int, Outbox.headers),
    )
    with app.app_context(), db.connection_context():
        user = User.create(email="w@example.org", name="W", password_hash="-")
        assert rename.run(user.id, "Wim") == 1 and rename.run(10**9, "x") == 0
        assert User.get_by_id(user.id).name == "Wim"
        row = Outbox.create(
            kind="turn",
            to_addr="w@example.org",
            subject="s",
            body_text="t",
            body_html="h",
            message_id="<w@x>",
            headers={},
        )
        assert headers.run(row.id, {"Reply-To": "a@b.example"}) == 1
        assert Outbox.get_by_id(row.id).headers == {"Reply-To": "a@b.example"}

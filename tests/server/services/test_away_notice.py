"""A vacation may start today (the player's today), moves
the deadline of a turn pending at once, and the other players see it on the
game page as soon as it is declared ("away 3–10 Dec", in the reader's
language); "I'm back" shows only to players who are away."""

from __future__ import annotations

import datetime as dt

from clock_helpers import run_sweep, sign_in, started_game, to_move
from web_helpers import form_for, post_form

from server.db import db
from server.models import User, Vacation, utcnow
from server.services.clock import deadlines


def test_a_vacation_from_today_moves_the_deadline_at_once(app):
    game = started_game(app, players=3, tag="t")
    seat = to_move(app, game.id)
    with app.app_context(), db.connection_context():
        User.update(timezone="Pacific/Kiritimati").where(User.id == seat.user_id).execute()
    # Today where the player lives (UTC+14): possibly tomorrow in UTC already.
    today = utcnow().replace(tzinfo=dt.UTC).astimezone(deadlines.zone("Pacific/Kiritimati")).date()
    client = sign_in(app, seat.user.email)
    page = client.get("/settings")
    assert "/back" not in page.text  # not away: no "I'm back"
    done = post_form(
        client,
        form_for(page.text, "/settings/vacations"),
        starts=today.isoformat(),
        ends=(today + dt.timedelta(days=2)).isoformat(),
    )
    assert "Your vacation is noted" in done.text, done.text
    with app.app_context(), db.connection_context():
        vacation = Vacation.get(Vacation.user == seat.user_id)
    assert vacation.started and vacation.starts_at <= utcnow()
    moved = to_move(app, game.id)
    assert moved.deadline == seat.deadline + (vacation.ends_at - vacation.starts_at)
    assert run_sweep(app, utcnow()).vacations == 0  # started once, by the declaration
    assert to_move(app, game.id).deadline == moved.deadline

    mine = client.get(f"/games/{game.id}").text
    assert "You are on vacation" in mine and "/back" in mine
    assert "/back" in client.get("/settings").text
    other = "t1@example.org" if seat.user.email != "t1@example.org" else "t2@example.org"
    theirs = sign_in(app, other).get(f"/games/{game.id}").text
    assert f"{seat.user.name} (seat {seat.index + 1}) is away" in theirs
    assert "/back" not in theirs

    yesterday = today - dt.timedelta(days=1)
    refused = post_form(
        client,
        form_for(page.text, "/settings/vacations"),
        starts=yesterday.isoformat(),
        ends=today.isoformat(),
    )
    assert refused.status_code == 400 and "starts today or later" in refused.text


def test_a_vacation_to_come_shows_at_once_in_the_readers_language(app):
    game = started_game(app, players=3, tag="c")
    with app.app_context(), db.connection_context():
        away = User.get(User.email == "c1@example.org")
        Vacation.create(
            user=away, starts_at=dt.datetime(2030, 12, 3), ends_at=dt.datetime(2030, 12, 11)
        )
        User.update(language="nl").where(User.email == "c2@example.org").execute()
    dutch = sign_in(app, "c2@example.org").get(f"/games/{game.id}").text
    assert "C 2 (plaats 2): afwezig 3–10 dec 2030." in dutch
    english = sign_in(app, "c0@example.org").get(f"/games/{game.id}").text
    assert "C 2 (seat 2) is away Dec 3\u2009–\u200910, 2030." in english
    assert (
        "You are on vacation" not in sign_in(app, "c1@example.org").get(f"/games/{game.id}").text
    )  # not away yet

"""Absent seats, vacations, digests and unsubscribing."""

from __future__ import annotations

import datetime as dt
import re

from clock_helpers import (
    HOUR,
    events,
    game_row,
    outbox,
    run_sweep,
    started_game,
    to_move,
    user,
)
from web_helpers import form_for, forms, post_form, text_of

from server.db import db
from server.models import Seat, User, Vacation, utcnow
from server.services.clock import vacations

DAY = dt.timedelta(days=1)


def sign_in(app, email: str):
    client = app.test_client()
    page = client.get("/login")
    (login,) = [f for f in forms(page.text) if "password" in f["fields"]]
    done = post_form(
        client, dict(login, action=login["action"] or "/login"), email=email, password="password1"
    )
    assert "Sign out" in done.text, done.text
    return client


def test_three_timeouts_in_a_row_make_a_seat_absent_and_tell_the_host(app, smtp, send_mail):
    game = started_game(app, players=3, tag="h")
    now = utcnow()
    absent_seat = None
    for _ in range(60):
        seat = to_move(app, game.id)
        now = max(now, seat.deadline) + HOUR
        run_sweep(app, now)
        with app.app_context(), db.connection_context():
            gone = list(Seat.select().where((Seat.game == game.id) & Seat.absent))
        if gone:
            absent_seat = gone[0]
            break
    assert absent_seat is not None and absent_seat.timeouts_in_row == 3
    send_mail(app)
    host_mails = [m for m in smtp.to("h0@example.org") if "is stalling" in text_of(m)]
    assert len(host_mails) == 1
    # From now on that seat passes at once: its deadline is the moment its turn begins.
    for _ in range(60):
        seat = to_move(app, game.id)
        if seat.id == absent_seat.id:
            assert seat.deadline == seat.turn_started_at
            assert seat.next_reminder_at is None
            break
        now = seat.deadline + HOUR
        run_sweep(app, now)
    else:
        raise AssertionError("the absent seat never got a turn")
    # "I'm back": the player presses the button and gets a full clock again.
    with app.app_context(), db.connection_context():
        email = User.get_by_id(absent_seat.user_id).email
    client = sign_in(app, email)
    page = client.get(f"/games/{game.id}")
    assert "I’m back" in page.text
    post_form(client, form_for(page.text, "/back"))
    with app.app_context(), db.connection_context():
        back = Seat.get_by_id(absent_seat.id)
    assert not back.absent and back.timeouts_in_row == 0
    assert back.deadline - back.turn_started_at == 48 * HOUR


def test_vacation_stops_the_clock_and_the_others_see_it(app):
    game = started_game(app, players=3, tag="v")
    seat = to_move(app, game.id)
    now = utcnow()
    with app.app_context(), db.connection_context():
        away = User.get_by_id(seat.user_id)
        vac = vacations.declare(away, (now + DAY).date(), (now + 3 * DAY).date(), now, 21)
    assert vac.ends_at - vac.starts_at == 3 * DAY
    assert run_sweep(app, vac.starts_at + HOUR).vacations == 1
    moved = to_move(app, game.id)
    assert moved.deadline == seat.deadline + 3 * DAY
    assert run_sweep(app, vac.starts_at + 2 * HOUR).vacations == 0  # only once
    # Nothing times out while away, even past the old deadline.
    assert run_sweep(app, seat.deadline + HOUR).timeouts == 0
    with app.app_context(), db.connection_context():
        assert vacations.on_vacation([seat.user_id], vac.starts_at + HOUR) == {
            seat.user_id: vac.ends_at
        }


def test_vacation_shown_on_the_game_page(app):
    game = started_game(app, players=3, tag="w")
    seat = to_move(app, game.id)
    with app.app_context(), db.connection_context():
        # A vacation that is running now (declared earlier, so written directly).
        Vacation.create(
            user=seat.user_id, starts_at=utcnow() - DAY, ends_at=utcnow() + DAY, started=True
        )
    other = "w1@example.org" if seat.user.email != "w1@example.org" else "w2@example.org"
    page = sign_in(app, other).get(f"/games/{game.id}")
    assert f"{seat.user.name} (seat {seat.index + 1}) is away " in page.text


def test_a_turn_that_begins_during_a_vacation_gets_its_time_after_it(app):
    game = started_game(app, players=3, tag="x")
    first = to_move(app, game.id)
    with app.app_context(), db.connection_context():
        seats = list(Seat.select().where(Seat.game == game.id).order_by(Seat.index))
    run_sweep(app, first.deadline - HOUR)  # the first seat's reminder
    now = first.deadline + HOUR
    for s in seats:  # everybody is away while the first seat times out
        if s.id != first.id:
            with app.app_context(), db.connection_context():
                Vacation.create(
                    user=s.user_id, starts_at=now - DAY, ends_at=now + 2 * DAY, started=True
                )
    run_sweep(app, now)
    nxt = to_move(app, game.id)
    assert nxt.id != first.id
    assert nxt.deadline == now + 2 * DAY + 48 * HOUR


def test_vacation_allowance_per_year(app):
    with app.app_context(), db.connection_context():
        person = user("allow@example.org")
        now = dt.datetime(2027, 1, 10, 12)
        vacations.declare(person, dt.date(2027, 2, 1), dt.date(2027, 2, 15), now, 21)
        try:
            vacations.declare(person, dt.date(2027, 3, 1), dt.date(2027, 3, 7), now, 21)
        except vacations.VacationError as exc:
            assert "6 of your 21 days" in str(exc)
        else:
            raise AssertionError("22 days were accepted")
        vacations.declare(person, dt.date(2027, 3, 1), dt.date(2027, 3, 6), now, 21)
        try:
            vacations.declare(person, dt.date(2027, 1, 5), dt.date(2027, 1, 6), now, 21)
        except vacations.VacationError as exc:
            assert "today or later" in str(exc)
        else:
            raise AssertionError("a vacation in the past was accepted")


def test_vacation_form_declares_and_refuses_with_a_message(app):
    with app.app_context(), db.connection_context():
        user("form@example.org")
    client = sign_in(app, "form@example.org")
    page = client.get("/settings")
    start = (utcnow() + 2 * DAY).date()
    done = post_form(
        client,
        form_for(page.text, "/settings/vacations"),
        starts=start.isoformat(),
        ends=(start + 40 * DAY).isoformat(),
    )
    assert done.status_code == 400 and "days for" in done.text
    done = post_form(
        client,
        form_for(page.text, "/settings/vacations"),
        starts=start.isoformat(),
        ends=(start + 2 * DAY).isoformat(),
    )
    assert "Your vacation is noted" in done.text
    with app.app_context(), db.connection_context():
        assert Vacation.select().count() == 1


def test_daily_digest_instead_of_turn_mails(app, smtp, send_mail):
    game = started_game(app, players=3, tag="d")
    seat = to_move(app, game.id)
    client = sign_in(app, seat.user.email)
    page = client.get("/settings")
    post_form(
        client,
        form_for(page.text, "/settings"),
        timezone="Europe/Amsterdam",
        mail_mode="digest",
        optional_mail="y",
    )
    with app.app_context(), db.connection_context():
        person = User.get_by_id(seat.user_id)
    assert person.mail_mode == "digest" and person.next_digest_at is not None
    local = person.next_digest_at.replace(tzinfo=dt.UTC).astimezone(
        __import__("zoneinfo").ZoneInfo("Europe/Amsterdam")
    )
    assert (local.hour, local.minute) == (7, 0)
    sweeps = [
        run_sweep(app, person.next_digest_at - HOUR),
        run_sweep(app, person.next_digest_at + HOUR),
        run_sweep(app, person.next_digest_at + HOUR),
    ]
    assert [sweep.digests for sweep in sweeps] == [0, 1, 0]
    send_mail(app)
    (digest,) = [m for m in smtp.to(seat.user.email) if "wait for your move" in text_of(m)]
    assert "Game d" in text_of(digest) and "/s/" in text_of(digest)
    # Every seat, digest readers included, gets at least one reminder
    # before a timeout: a digest reader gets the reminder, once.
    # It may fall due before the digest hour (the test's start time of day
    # decides), so the sweeps above count too.
    sweeps.append(run_sweep(app, seat.next_reminder_at + HOUR))
    assert sum(sweep.reminders for sweep in sweeps) == 1


def test_digest_readers_get_no_turn_mail(app):
    game = started_game(app, players=3, tag="e")
    first = to_move(app, game.id)
    with app.app_context(), db.connection_context():
        for s in Seat.select().where(Seat.game == game.id):
            User.update(mail_mode="digest").where(User.id == s.user_id).execute()
    before = len(outbox(app, "turn"))
    run_sweep(app, first.deadline + HOUR)
    assert len(outbox(app, "turn")) == before


def test_one_click_unsubscribe_stops_optional_mail_only(app, smtp, send_mail):
    game = started_game(app, players=3, tag="u")
    seat = to_move(app, game.id)
    send_mail(app)
    (turn,) = [m for m in smtp.to(seat.user.email) if "It is your turn" in text_of(m)]
    assert turn["List-Unsubscribe"] is None  # one click would not stop turn mails
    url = re.search(r"http://localhost/mail/unsubscribe/[\w.-]+", text_of(turn)).group(0)
    path = url[len("http://localhost") :]
    stranger = app.test_client()  # a mail provider: no session, no CSRF token
    assert stranger.get(path).status_code == 200
    with app.app_context(), db.connection_context():
        assert User.get_by_id(seat.user_id).optional_mail  # GET changed nothing
    done = stranger.post(path, data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and "still get a mail when it is" in done.text
    with app.app_context(), db.connection_context():
        assert not User.get_by_id(seat.user_id).optional_mail
    assert run_sweep(app, seat.next_reminder_at + HOUR).reminders == 0
    assert outbox(app, "reminder") == []
    run_sweep(app, seat.deadline + HOUR)
    assert outbox(app, "timeout", seat.user.email) == []  # optional: not sent
    assert events(app, game.id, "timeout")  # but the game went on
    assert app.test_client().post("/mail/unsubscribe/garbage").status_code == 404


def test_game_page_shows_the_deadline_in_the_readers_time_zone(app):
    game = started_game(app, players=3, tag="z")
    seat = to_move(app, game.id)
    with app.app_context(), db.connection_context():
        User.update(timezone="Asia/Tokyo").where(User.id == seat.user_id).execute()
    page = sign_in(app, seat.user.email).get(f"/games/{game.id}")
    local = seat.deadline.replace(tzinfo=dt.UTC).astimezone(
        __import__("zoneinfo").ZoneInfo("Asia/Tokyo")
    )
    # Said by Babel, in the reader's language: "Friday, November 27, 2026, 07:40 (Asia/Tokyo)".
    assert f"{local:%H:%M} (Asia/Tokyo)" in page.text
    assert game_row(app, game.id).status == "active"

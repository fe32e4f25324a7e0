"""Through the services, on SQLite and PostgreSQL:
a game's clock on each seat's own time, and each player's mail schedule.

Turns are restarted at chosen instants (seat_clock.start_turn takes ``now``);
the expected instants are worked out by hand in each test."""

from __future__ import annotations

import datetime as dt

import pytest
from clock_helpers import HOUR, run_sweep, user
from test_clock_absence import sign_in
from web_helpers import form_for, post_form

from server.db import db
from server.models import Game, Seat, User
from server.services import games, moderation, preferences
from server.services.clock import deadlines, own_time, seat_clock

T = dt.datetime


def own_time_game(
    app, zones: list[str], clock="no_nights", night=(23, 7), move_hours=6, reminders=(3, 1), tag="o"
) -> int:
    """A started game whose seat i is played by a user in ``zones[i]``."""
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        people = [user(f"{tag}{i}@example.org", timezone=z) for i, z in enumerate(zones)]
        game = games.create_game(
            people[0],
            "puerto_rico",
            f"Game {tag}",
            len(people),
            {},
            move_hours,
            list(reminders),
            mailer,
            clock,
            night,
        )
        for i, person in enumerate(people[1:], start=1):
            games.join(game.id, person, i)
        return games.start(game.id, people[0], mailer).id


def restart(app, game_id: int, now: dt.datetime) -> Seat:
    """The turn of the seat to move begins again at ``now``."""
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        seat = Seat.get((Seat.game == game_id) & (Seat.index == game.to_move))
        seat_clock.start_turn(game, seat, now)
        return Seat.select(Seat, User).join(User).where(Seat.id == seat.id).get()


def seat_row(app, seat_id: int) -> Seat:
    with app.app_context(), db.connection_context():
        return Seat.select(Seat, User).join(User).where(Seat.id == seat_id).get()


def set_zone_of_seat_to_move(app, game_id: int, zone: str) -> None:
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        seat = Seat.get((Seat.game == game_id) & (Seat.index == game.to_move))
        User.update(timezone=zone).where(User.id == seat.user_id).execute()


# -- item 4: deadlines, reminders and time left agree -----------------------------------
def test_night_clock_in_new_york_across_the_november_switch(app):
    """Sat 31 Oct 2026 20:00 EDT = Sun 1 Nov 00:00 UTC, 6 clock hours, no
    clock from 23:00 to 07:00 in New York.  3 h run until 23:00 EDT (03:00
    UTC); the night lasts until 07:00 EST = 12:00 UTC (9 real hours: the
    clocks went back at 02:00); 3 more hours: 15:00 UTC = 10:00 EST.
    Reminders "3" and "1" come when 3 and 1 clock hours are left: at 07:00
    EST (12:00 UTC), when the clock runs again, not at midnight, and at
    14:00 UTC."""
    game_id = own_time_game(app, ["America/New_York"] * 3)
    set_zone_of_seat_to_move(app, game_id, "America/New_York")
    seat = restart(app, game_id, T(2026, 11, 1, 0))
    assert seat.deadline == T(2026, 11, 1, 15)
    assert seat.next_reminder_at == T(2026, 11, 1, 12)
    assert run_sweep(app, T(2026, 11, 1, 11, 59)).reminders == 0
    assert run_sweep(app, T(2026, 11, 1, 12)).reminders == 1
    assert seat_row(app, seat.id).next_reminder_at == T(2026, 11, 1, 14)
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        # The page's "time left" is clock time: at 02:00 UTC one hour runs
        # before the night, then three in the morning.
        assert own_time.time_left(game, seat.user, seat.deadline, T(2026, 11, 1, 2)) == 4 * HOUR
        text = own_time.status_text(game, seat.user, seat.deadline, T(2026, 11, 1, 5))
        assert text.startswith("3 h 00 min of clock time left") and "stands still" in text
    assert run_sweep(app, T(2026, 11, 1, 14, 59)).timeouts == 0
    assert run_sweep(app, T(2026, 11, 1, 15)).timeouts == 1


def test_the_seats_own_zone_decides(app):
    """The same start, Fri 3 Apr 2026 12:00 UTC, weekends off, 2 hours: in
    New York it is Friday 08:00 EDT, the deadline 14:00 UTC; in Auckland it
    is Saturday 01:00 NZDT, and the weekend lasts until Mon 00:00 NZST = Sun
    5 Apr 12:00 UTC (the clocks went back on Sunday), deadline 14:00 UTC."""
    game_id = own_time_game(
        app, ["America/New_York"] * 3, clock="no_weekends", move_hours=2, reminders=(1,), tag="z"
    )
    set_zone_of_seat_to_move(app, game_id, "America/New_York")
    assert restart(app, game_id, T(2026, 4, 3, 12)).deadline == T(2026, 4, 3, 14)
    set_zone_of_seat_to_move(app, game_id, "Pacific/Auckland")
    assert restart(app, game_id, T(2026, 4, 3, 12)).deadline == T(2026, 4, 5, 14)


def test_a_vacation_keeps_the_clock_time_left(app):
    """Weekends off, Amsterdam.  Turn from Mon 2 Mar 2026 09:00 UTC (10:00
    CET) with 72 clock hours: Mon, Tue, Wed -> Thu 5 Mar 09:00 UTC.  A
    vacation stops the clock from Tue 3 Mar 09:00 UTC for 3 days: 48 h were
    left; the clock runs again Fri 6 Mar 09:00 UTC: 14 h on Friday (to
    Sat 00:00 CET = Fri 23:00 UTC), the weekend, then 34 h from Mon 00:00
    CET (Sun 8 Mar 23:00 UTC): Tue 10 Mar 09:00 UTC.  Shifted by 3 days of
    wall time it would have been Sunday 8 Mar, taking the weekend away."""
    game_id = own_time_game(
        app, ["Europe/Amsterdam"] * 3, clock="no_weekends", move_hours=72, reminders=(24,), tag="v"
    )
    set_zone_of_seat_to_move(app, game_id, "Europe/Amsterdam")
    seat = restart(app, game_id, T(2026, 3, 2, 9))
    assert seat.deadline == T(2026, 3, 5, 9)
    with app.app_context(), db.connection_context():
        deadlines.shift_pending(seat.user_id, dt.timedelta(days=3), T(2026, 3, 3, 9))
    after = seat_row(app, seat.id)
    assert after.deadline == T(2026, 3, 10, 9)
    # The 24-hours-left reminder: 24 clock hours before, Mon 9 Mar 09:00 UTC.
    assert after.next_reminder_at == T(2026, 3, 9, 9)
    # "I'm back" a day early (Thu 5 Mar 09:00 UTC): the stop that was to end
    # Fri 09:00 ends now, and the 48 h left run from now: 14 h on Thursday,
    # 24 h on Friday, 10 h from Mon 00:00 CET -> Mon 9 Mar 09:00 UTC.
    with app.app_context(), db.connection_context():
        deadlines.shift_pending(seat.user_id, -dt.timedelta(days=1), T(2026, 3, 5, 9))
    assert seat_row(app, seat.id).deadline == T(2026, 3, 9, 9)


def test_a_moderators_pause_keeps_the_clock_time_left(app):
    """The same clock as the vacation above, stopped by a pause from Tue 3
    Mar 09:00 UTC to Fri 6 Mar 09:00 UTC: 48 h left, Tue 10 Mar 09:00 UTC."""
    game_id = own_time_game(
        app, ["Europe/Amsterdam"] * 3, clock="no_weekends", move_hours=72, reminders=(24,), tag="m"
    )
    set_zone_of_seat_to_move(app, game_id, "Europe/Amsterdam")
    seat = restart(app, game_id, T(2026, 3, 2, 9))
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        # A site moderator: a host who plays may not pause alone.
        mod = User.create(email="mod@example.org", name="Mo", password_hash="", is_moderator=True)
        moderation.pause(
            game_id, mod, game.seq, "a long weekend", mailer=mailer, now=T(2026, 3, 3, 9)
        )
        moderation.resume(
            game_id,
            mod,
            Game.get_by_id(game_id).seq,
            "back again",
            mailer=mailer,
            now=T(2026, 3, 6, 9),
        )
    after = seat_row(app, seat.id)
    assert (after.deadline, after.next_reminder_at) == (T(2026, 3, 10, 9), T(2026, 3, 9, 9))


def test_moving_to_another_zone_keeps_the_clock_time_left(app):
    """Nights off.  In New York a turn from Mon 1 Jun 2026 12:00 UTC (08:00
    EDT) with 6 h ends 18:00 UTC.  At 13:00 UTC the player moves to Kolkata
    (18:30 IST) with 5 h left: 4 h 30 run until 23:00 IST (17:30 UTC), the
    night lasts to 07:00 IST (01:30 UTC), 30 min more: Tue 02:00 UTC."""
    game_id = own_time_game(app, ["America/New_York"] * 3, tag="k")
    set_zone_of_seat_to_move(app, game_id, "America/New_York")
    seat = restart(app, game_id, T(2026, 6, 1, 12))
    assert seat.deadline == T(2026, 6, 1, 18)
    with app.app_context(), db.connection_context():
        person = User.get_by_id(seat.user_id)
        preferences.save_settings(person, "Asia/Kolkata", "every", True, 7, now=T(2026, 6, 1, 13))
    assert seat_row(app, seat.id).deadline == T(2026, 6, 2, 2)


def test_the_lobby_and_the_game_page_show_the_policy(app):
    with app.app_context(), db.connection_context():
        user("host@example.org")
    client = sign_in(app, "host@example.org")
    page = client.get("/games/new")
    form = form_for(page.text, "/games/new")
    assert "no_nights/17-9" in form["selects"]["clock_policy"]  # office hours
    for hostile in ("sometimes", "no_nights/8-8", "no_nights/²-7", "no_nights"):
        bad = post_form(client, form, name="Night owls", seats="3", clock_policy=hostile)
        assert bad.status_code == 400 and "Not a valid choice" in bad.text
    with app.app_context(), db.connection_context():
        host = User.get(User.email == "host@example.org")
        with pytest.raises(games.LobbyError, match="cannot start and end at the same hour"):
            games.create_game(
                host,
                "puerto_rico",
                "Owls",
                3,
                {},
                6,
                [3],
                app.extensions["pbem_mailer"],
                "no_nights",
                (8, 8),
            )
        assert Game.select().count() == 0
    done = post_form(client, form, name="Night owls", seats="3", clock_policy="no_nights/22-6")
    assert "stops at night from 22:00 to 06:00, in each player’s own time zone" in done.text
    with app.app_context(), db.connection_context():
        game = Game.get()
        assert (game.clock_policy, game.night_from, game.night_until) == ("no_nights", 22, 6)
    assert "stops at night from 22:00" in client.get("/").text
    game_id = own_time_game(app, ["Europe/Amsterdam"] * 3, clock="no_weekends", tag="p")
    with app.app_context(), db.connection_context():
        email = User.get_by_id(Game.get_by_id(game_id).host_id).email
    page = sign_in(app, email).get(f"/games/{game_id}").text
    assert "The clock stops on Saturdays and Sundays, in each player’s own time zone" in page
    assert "of clock time left" in page


# -- item 5: each player's mail schedule -------------------------------------------------
def schedule_of(app, email: str, **fields) -> None:
    with app.app_context(), db.connection_context():
        User.update(**fields).where(User.email == email).execute()


def test_own_reminder_hours_and_quiet_hours(app):
    """Always-running 48 h clock from Fri 27 Mar 2026 10:00 UTC: deadline
    Sun 29 Mar 10:00 UTC (12:00 CEST).  The game reminds 36 h before; this
    player wants 24 and 6 h before, and quiet from 22:00 to 08:00 in
    Amsterdam.  24 h before: Sat 28 Mar 10:00 UTC (11:00 CET).  6 h before:
    Sun 04:00 UTC = 06:00 CEST, in the quiet hours that began Sat 22:00 CET
    = 21:00 UTC: it comes then, earlier."""
    game_id = own_time_game(
        app, ["Europe/Amsterdam"] * 3, clock="always", move_hours=48, reminders=(36,), tag="q"
    )
    seat = restart(app, game_id, T(2026, 3, 27, 10))
    assert seat.next_reminder_at == T(2026, 3, 27, 22)  # the game's: 36 h before
    schedule_of(
        app,
        seat.user.email,
        timezone="Europe/Amsterdam",
        reminder_hours=[24, 6],
        quiet_from=22,
        quiet_until=8,
    )
    seat = restart(app, game_id, T(2026, 3, 27, 10))
    assert seat.deadline == T(2026, 3, 29, 10)
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        assert own_time.reminders(
            game, seat.user, seat.deadline, T(2026, 3, 27, 10), deadlines.reminder_hours(game)
        ) == [T(2026, 3, 28, 10), T(2026, 3, 28, 21)]
    assert seat.next_reminder_at == T(2026, 3, 28, 10)
    assert run_sweep(app, T(2026, 3, 28, 10)).reminders == 1
    assert seat_row(app, seat.id).next_reminder_at == T(2026, 3, 28, 21)
    assert run_sweep(app, T(2026, 3, 28, 21)).reminders == 1
    assert seat_row(app, seat.id).next_reminder_at is None


def test_hours_that_do_not_fit_fall_back_to_the_games_schedule(app):
    """A player's "100" in a 6-hour game: no reminder of theirs fits, so the
    game's schedule ("3" -> 3 h before) holds: nobody is left unwarned."""
    game_id = own_time_game(app, ["UTC"] * 3, clock="always", reminders=(3,), tag="f")
    seat = restart(app, game_id, T(2026, 5, 4, 9))
    schedule_of(app, seat.user.email, reminder_hours=[100])
    assert restart(app, game_id, T(2026, 5, 4, 9)).next_reminder_at == T(2026, 5, 4, 12)
    schedule_of(app, seat.user.email, reminder_hours=["half", 100, 1])
    assert restart(app, game_id, T(2026, 5, 4, 9)).next_reminder_at == T(2026, 5, 4, 12)


def test_quiet_hours_covering_the_whole_turn_still_warn_once(app):
    """Quiet 22:00-08:00 UTC; a 6-hour turn from 23:00 to 05:00 UTC: every
    reminder would fall in the quiet hours, which began before the turn.
    One reminder comes at the turn's start rather than none."""
    game_id = own_time_game(app, ["UTC"] * 3, clock="always", reminders=(3, 1), tag="w")
    seat = restart(app, game_id, T(2026, 5, 4, 9))
    schedule_of(app, seat.user.email, quiet_from=22, quiet_until=8)
    seat = restart(app, game_id, T(2026, 5, 4, 23))
    assert seat.deadline == T(2026, 5, 5, 5)
    assert seat.next_reminder_at == T(2026, 5, 4, 23)
    assert run_sweep(app, T(2026, 5, 4, 23)).reminders == 1
    assert seat_row(app, seat.id).next_reminder_at is None


def test_own_digest_hour_across_the_switch(app):
    """Digest at 18:00 in New York.  Saved on Sat 31 Oct 2026 23:00 UTC
    (19:00 EDT): the next 18:00 is Sunday's, after the clocks went back:
    18:00 EST = 23:00 UTC on 1 Nov.  Then Mon 2 Nov 23:00 UTC."""
    with app.app_context(), db.connection_context():
        person = user("digest@example.org")
        schedule = preferences.parse_schedule("", None, None, 18)
        preferences.save_settings(
            person, "America/New_York", "digest", True, 7, schedule, now=T(2026, 10, 31, 23)
        )
        person = User.get_by_id(person.id)
        assert person.digest_hour == 18
        assert person.next_digest_at == T(2026, 11, 1, 23)
        assert deadlines.next_digest_time(person, T(2026, 11, 1, 23), 7) == T(2026, 11, 2, 23)
        # Back to the site's hour (7): the next 07:00 EST is 12:00 UTC.
        preferences.save_settings(
            person,
            "America/New_York",
            "digest",
            True,
            7,
            preferences.parse_schedule("", None, None, None),
            now=T(2026, 11, 1, 23, 30),
        )
        assert User.get_by_id(person.id).next_digest_at == T(2026, 11, 2, 12)


def test_a_digest_hour_in_quiet_hours_comes_when_they_begin(app):
    """Digest hour 07:00 (the site's; one's own behaves alike); quiet hours
    22:00-08:00 in Amsterdam, and the player is told so.  Saved
    Mon 4 May 2026 12:00 UTC (14:00 CEST): the 07:00 digest of Tuesday
    would be quiet, so it comes Mon 22:00 CEST = 20:00 UTC.  Sent then, the
    next one is Tue 22:00 CEST, never a second one the same night."""
    with app.app_context(), db.connection_context():
        person = user("quiet@example.org")
        schedule = preferences.parse_schedule("", 22, 8, None)
        assert "the digest comes at 22:00, when they begin" in schedule.digest_note(7)
        assert schedule.digest_note(21) == ""
        preferences.save_settings(
            person, "Europe/Amsterdam", "digest", True, 7, schedule, now=T(2026, 5, 4, 12)
        )
        person = User.get_by_id(person.id)
        assert person.next_digest_at == T(2026, 5, 4, 20)
        assert deadlines.next_digest_time(person, T(2026, 5, 4, 20), 7) == T(2026, 5, 5, 20)
        assert deadlines.next_digest_time(person, T(2026, 5, 4, 23), 7) == T(2026, 5, 5, 20)


@pytest.mark.parametrize(
    "text, quiet, digest, field, message",
    [
        ("24, soon", None, None, "reminder_hours", "'soon' is neither 'half' nor a number"),
        ("0", None, None, "reminder_hours", "more than 0 and at most 720"),
        ("1,2,3,4,5,6,7", None, None, "reminder_hours", "At most 6 reminders"),
        ("", (22, None), None, "quiet_until", "an end as well as a start"),
        ("", (8, 8), None, "quiet_from", "quiet time cannot start and end at the same hour"),
        ("", None, 24, "digest_hour", "a whole hour from 0 to 23"),
    ],
)
def test_a_schedule_that_does_not_fit_is_refused(text, quiet, digest, field, message):
    with pytest.raises(preferences.ScheduleError, match=message) as refused:
        preferences.parse_schedule(text, *(quiet or (None, None)), digest)
    assert refused.value.field == field


def test_settings_form_saves_and_refuses_with_a_message(app):
    with app.app_context(), db.connection_context():
        user("set@example.org")
    client = sign_in(app, "set@example.org")
    form = form_for(client.get("/settings").text, "/settings")
    bad = post_form(
        client,
        form,
        timezone="Europe/Amsterdam",
        mail_mode="every",
        reminder_hours="24, soon",
        quiet_from="22",
        quiet_until="8",
    )
    assert bad.status_code == 400 and "&#39;soon&#39; is neither" in bad.text
    bad = post_form(
        client,
        form,
        timezone="Europe/Amsterdam",
        mail_mode="digest",
        reminder_hours="24",
        quiet_from="22",
        quiet_until="22",
        digest_hour="23",
    )
    assert bad.status_code == 400 and "cannot start and end at the same hour" in bad.text
    with app.app_context(), db.connection_context():
        person = User.get(User.email == "set@example.org")
        assert (person.reminder_hours, person.quiet_from, person.timezone) == (None, None, "UTC")
    done = post_form(
        client,
        form,
        timezone="Europe/Amsterdam",
        mail_mode="digest",
        reminder_hours="6, 24, half",
        quiet_from="22",
        quiet_until="8",
        digest_hour="19",
    )
    assert done.status_code == 200 and "Your settings are saved." in done.text
    assert "falls in your quiet hours" not in done.text
    assert 'value="half, 24, 6"' in done.text
    with app.app_context(), db.connection_context():
        person = User.get(User.email == "set@example.org")
        assert person.reminder_hours == ["half", 24, 6]
        assert (person.quiet_from, person.quiet_until, person.digest_hour) == (22, 8, 19)


def test_no_start_means_no_quiet_hours_whatever_the_end():
    schedule = preferences.parse_schedule(" ", None, 7, None)
    assert (schedule.reminder_hours, schedule.quiet_from, schedule.quiet_until) == (
        None,
        None,
        None,
    )

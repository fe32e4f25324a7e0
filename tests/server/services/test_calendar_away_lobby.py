"""The calendar feed, lobbies that never start, and "While you were away":
what each promises a player.

6. "Each player has a secret calendar feed (iCalendar ...) listing their
   current deadlines, with a link on Settings; revoking it gives a new address."
7. "A game not started after N days (setting): the host is reminded, then it
   is closed with a note; pending invitations expire and their links say so."
8. "Every move played for an absent or timed-out seat is listed to that player
   when they come back (page and next mail), with who or what played it."
"""

from __future__ import annotations

import datetime as dt
import re

from clock_helpers import HOUR, outbox, run_sweep, sign_in, started_game, to_move, user
from icalendar import Calendar
from moderation_helpers import moderate, site_moderator
from race_helpers import while_open
from web_helpers import csrf, form_for, post_form, signup

from server.db import db
from server.models import Game, Seat
from server.services import games

DAY = 24 * HOUR


def in_db(app, fn):
    with app.app_context(), db.connection_context():
        return fn()


def calendar_path(client) -> str:
    page = client.get("/settings").text
    url = re.search(r'id="calendar-url"[^>]*|value="([^"]+\.ics)"', page)
    found = re.search(r'value="(https?://[^"]+/calendar/[^"]+\.ics)"', page)
    assert url and found, "no calendar address on Settings"
    return "/" + found.group(1).split("/", 3)[3]


# -- 6. the calendar ------------------------------------------------------------
def test_the_calendar_lists_each_deadline_and_a_new_address_revokes_the_old(app):
    first = started_game(app, players=2, tag="ca")
    second = started_game(app, players=2, tag="cb")
    seat = to_move(app, first.id)
    client = sign_in(app, seat.user.email)
    path = calendar_path(client)
    before = in_db(app, lambda: (Game.select().count(), Seat.select().count()))
    feed = app.test_client().get(path)  # a calendar app: no session
    assert feed.status_code == 200 and feed.mimetype == "text/calendar"
    events = [c for c in Calendar.from_ical(feed.data).walk("VEVENT")]
    mine = in_db(
        app,
        lambda: list(
            Seat.select()
            .join(Game)
            .where((Seat.user == seat.user_id) & (Game.to_move == Seat.index))
        ),
    )
    assert len(events) == len(mine) >= 1
    by_url = {str(e["url"]): e for e in events}
    event = by_url[f"http://localhost/games/{first.id}"]
    # iCalendar counts whole seconds: the feed shows the deadline a moment early.
    assert event.decoded("dtstart") == seat.deadline.replace(microsecond=0, tzinfo=dt.UTC)
    assert "Game ca" in str(event["summary"]) and "/s/" not in feed.text  # no seat link
    assert in_db(app, lambda: (Game.select().count(), Seat.select().count())) == before
    other = to_move(app, second.id)
    if other.user_id != seat.user_id:
        assert f"/games/{second.id}" not in feed.text

    page = client.get("/settings").text
    client.post("/settings/calendar", data={"csrf_token": csrf(page)})
    assert app.test_client().get(path).status_code == 404
    fresh = calendar_path(client)
    assert fresh != path and app.test_client().get(fresh).status_code == 200
    assert app.test_client().get(path[:-8] + "xx" + path[-6:]).status_code == 404


def test_revoking_the_calendar_needs_a_post_with_csrf(app):
    game = started_game(app, players=2, tag="cr")
    client = sign_in(app, to_move(app, game.id).user.email)
    path = calendar_path(client)
    assert client.post("/settings/calendar").status_code == 400
    assert client.get("/settings/calendar").status_code == 405
    assert app.test_client().get(path).status_code == 200


# -- 7. lobbies that never start ---------------------------------------------------
def open_game(app, tag: str) -> Game:
    mailer = app.extensions["pbem_mailer"]

    def make():
        host, guest = user(f"{tag}h@example.org", "Host"), user(f"{tag}g@example.org", "Guest")
        game = games.create_game(host, "puerto_rico", f"Lobby {tag}", 4, {}, 48, [6], mailer)
        games.join(game.id, guest, 1)
        return game

    return in_db(app, make)


def test_a_lobby_that_never_starts_is_reminded_then_closed(app):
    game = open_game(app, "lb")
    made = game.created_at
    remind, close = app.config["LOBBY_REMIND_AFTER_DAYS"], app.config["LOBBY_CLOSE_AFTER_DAYS"]
    assert run_sweep(app, made + (remind - 1) * DAY).lobbies_reminded == 0
    assert run_sweep(app, made + remind * DAY + HOUR).lobbies_reminded == 1
    assert run_sweep(app, made + remind * DAY + 2 * HOUR).lobbies_reminded == 0  # once
    (note,) = outbox(app, "lobby_reminder")
    assert note.to_addr == "lbh@example.org" and "has not started yet" in note.body_text
    report = run_sweep(app, made + close * DAY + HOUR)
    assert report.lobbies_closed == 1
    assert in_db(app, lambda: Game.get_by_id(game.id).status) == "closed"
    told = outbox(app, "lobby_closed")
    assert sorted(m.to_addr for m in told) == ["lbg@example.org", "lbh@example.org"]
    assert all(f"did not start within {close} days" in " ".join(m.body_text.split()) for m in told)
    host = sign_in(app, "lbh@example.org")
    page = host.get(f"/games/{game.id}")
    assert page.status_code == 410 and "This game was closed" in page.text
    lobby = host.get(f"/games/{game.id}/lobby", follow_redirects=True)
    assert "This game was closed" in lobby.text
    assert run_sweep(app, made + (close + 1) * DAY).lobbies_closed == 0


def test_a_started_game_is_never_closed(app):
    game = started_game(app, players=2, tag="st")
    made = in_db(app, lambda: Game.get_by_id(game.id).created_at)
    report = run_sweep(app, made + 60 * DAY)
    assert report.lobbies_closed == 0 and report.lobbies_reminded == 0
    assert in_db(app, lambda: Game.get_by_id(game.id).status) in ("active", "finished")


def test_an_expired_invitation_link_says_so(app, smtp, send_mail):
    host = app.test_client()
    signup(host, "Ann", "ann@example.org")
    page = host.get("/games/new")
    lobby = post_form(
        host,
        form_for(page.text, "/games/new"),
        name="Late",
        seats="3",
        move_hours="24",
        reminder_hours="",
    )
    post_form(host, form_for(lobby.text, "/invite"), emails="bob@example.org")
    link = re.search(r"http://localhost(/j/\S+)", outbox(app, "invite")[0].body_text).group(1)
    assert app.test_client().get(link).status_code == 200
    app.extensions["pbem_mailer"].links.join_max_age = -1  # as if weeks went by
    old = app.test_client().get(link)
    assert old.status_code == 410 and "expired" in old.text.lower()


# -- 8. while you were away ----------------------------------------------------------
def test_moves_played_for_an_absent_player_are_listed_until_they_move(app):
    game = started_game(app, players=2, tag="aw")
    seat = to_move(app, game.id)
    run_sweep(app, seat.deadline - HOUR)  # the reminder
    assert run_sweep(app, seat.deadline + HOUR).timeouts == 1
    client = sign_in(app, seat.user.email)
    page = client.get(f"/games/{game.id}").text
    assert 'id="while-away"' in page and "played by the server, when your time ran out" in page
    # ... and in the next turn mail of that seat
    while to_move(app, game.id).index != seat.index:
        nxt = to_move(app, game.id)
        run_sweep(app, nxt.deadline - HOUR)
        run_sweep(app, nxt.deadline + HOUR)
    turn_mail = [m for m in outbox(app, "turn", seat.user.email)][-1]
    assert "While you were away, these were played for you" in turn_mail.body_text
    assert "played by the server, when your time ran out" in turn_mail.body_text
    # "Seen" hides it (a POST with CSRF); a GET of the game page changes nothing.
    assert 'id="while-away"' in client.get(f"/games/{game.id}").text
    page = client.get(f"/games/{game.id}").text
    client.post(f"/games/{game.id}/away/seen", data={"csrf_token": csrf(page)})
    assert 'id="while-away"' not in client.get(f"/games/{game.id}").text


def test_a_moderators_move_names_the_moderator(app):
    game = started_game(app, players=3, tag="md")
    seat = to_move(app, game.id)
    mod = site_moderator(app)  # "Mo"
    done = moderate(mod, game.id, "default", seat=str(seat.index + 1), reason="Away on a boat")
    assert done.status_code == 200
    page = sign_in(app, seat.user.email).get(f"/games/{game.id}").text
    assert 'id="while-away"' in page and "played by moderator Mo" in page


def test_a_join_at_the_moment_the_host_starts_finds_the_game_started(app):
    """The host starts while another player takes an empty seat: the join
    waits for the start and is told the game has started, and the started
    game's seats are exactly its players (once, the joiner could land in a
    seat the start did not count, and never get a turn)."""
    mailer = app.extensions["pbem_mailer"]

    def make():
        host, guest = user("ls0@example.org"), user("ls1@example.org")
        late = user("ls2@example.org")
        game = games.create_game(host, "puerto_rico", "Race", 3, {}, 48, [24], mailer)
        games.join(game.id, guest, 1)
        return game.id, host, late

    gid, host, late = in_db(app, make)

    def join_late():
        try:
            games.join(gid, late, 2)
        except games.LobbyError as exc:
            return str(exc)
        return "joined"

    started, joined = while_open(app, lambda: games.start(gid, host, mailer), join_late)
    assert started.status == "active" and "already started" in joined
    seated = in_db(app, lambda: list(Seat.select().where(Seat.game == gid).order_by(Seat.index)))
    assert [s.index for s in seated] == [0, 1] and late.id not in {s.user_id for s in seated}
    assert in_db(app, lambda: Game.get_by_id(gid).seat_count) == 2

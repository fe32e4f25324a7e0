"""League pages through the app: making a league by its form (bad input
answered in words, nothing made), joining and leaving by POST with the
form's token, the league's page, a round's page and the JSON record."""

from __future__ import annotations

import datetime as dt

from clock_helpers import sign_in, user
from league_helpers import make_league
from web_helpers import form_for, post_form

from server.db import db
from server.models import League, LeagueMember, utcnow
from server.services import clubs, leagues

TOMORROW = (utcnow() + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")


def test_a_league_is_made_by_its_form(sqlite_app):
    with sqlite_app.app_context(), db.connection_context():
        user("m0@example.org", "Mia")
    client = sign_in(sqlite_app, "m0@example.org")
    form = form_for(client.get("/leagues/new").text, "/leagues/new")
    refused = post_form(
        client, form, name="Spring", kind="puerto_rico", table_min="3", table_max="7",
        starts_at=TOMORROW,
    )  # fmt: skip
    assert refused.status_code == 400
    assert "choose table sizes in that range" in refused.text
    past = post_form(client, form, name="Spring", kind="puerto_rico", starts_at="2020-01-01T10:00")
    assert past.status_code == 400 and "The start date has passed" in past.text
    with sqlite_app.app_context(), db.connection_context():
        assert League.select().count() == 0
    made = post_form(client, form, name="Spring", kind="puerto_rico", starts_at=TOMORROW)
    assert made.status_code == 200 and "Your league is made" in made.text
    assert "Join this league" in made.text


def test_the_league_form_offers_each_games_options_and_keeps_the_chosen_games(sqlite_app):
    """The expansion buildings (manual: "/option base|extended|random") are
    chosen for a league as for a single game; a value off the list is refused."""
    with sqlite_app.app_context(), db.connection_context():
        user("m0@example.org", "Mia")
    client = sign_in(sqlite_app, "m0@example.org")
    page = client.get("/leagues/new").text
    assert 'name="option_puerto_rico_buildings"' in page
    assert 'name="option_new_found_land_frame_tiles"' in page
    form = form_for(page, "/leagues/new")
    bad = post_form(
        client, form, name="Odd", kind="puerto_rico", starts_at=TOMORROW,
        option_puerto_rico_buildings="everything",
    )  # fmt: skip
    assert bad.status_code == 400 and "is not a choice" in bad.text
    made = post_form(
        client, form, name="Extended", kind="puerto_rico", starts_at=TOMORROW,
        option_puerto_rico_buildings="extended", option_new_found_land_frame_tiles="advanced",
    )  # fmt: skip
    assert made.status_code == 200
    with sqlite_app.app_context(), db.connection_context():
        assert League.select().count() == 1
        assert League.get().options == {"buildings": "extended"}


def test_join_and_leave_by_post_with_the_token(sqlite_app):
    with sqlite_app.app_context(), db.connection_context():
        host = user("h0@example.org", "Hal")
        user("h1@example.org", "Hedy")
        league = make_league(sqlite_app, host, [host])
    client = sign_in(sqlite_app, "h1@example.org")
    page = client.get(f"/leagues/{league.id}").text
    assert client.post(f"/leagues/{league.id}/join").status_code == 400  # no token
    joined = post_form(client, form_for(page, "/join"))
    assert "You are in the league Winter League." in joined.text
    twice = post_form(client, form_for(page, "/join"))
    assert twice.status_code == 400 and "in this league already" in twice.text
    with sqlite_app.app_context(), db.connection_context():
        assert LeagueMember.select().count() == 2
    left = post_form(client, form_for(client.get(f"/leagues/{league.id}").text, "/leave"))
    assert "You left the league." in left.text
    with sqlite_app.app_context(), db.connection_context():
        assert LeagueMember.select().count() == 1


def test_league_round_and_record_pages(sqlite_app):
    mailer = sqlite_app.extensions["pbem_mailer"]
    with sqlite_app.app_context(), db.connection_context():
        people = [user(f"r{i}@example.org", f"Rae {i + 1}") for i in range(3)]
        league = make_league(sqlite_app, people[0], people, kind="puerto_rico")
        leagues.sweep(mailer, league.starts_at)
        (table,) = leagues.tables_of(leagues.rounds_of(league)[0])
    client = sign_in(sqlite_app, "r1@example.org")
    page = client.get(f"/leagues/{league.id}").text
    assert "Drop out of this league" in page and "Round 1" in page
    round_page = client.get(f"/leagues/{league.id}/rounds/1").text
    assert f"/games/{table.game_id}" in round_page and "Rae 3" in round_page
    assert client.get(f"/leagues/{league.id}/rounds/2").status_code == 404
    record = client.get(f"/leagues/{league.id}.json").get_json()
    assert record["state"] == "playing" and record["same_deal"] is False
    assert record["round_list"][0]["tables"][0]["game"] == table.game_id
    assert "email" not in str(record) and "@" not in str(record)
    assert client.get("/leagues/999999").status_code == 404


def test_a_club_league_is_on_the_club_page_and_hidden_when_club_only(sqlite_app):
    with sqlite_app.app_context(), db.connection_context():
        admin = user("c0@example.org", "Cat")
        user("c1@example.org", "Cole")
        club = clubs.found(admin, "Chess Friends", "", [], invite_only=False)
        league = make_league(sqlite_app, admin, [admin], club=club, club_only=True)
    client = sign_in(sqlite_app, "c0@example.org")
    assert f"/leagues/{league.id}" in client.get("/clubs/chess-friends").text
    outsider = sign_in(sqlite_app, "c1@example.org")
    assert outsider.get(f"/leagues/{league.id}").status_code == 404
    assert f"/leagues/{league.id}" not in outsider.get("/leagues").text

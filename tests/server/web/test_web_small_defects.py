"""Small defects a new user meets, each with its test.

- "The new-game form creates a Puerto Rico game when another game was picked
  without pressing 'Show its options'."
- "The page title reads 'pbem · pbem'."
- "A visitor who holds no seat sees 'Leave this game'."
"""

from __future__ import annotations

import re

from browser_helpers import mailbox_of, shows, sign_up
from web_helpers import form_for, post_form, signup

from server.db import db
from server.models import Game


def games_of(app) -> list[Game]:
    with app.app_context(), db.connection_context():
        return list(Game.select().order_by(Game.id))


def title_of(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()


def test_a_game_picked_without_showing_its_options_is_not_created_as_another(app):
    host = app.test_client()
    signup(host, "Ann", "ann@example.org")
    page = host.get("/games/new")  # Puerto Rico's options shown
    form = form_for(page.text, "/games/new")
    assert form["fields"]["kind"] == "puerto_rico"
    shown = post_form(
        host,
        form,
        kind="new_found_land",
        name="Ships",
        seats="3",
        move_hours="24",
        reminder_hours="",
    )
    assert games_of(app) == []  # nothing made yet
    assert "You picked Race to the New Found Land: here are its options" in shown.text
    again = form_for(shown.text, "/games/new")
    assert again["fields"]["kind"] == "new_found_land"
    assert again["fields"]["shown"] == "new_found_land"
    assert again["fields"]["name"] == "Ships"  # what was typed stays
    lobby = post_form(host, again)
    (game,) = games_of(app)
    assert game.kind == "new_found_land" and game.name == "Ships" and game.seat_count == 3
    assert lobby.request.path == f"/games/{game.id}/lobby"


def test_show_its_options_changes_nothing(app):
    host = app.test_client()
    signup(host, "Ann", "ann@example.org")
    form = form_for(host.get("/games/new").text, "/games/new")
    page = post_form(host, form, kind="new_found_land", show="1")
    assert page.status_code == 200 and games_of(app) == []
    assert "You picked" not in page.text
    assert form_for(page.text, "/games/new")["fields"]["kind"] == "new_found_land"


def test_page_titles_name_the_page_once(app):
    client = app.test_client()
    assert title_of(client.get("/login").text) == "Sign in · pbem"
    welcome = client.get("/").text
    assert title_of(welcome) in ("pbem", "Welcome · pbem")
    assert "pbem · pbem" not in welcome
    signup(client, "Ann", "ann@example.org")
    assert title_of(client.get("/games/new").text) == "New game · pbem"


def test_only_a_seated_player_is_offered_to_leave(app):
    host, guest = app.test_client(), app.test_client()
    signup(host, "Ann", "ann@example.org")
    page = host.get("/games/new")
    lobby = post_form(
        host,
        form_for(page.text, "/games/new"),
        name="Open",
        seats="3",
        move_hours="24",
        reminder_hours="",
    )
    invite = form_for(lobby.text, "/invite")
    post_form(host, invite, emails="bob@example.org")
    signup(guest, "Bob", "bob@example.org")
    path = lobby.request.path
    visitor = guest.get(path)
    assert visitor.status_code == 200 and "Join seat 2" in visitor.text
    assert "Leave this game" not in visitor.text
    joined = post_form(guest, form_for(visitor.text, "/join"), seat="2")
    assert "Leave this game" in joined.text
    assert "Leave this game" not in host.get(path).text  # the host starts or ends it


def test_in_a_browser_without_javascript_the_picked_game_is_created(live, browser, smtp, send_mail):
    app, base = live
    page = browser.new_context(java_script_enabled=False).new_page()
    sign_up(page, base, "Ann", "ann@example.org", mailbox_of(smtp, send_mail, app))
    page.get_by_role("link", name="New game").click()
    page.select_option("select[name=kind]", "new_found_land")
    page.fill("#name", "Ships ahoy")
    page.get_by_role("button", name="Create the game").click()
    shows(page, "You picked Race to the New Found Land")
    page.get_by_role("button", name="Create the game").click()
    shows(page, "Waiting for players")  # the new game's lobby
    assert "Race to the New Found Land" in page.locator("h1").inner_text()
    (game,) = games_of(app)
    assert game.kind == "new_found_land" and game.name == "Ships ahoy"

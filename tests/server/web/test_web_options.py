"""Game options through the lobby: each choice explained where it
is chosen; "/option extension" accepted as "extended"; an unknown value
refused with the allowed ones and nothing created; the players choose the
building set by turn mail and form like any move."""

from __future__ import annotations

from game_driver import Table, current_turn
from moderation_helpers import game_row, in_db
from web_helpers import csrf, form_for, move_form, post_form, signup

from server.models import Game


def host_of(app, smtp, send_mail, players=2, seed=21) -> Table:
    t = Table(app, smtp, send_mail, players, seed=seed)
    signup(t.clients[0], "Host", t.emails[0])
    t.new_mail(t.emails[0])
    return t


def test_new_game_form_explains_each_building_set(app, smtp, send_mail):
    t = host_of(app, smtp, send_mail)
    page = t.clients[0].get("/games/new?kind=puerto_rico").text
    for word in ("base", "extended", "random"):
        assert f"<b>{word}:</b>" in page  # the language's colon: "%(label)s:"
    assert "choose, one at a time from the governor" in page


def test_unknown_option_is_refused_with_the_allowed_values(app, smtp, send_mail):
    t = host_of(app, smtp, send_mail)
    host = t.clients[0]
    page = host.get("/games/new?kind=puerto_rico")
    before = in_db(app, lambda: Game.select().count())
    resp = host.post(
        "/games/new",
        data={
            "csrf_token": csrf(page.text),
            "kind": "puerto_rico",
            "name": "g",
            "seats": "2",
            "move_hours": "24",
            "reminder_hours": "",
            "option_buildings": "deluxe",
        },
    )
    assert resp.status_code == 400
    assert "base, extended, random, extension, basis" in resp.text
    assert in_db(app, lambda: Game.select().count()) == before


def test_extension_is_another_word_for_extended(app, smtp, send_mail):
    t = host_of(app, smtp, send_mail)
    host = t.clients[0]
    page = host.get("/games/new?kind=puerto_rico")
    lobby = post_form(
        host,
        form_for(page.text, "/games/new"),
        name="Ext",
        seats="2",
        move_hours="24",
        reminder_hours="",
        option_buildings="extension",
    )
    game_id = int(lobby.request.path.split("/")[2])
    assert game_row(app, game_id).options == {"buildings": "extended"}
    assert "Building set: <b>extended</b> — Expansion buildings too" in lobby.text


def test_players_choose_the_buildings_by_mail_and_form(app, smtp, send_mail):
    t = Table(app, smtp, send_mail, 2, seed=8)

    def set_up_extended():
        host = t.clients[0]
        signup(host, "Player 1", t.emails[0])
        t.new_mail(t.emails[0])
        page = host.get("/games/new?kind=puerto_rico")
        page = post_form(
            host,
            form_for(page.text, "/games/new"),
            name="Chosen set",
            seats="2",
            move_hours="24",
            reminder_hours="",
            option_buildings="extended",
        )
        t.game_id = int(page.request.path.split("/")[2])
        post_form(host, form_for(page.text, "/invite"), emails=t.emails[1])
        t.join_from_invitation(t.clients[1], t.emails[1], 1)
        page = post_form(host, form_for(host.get(f"/games/{t.game_id}/lobby").text, "/start"))
        assert "The game has started" in page.text

    set_up_extended()
    seat, client, page, mail = current_turn(t)
    assert "Building set being chosen" in page.text
    form = move_form(page.text)
    picks = [value for name, value in form["buttons"] if name == "action"]
    assert picks and all('"select"' in p for p in picks)
    after = post_form(client, form, action=picks[0])
    assert after.status_code == 200 and "What happened" in after.text
    assert game_row(app, t.game_id).seq == 1

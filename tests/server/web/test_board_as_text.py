"""A "show the board as text only" setting for those who prefer it (a
screen reader, a text browser).  Set in Settings, it drops the drawing from the game page and
past positions, for the player and for a browser that opened their seat
from a mail link; the text board stays."""

from __future__ import annotations

from web_helpers import form_for, seat_link

DRAWN = '<section class="panel'  # the drawn board (templates/play/_board.html)


def settings_with(client, **values):
    page = client.get("/settings")
    form = form_for(page.text, "/settings")
    fields = {k: v for k, v in form["fields"].items() if k != "board_as_text"}
    return client.post("/settings", data=dict(fields, **values), follow_redirects=True)


def test_text_only_drops_the_drawing_and_keeps_the_text_board(table):
    game = table.game_id
    client = table.clients[0]
    page = client.get(f"/games/{game}")
    assert DRAWN in page.text
    saved = settings_with(client, board_as_text="y")
    assert "Your settings are saved" in saved.text
    for path in (f"/games/{game}", f"/games/{game}/at/0"):
        page = client.get(path)
        assert page.status_code == 200
        assert DRAWN not in page.text
        assert "Round" in page.text  # the text board is still there
    # A browser that opened the seat from a mail link gets the player's choice.
    table.new_mail(table.emails[0])
    # The game's start (or turn) mail: every seat gets one with its link.
    mail = [
        m for m in table.smtp.to(table.emails[0]) if "/s/" in m.get_body(("plain",)).get_content()
    ][-1]
    stranger = table.app.test_client()
    page = stranger.get(seat_link(mail), follow_redirects=True)
    assert "Opened from a mail link" in page.text and DRAWN not in page.text
    settings_with(client)  # unticked: the drawing is back
    assert DRAWN in client.get(f"/games/{game}").text


def test_the_choice_is_one_players_own(table):
    settings_with(table.clients[0], board_as_text="y")
    assert DRAWN in table.clients[1].get(f"/games/{table.game_id}").text

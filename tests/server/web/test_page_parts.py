"""Parts of the game page and the turn mail written without a
template loop per row or a router build per link, with the same answers:
a board section's rows (server/mail/board_rows.py) read byte for byte as the
template loops they replaced wrote them, on the page and in the mail, for
both games, any viewer and language; the log's links to earlier positions
(web/speedups.py link_maker) are the links url_for builds, under a mount point
too; the session cookie is written when it changes, not on every request."""

from __future__ import annotations

import pytest
from clock_helpers import user
from flask import url_for
from game_driver import current_turn
from jinja2 import Environment
from web_helpers import csrf, seat_link

from engine import get_game
from server.db import db
from server.mail.board_rows import MAIL_ROW, PAGE_ROW, rows_html
from server.services.what_a_seat_sees import _said_rows
from server.web import speedups
from tests.engine.game_walks import positions

# The loops as templates/play/game.html and mail_templates/_board.html had them.
PAGE_LOOP = (
    '{% for label, value in rows %}<tr><th scope="row">{{ label }}</th>'
    "<td>{{ value }}</td></tr>{% endfor %}"
)
MAIL_LOOP = """{% for label, value in rows %}
<tr><td style="padding: 1px 6px; vertical-align: top; color: #555;">{{ label }}</td><td style="padding: 1px 6px;">{{ value }}</td></tr>
{% endfor %}
"""
PAGE = Environment(autoescape=True).from_string(PAGE_LOOP)
MAIL = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True).from_string(MAIL_LOOP)


@pytest.mark.parametrize(
    "game, players, options",
    [
        ("puerto_rico", 2, {}),
        ("puerto_rico", 4, {"buildings": "extended"}),
        ("new_found_land", 3, {}),
    ],
)
@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_a_sections_rows_read_as_the_loops_wrote_them(game, players, options, language):
    kind = get_game(game)
    names = ("<b>Ann</b> & co", "Bo", "Cy", "Di")[:players]
    checked = 0
    for state in positions(kind, players, options, seed=players, every=50):
        for viewer in (None, 0, 1):
            for section in kind.board(kind.view(state, viewer), list(names)):
                rows = _said_rows(section.rows, names, language, kind.domain)
                assert str(rows_html(rows)) == PAGE.render(rows=rows)
                # The mail's board comes as lists (the mail's values are copied).
                listed = [list(pair) for pair in rows]
                assert str(rows_html(listed, MAIL_ROW)) == MAIL.render(rows=listed)
                checked += 1
    assert checked > 20


def test_strange_words_in_a_row_stay_escaped():
    odd = "<script>\"x\" & 'y'</script>"
    rows = ((odd, odd), ("Doubloons", "3"))
    for row, loop in ((PAGE_ROW, PAGE), (MAIL_ROW, MAIL)):
        html = str(rows_html(rows, row))
        assert "<script>" not in html and html == loop.render(rows=rows)


def test_rows_that_read_alike_in_english_are_said_apart_in_german():
    """The kept HTML is found by the rows' text: two languages' rows never share it."""
    kind = get_game("puerto_rico")
    state = kind.new_game(2, {}, seed=3)
    section = kind.board(kind.view(state, 0), ["Ann", "Bo"])[0]
    english = rows_html(_said_rows(section.rows, ("Ann", "Bo"), "en", kind.domain))
    german = rows_html(_said_rows(section.rows, ("Ann", "Bo"), "de", kind.domain))
    assert english != german


@pytest.mark.parametrize("mount", ["", "/pbem"])
def test_the_log_links_are_the_links_url_for_builds(sqlite_app, mount):
    with sqlite_app.test_request_context("/games/7", base_url=f"http://pbem.example{mount}"):
        link = speedups.link_maker("records.position", "seq", game_id=7)
        for seq in (0, 1, 9, 10, 123, 7_919_000_001):
            assert link(seq) == url_for("records.position", game_id=7, seq=seq)
        assert link(5) == f"{mount}/games/7/at/5"


def test_a_value_in_the_query_string_gets_url_fors_link_too(sqlite_app):
    with sqlite_app.test_request_context("/"):
        link = speedups.link_maker("play.game", "since", game_id=3)
        assert link(4) == url_for("play.game", game_id=3, since=4) == "/games/3?since=4"


def test_a_seat_links_cookie_is_written_when_it_changes_not_on_every_page(table):
    seat, player, page, mail = current_turn(table)
    phone = table.app.test_client()
    opened = phone.get(seat_link(mail))
    assert "session=" in opened.headers.get("Set-Cookie", "")  # the link is kept in it
    first = phone.get(f"/games/{table.game_id}")  # its forms' CSRF token joins the cookie
    assert 'action="/games/%d/move"' % table.game_id in first.text
    again = phone.get(f"/games/{table.game_id}")
    assert again.status_code == 200 and 'action="/games/%d/move"' % table.game_id in again.text
    assert "Set-Cookie" not in again.headers  # nothing in it changed


def test_a_signed_in_cookie_lasts_and_is_not_signed_anew_on_every_page(sqlite_app):
    """Signing in gives a cookie that lasts as long as the session's row
    (it was a cookie of the browser's window: begin() dropped the mark).
    The row ends its lifetime after signing in whatever the cookie says
    (models.Session), so a page that changes nothing in the cookie writes
    none, and the account stays signed in."""
    with sqlite_app.app_context(), db.connection_context():
        user("ann@example.org", "Ann")
    client = sqlite_app.test_client()
    form = client.get("/login").text
    signed = client.post(
        "/login",
        data={"csrf_token": csrf(form), "email": "ann@example.org", "password": "password1"},
    )
    # The cookie outlives the browser's window: as long as the session's row.
    assert "Expires=" in signed.headers["Set-Cookie"]
    with client.session_transaction() as session:
        assert session.permanent
    assert client.get("/settings").status_code == 200
    again = client.get("/settings")
    assert again.status_code == 200 and "Sign out" in again.text
    assert "Set-Cookie" not in again.headers
    assert "Sign out" in client.get("/").text  # still signed in

"""Promised to players: "From the game log, any earlier position can be opened
(read-only, a GET that changes nothing) with the board as it stood; a
finished or running game's record can be downloaded (the event log as JSON,
and a readable text record)."  Hidden information stays hidden in both."""

from __future__ import annotations

import json
import re

from game_driver import Table
from web_helpers import text_of

from engine import get_game
from server.db import db
from server.models import Event, Game
from server.services.state_store import replay
from server.services.what_a_seat_sees import seat_names


def in_db(app, fn):
    with app.app_context(), db.connection_context():
        return fn()


def play_until_a_secret(table: Table, turns: int = 200) -> dict:
    """Turns until the log holds an event only one seat may read."""
    for _ in range(turns):
        secret = in_db(
            table.app,
            lambda: [
                (row.seq, e)
                for row in Event.select().where(Event.game == table.game_id)
                for e in row.events
                if e.get("private_to") is not None and e["text"] != e.get("public_text")
            ],
        )
        if secret:
            return secret[0][1]
        mails = {email: table.new_mail(email) for email in table.emails}
        turn = [(e, m) for e, ms in mails.items() for m in ms if "It is your turn in" in text_of(m)]
        email, mail = turn[-1]
        table.take_turn(email, mail)
    raise AssertionError("no private event came up")


def test_records_and_past_positions_show_only_what_the_viewer_may_see(app, smtp, send_mail):
    table = Table(app, smtp, send_mail, 3, seed=4, kind="new_found_land")
    table.set_up("Records")
    secret = play_until_a_secret(table)
    owner, other = secret["private_to"], (secret["private_to"] + 1) % 3
    names = in_db(app, lambda: seat_names(Game.get_by_id(table.game_id)))
    private = secret["text"].replace("{s%d}" % owner, names[owner])
    mine = table.clients[owner].get(f"/games/{table.game_id}/record.txt")
    theirs = table.clients[other].get(f"/games/{table.game_id}/record.txt")
    assert mine.status_code == theirs.status_code == 200
    assert private in mine.text and private not in theirs.text
    data = json.loads(table.clients[other].get(f"/games/{table.game_id}/record.json").data)
    assert data["players"] == names and private not in json.dumps(data, ensure_ascii=False)
    assert all(set(row) == {"seq", "text"} for row in data["log"])  # no raw actions

    game = in_db(app, lambda: Game.get_by_id(table.game_id))
    seq = game.seq // 2
    before = in_db(app, lambda: (Event.select().count(), Game.get_by_id(game.id).seq))
    page = table.clients[other].get(f"/games/{game.id}/at/{seq}")
    assert page.status_code == 200 and f"after log #{seq}" in page.text
    rules = get_game("new_found_land")
    state = in_db(app, lambda: replay(game, upto=seq))
    for section in rules.board(rules.view(state, other), names):
        for label, value in section.rows:
            assert str(value).replace("&", "&amp;").replace("'", "&#39;") in page.text, label
    assert "Your turn" not in page.text and 'action="/games' not in page.text
    assert in_db(app, lambda: (Event.select().count(), Game.get_by_id(game.id).seq)) == before


def test_bad_positions_and_strangers_get_clear_answers(app, smtp, send_mail):
    table = Table(app, smtp, send_mail, 2, seed=5)
    table.set_up("Bad")
    client = table.clients[0]
    game = in_db(app, lambda: Game.get_by_id(table.game_id))
    for path in (
        f"/games/{game.id}/at/{game.seq + 1}",
        f"/games/{game.id}/at/-1",
        f"/games/{game.id}/at/x",
        f"/games/{game.id}/at/{10**30}",
        f"/games/{game.id + 50}/record.json",
        f"/games/{game.id + 50}/log",
        f"/games/{10**30}/log",
        "/games/-1/log",
        "/games/x/log",
    ):
        assert client.get(path).status_code == 404, path
    assert client.post(f"/games/{game.id}/log").status_code == 405
    stranger = app.test_client()
    for path in (f"/games/{game.id}/record.json", f"/games/{game.id}/log"):
        answer = stranger.get(path)
        assert answer.status_code == 302 and "/login" in answer.headers["Location"], path
    assert client.get(f"/games/{game.id}/at/0").status_code == 200


def test_the_game_page_draws_the_board_from_the_viewers_seat(app, smtp, send_mail):
    """A drawn board, no script; the text board stays
    below it for screen readers and text browsers.  The drawing is
    HTML that reflows (templates/play/_board.html) instead of an
    SVG that shrank its words on a phone; the viewer's own panel first."""
    table = Table(app, smtp, send_mail, 3, seed=6)
    table.set_up("Drawn")
    page = table.clients[1].get(f"/games/{table.game_id}").text
    drawing = page.split('<div class="board', 1)[1].split('<div class="sections">', 1)[0]
    assert "<script" not in drawing and "<svg" not in page
    assert drawing.index("Player 2 (you)") < drawing.index("Player 1")
    assert page.index('class="panel') < page.index('class="board-section"')
    position = table.clients[1].get(f"/games/{table.game_id}/at/0").text
    assert '<section class="panel mine seat-1">' in position


def test_the_whole_log_has_its_own_page_and_the_game_page_the_last_lines(app, smtp, send_mail):
    """The game page shows the last lines, each opening its position; the
    whole log page shows every line the viewer may read, with the same
    links, and changes nothing."""
    table = Table(app, smtp, send_mail, 3, seed=4, kind="new_found_land")
    table.set_up("Whole log")
    secret = play_until_a_secret(table)
    owner, other = secret["private_to"], (secret["private_to"] + 1) % 3
    game = in_db(app, lambda: Game.get_by_id(table.game_id))
    names = in_db(app, lambda: seat_names(game))
    private = secret["text"].replace("{s%d}" % owner, names[owner])
    before = in_db(app, lambda: (Event.select().count(), Game.get_by_id(game.id).seq))
    mine = table.clients[owner].get(f"/games/{game.id}/log").text
    theirs = table.clients[other].get(f"/games/{game.id}/log").text
    assert private in mine and private not in theirs
    positions = re.findall(rf'href="/games/{game.id}/at/(\d+)"', mine)
    assert len(positions) >= game.seq // 2 and max(map(int, positions)) == game.seq
    page = table.clients[other].get(f"/games/{game.id}").text
    shown = re.findall(rf'<li value="\d+"><a href="/games/{game.id}/at/(\d+)"', page)
    assert 0 < len(shown) <= 15 and f'href="/games/{game.id}/log"' in page
    assert in_db(app, lambda: (Event.select().count(), Game.get_by_id(game.id).seq)) == before
    assert app.test_client().get(f"/games/{game.id}/log").status_code in (302, 401)

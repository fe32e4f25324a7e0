"""Issue 25, item 5: honest answers under faults.  A database that is gone,
full or read-only gives a 503 page that says so (in the reader's language);
"nothing was changed" only when that is known; a COMMIT whose answer is lost
gives a page that says the move may have been saved and links the game,
where sending the form again is refused as stale."""
from __future__ import annotations

import pytest
from clock_helpers import sign_in, started_game, to_move
from conftest import PG_URL, free_port, make_app
from fault_helpers import CommitCutter
from web_helpers import move_form, post_form

from server import create_app
from server.db import db
from server.models import Event

CONFIG = {"SECRET_KEY": "test-secret", "TESTING": True, "PUBLIC_BASE_URL": "http://localhost",
          "DATABASE_POOL_MAX": 0, "OUTAGE_GRACE_SECONDS": 0}


def signed_in_move(app, game_id: int):
    """(client, move form) of the seat to move, signed in on ``app``."""
    seat = to_move(app, game_id)
    with app.app_context(), db.connection_context():
        email = seat.user.email
    client = sign_in(app, email)
    page = client.get(f"/games/{game_id}")
    form = move_form(page.text)
    assert form is not None, page.text
    action = next(v for name, v in form["buttons"] if name == "action")
    return client, form, action


def moves_played(app, game_id: int) -> int:
    with app.app_context(), db.connection_context():
        return Event.select().where((Event.game == game_id) & (Event.actor == "player")).count()


def test_a_read_only_sqlite_file_gives_a_503_that_says_so(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path)
    game = started_game(app, tag="ro")
    client, form, action = signed_in_move(app, game.id)
    readonly = create_app(dict(CONFIG, DATABASE_URL=f"{sqlite_url}?mode=ro",
                               INSTANCE_PATH=str(tmp_path / "ro"), SMTP_PORT=smtp.port))
    visitor = readonly.test_client()
    visitor.set_cookie("session", client.get_cookie("session").value, domain="localhost")
    # Reading still works from a read-only file.
    assert visitor.get(f"/games/{game.id}").status_code == 200
    page = visitor.post(form["action"], data=dict(form["fields"], action=action))
    assert page.status_code == 503, page.text
    assert page.headers["Retry-After"] == "30"
    assert "The database is read-only at the moment" in page.text
    assert "Nothing was changed." in page.text
    assert f"/games/{game.id}" in page.text
    dutch = visitor.post(form["action"], data=dict(form["fields"], action=action),
                         headers={"Accept-Language": "nl"})
    assert dutch.status_code == 503
    assert "De database is op dit moment alleen-lezen" in dutch.text, dutch.text
    assert moves_played(app, game.id) == 0


def test_an_unreachable_postgresql_gives_a_503_that_says_so(tmp_path):
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/test?connect_timeout=2"
    app = create_app(dict(CONFIG, DATABASE_URL=url, INSTANCE_PATH=str(tmp_path)))
    client = app.test_client()
    # Pages that need no database still answer.
    assert client.get("/login").status_code == 200
    for path in ("/games/1", "/games/1/log"):
        page = client.get(path, headers={"Accept-Language": "de"})
        assert page.status_code == 503, (path, page.text)
        assert "Die Datenbank ist im Moment nicht erreichbar." in page.text, page.text
        assert "Traceback" not in page.text and "postgres" not in page.text


@pytest.mark.postgres
def test_a_commit_whose_answer_is_lost_says_the_move_may_be_saved(pg_url, smtp, tmp_path):
    cutter = CommitCutter(("127.0.0.1", 5432))
    try:
        proxied = pg_url.replace("127.0.0.1:5432", f"127.0.0.1:{cutter.port}")
        assert proxied != pg_url and pg_url.startswith(PG_URL)
        app = make_app(proxied, smtp, tmp_path)
        game = started_game(app, tag="cut")
        client, form, action = signed_in_move(app, game.id)
        cutter.arm()
        page = client.post(form["action"], data=dict(form["fields"], action=action))
        assert cutter.cuts == 1
        assert page.status_code == 503, page.text
        assert "Your change may have been saved" in page.text
        assert "Nothing was changed" not in page.text and "nothing was changed" not in page.text
        assert f'href="/games/{game.id}"' in page.text
        # It was saved: the game has the move, and the same form again is stale.
        assert moves_played(app, game.id) == 1
        again = client.post(form["action"], data=dict(form["fields"], action=action))
        assert again.status_code == 409, again.text
        assert moves_played(app, game.id) == 1
    finally:
        cutter.close()

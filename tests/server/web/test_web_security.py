"""CSRF, cookies, seat scoping, bad input: clear pages, never a 500."""

from __future__ import annotations

import pytest
from game_driver import current_turn, db_state
from web_helpers import csrf, form_for, move_form, post_form, signup

from server import create_app
from server.mail.compose import clean_header


def test_move_without_csrf_token_is_refused(table):
    seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    before = db_state(table.app, table.game_id)
    data = dict(form["fields"], action=form["buttons"][0][1])
    del data["csrf_token"]
    resp = client.post(form["action"], data=data)
    assert resp.status_code == 400 and "form is out of date" in resp.text
    resp = client.post(form["action"], data=dict(data, csrf_token="forged"))
    assert resp.status_code == 400
    assert db_state(table.app, table.game_id) == before


def test_csrf_token_from_another_session_is_refused(table):
    seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    other = table.app.test_client()
    signup(other, "Mallory", "mallory@example.org")
    resp = other.post(form["action"], data=dict(form["fields"], action=form["buttons"][0][1]))
    assert resp.status_code in (400, 403)
    assert "Server error" not in resp.text


def test_old_form_still_works_days_later(table):
    """WTF_CSRF_TIME_LIMIT=None: the token is bound to the session, not a clock."""
    assert table.app.config["WTF_CSRF_TIME_LIMIT"] is None
    seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    import time
    from unittest import mock

    with mock.patch("time.time", return_value=time.time() + 5 * 24 * 3600):
        assert post_form(client, form, action=form["buttons"][0][1]).status_code == 200


def test_a_non_player_cannot_move(table):
    seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    outsider = table.app.test_client()
    own = signup(outsider, "Eve", "eve@example.org")
    before = db_state(table.app, table.game_id)
    resp = outsider.post(
        form["action"],
        data={
            "csrf_token": csrf(own.text),
            "seq": form["fields"]["seq"],
            "action": form["buttons"][0][1],
        },
    )
    assert resp.status_code == 403
    assert db_state(table.app, table.game_id) == before


@pytest.mark.parametrize(
    "action",
    [
        '{"type": "nonsense"}',
        "[1, 2]",
        "not json",
        "",
        '{"type": "role", "role": "king"}',
        "1" * 3000,
    ],
)
def test_tampered_actions_are_refused(table, action):
    seat, client, page, _ = current_turn(table)
    form = move_form(page.text)
    before = db_state(table.app, table.game_id)
    resp = post_form(client, form, action=action)
    assert resp.status_code == 400, resp.text
    assert "Nothing was changed" in resp.text
    assert db_state(table.app, table.game_id) == before


@pytest.mark.parametrize(
    "path",
    [
        "/games/999999",
        "/games/999999/lobby",
        "/nowhere",
        "/games/abc",
        "/j/garbage",
        "/l/garbage",
        "/s/garbage",
    ],
)
def test_unknown_things_give_clear_pages(table, path):
    resp = table.clients[0].get(path)
    assert resp.status_code in (404, 410)
    assert "<h1>" in resp.text


def test_posts_to_unknown_game_and_garbage_fields(table):
    client = table.clients[0]
    token = csrf(client.get("/").text)
    for path in (
        "/games/999999/move",
        "/games/999999/join",
        "/games/999999/start",
        f"/games/{table.game_id}/join",
        f"/games/{table.game_id}/start",
        f"/games/{table.game_id}/option",
        f"/games/{table.game_id}/invite",
    ):
        for data in (
            {"csrf_token": token},
            {
                "csrf_token": token,
                "seat": "x",
                "seq": "-1",
                "action": "{",
                "name": "a\nb",
                "value": "\x00",
            },
        ):
            resp = client.post(path, data=data)
            assert 400 <= resp.status_code < 500, (path, resp.status_code)


def test_cookie_settings_by_default(tmp_path, sqlite_url):
    # Secure follows PUBLIC_BASE_URL (test_security_headers.py): https here.
    app = create_app(
        {
            "DATABASE_URL": sqlite_url,
            "INSTANCE_PATH": str(tmp_path / "i"),
            "SECRET_KEY": "x",
            "PUBLIC_BASE_URL": "https://pbem.example.org",
        }
    )
    assert app.config["SESSION_COOKIE_SECURE"] and app.config["SESSION_COOKIE_HTTPONLY"]
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert app.config["REMEMBER_COOKIE_DURATION"].days == 30
    from server.db import migrate

    migrate()
    client = app.test_client()
    # The sign-up page sets the session cookie (it holds the form's CSRF token).
    cookie = client.get("/signup", base_url="https://localhost").headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_logout_everywhere_invalidates_copied_cookie(table):
    client = table.clients[1]
    copy = table.app.test_client()
    cookie = client.get_cookie("session")
    copy.set_cookie("session", cookie.value)
    assert copy.get("/").status_code == 200 and "Your games" in copy.get("/").text
    page = client.get("/")
    post_form(client, form_for(page.text, "/logout-everywhere"))
    assert "Your games" not in copy.get("/").text


def test_header_injection_is_stripped():
    assert "\n" not in clean_header("Hi\r\nBcc: x@example.org")
    assert "=?" not in clean_header("=?utf-8?q?x=0ABcc:_y?=")


def test_game_name_cannot_inject_headers(app, smtp, send_mail):
    from game_driver import Table

    t = Table(app, smtp, send_mail, 2, seed=3)
    t.set_up(game_name="Evil =?utf-8?q?=0ABcc:_x@evil.org?=")
    for email in t.emails:
        for m in smtp.to(email):
            assert m["Bcc"] is None
    assert not smtp.to("x@evil.org")

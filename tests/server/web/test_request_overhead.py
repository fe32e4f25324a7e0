"""What every request pays made cheaper, with the same answers:
a seat link's seat and the browser's session read in one statement (and a
session ended elsewhere still stops the next request), the CSRF token's
input written directly (the same HTML), the browser's language remembered
per Accept-Language header, Flask-Limiter's hooks skipped where no limit
can apply, Flask's async check remembered per function."""

from __future__ import annotations

import asyncio
import base64
import json

import pytest
from game_driver import current_turn
from web_helpers import form_for, seat_link
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from wtforms.widgets import HiddenInput

from server.db import db
from server.i18n import DEFAULT, LANGUAGES
from server.models import BrowserSession


class Statements:
    """Counts the statements the database runs while it is in a ``with``."""

    def __init__(self, monkeypatch):
        self.count = 0
        original = db.obj.execute_sql

        def counted(sql, params=None, *args, **kwargs):
            self.count += 1
            return original(sql, params, *args, **kwargs)

        monkeypatch.setattr(db.obj, "execute_sql", counted)


def test_a_seat_link_reads_its_seat_and_the_session_in_one_statement(table, monkeypatch):
    seat, player, page, mail = current_turn(table)
    phone = table.app.test_client()
    assert phone.get(seat_link(mail)).status_code == 302  # the session begins here
    statements = Statements(monkeypatch)
    again = phone.get(seat_link(mail))
    assert again.status_code == 302 and again.headers["Location"] == f"/games/{table.game_id}"
    assert statements.count == 1
    assert 'action="/games/%d/move"' % table.game_id in phone.get(again.headers["Location"]).text


def test_a_session_ended_elsewhere_stops_the_next_move_at_once(table):
    """Another worker (or the database by hand) ends the session: the move,
    whose seat and session are read together, is refused."""
    gid = table.game_id
    seat, player, page, mail = current_turn(table)
    phone = table.app.test_client()
    phone.get(seat_link(mail))
    move = form_for(phone.get(f"/games/{gid}").text, "/move")
    with table.app.app_context(), db.connection_context():
        BrowserSession.delete().execute()
    before = table.game().seq
    refused = phone.post(move["action"], data=dict(move["fields"], action=move["buttons"][0][1]))
    assert refused.status_code == 403 and table.game().seq == before


def forged(token: str, **changes) -> str:
    """``token`` with its payload changed and its signature kept."""
    payload, rest = token.split(".", 1)
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data.update(changes)
    text = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(text).decode().rstrip("=") + "." + rest


def test_a_payload_changed_to_name_another_seat_opens_nothing(table):
    """A changed token is refused by its signature (mail/links.py) before
    any seat is read, whatever it names: a 404, never a 500."""
    seat, player, page, mail = current_turn(table)
    token = seat_link(mail).removeprefix("/s/")
    other = (seat + 1) % 3
    stranger = table.app.test_client()
    for bad in (
        forged(token, s=other),
        forged(token, s=99),
        forged(token, g=10**30),  # more than a column holds: not a 500
        forged(token, s=-(10**30)),
        forged(token, g="1"),
        "." + token,  # a compressed payload
        "nothing-here",
        token + "x",
    ):
        answer = stranger.get(f"/s/{bad}")
        assert answer.status_code == 404, bad
        assert not stranger.get(f"/games/{table.game_id}").status_code == 200
    assert stranger.get(f"/s/{token}").status_code == 302  # the real one works


def test_the_token_input_is_the_html_wtforms_writes(sqlite_app):
    from server.web.forms import EmptyForm, MoveForm, TokenInput

    with sqlite_app.test_request_context("/"):
        for form in (EmptyForm(), MoveForm(), EmptyForm(prefix="p")):
            field = form.csrf_token
            assert isinstance(field.widget, TokenInput)
            assert str(field) == str(HiddenInput()(field))
            assert field() == HiddenInput()(field)
            assert field(class_="x") == HiddenInput()(field, class_="x")
        assert 'value="' in str(EmptyForm().csrf_token)


@pytest.mark.parametrize(
    "header",
    [None, "", "de", "nl-BE,nl;q=0.9,en;q=0.5", "fr;q=0.1, de;q=0.9", "xx, *", "ja", "EN-gb"],
)
def test_the_browser_language_is_what_werkzeug_chooses(sqlite_app, header):
    from server.web.languages import browser_language, page_language

    expected = parse_accept_header(header, LanguageAccept).best_match(
        list(LANGUAGES), default=DEFAULT
    )
    assert browser_language(header) == expected
    headers = {"Accept-Language": header} if header is not None else {}
    with sqlite_app.test_request_context("/", headers=headers):
        assert page_language() == expected


def test_the_limiter_hook_runs_only_where_a_route_wide_limit_may_apply(sqlite_app):
    from server.web.rate_limits import limiter

    with sqlite_app.test_request_context("/"):
        sqlite_app.preprocess_request()
        assert not limiter.may_apply_here()
    # The API counts its limits itself, after the token is known
    # (web/api/auth.py), so no blueprint-wide limit is left for the hook.
    with sqlite_app.test_request_context("/api/v1/games"):
        assert not limiter.may_apply_here()


def test_async_functions_are_still_run_to_completion(sqlite_app):
    async def answer():
        await asyncio.sleep(0)
        return 42

    def plain():
        return 1

    assert sqlite_app.ensure_sync(plain) is plain
    for _ in range(2):  # the second answer comes from the cache
        try:
            import asgiref  # noqa: F401
        except ImportError:  # Flask's async extra: without it Flask refuses to run one
            with pytest.raises(RuntimeError, match="async"):
                sqlite_app.ensure_sync(answer)
        else:
            assert sqlite_app.ensure_sync(answer)() == 42


def test_the_session_cookie_follows_a_new_secret_key(sqlite_app):
    """The signing serializer is made once per secret key: a new key (the
    old one a fallback) still reads the cookie, and without the fallback
    the old cookie is worth nothing."""
    client = sqlite_app.test_client()
    client.get("/")
    with client.session_transaction() as session:
        session["probe"] = "kept"
    sqlite_app.config["SECRET_KEY_FALLBACKS"] = [sqlite_app.secret_key]
    sqlite_app.secret_key = "a-new-secret"
    with client.session_transaction() as session:
        assert session.get("probe") == "kept"
    sqlite_app.config["SECRET_KEY_FALLBACKS"] = []
    with client.session_transaction() as session:
        assert "probe" not in session


def test_security_headers_are_added_once_and_never_over_a_page_of_its_own(sqlite_app):
    from flask import Response

    from server.web.protection import HEADERS, add_security_headers

    plain = add_security_headers(Response("x"))
    assert [plain.headers.getlist(name) for name in HEADERS] == [[v] for v in HEADERS.values()]
    own = Response("x", headers={"content-security-policy": "default-src 'self'"})
    add_security_headers(own)
    assert own.headers.getlist("Content-Security-Policy") == ["default-src 'self'"]
    assert own.headers["X-Frame-Options"] == "DENY"

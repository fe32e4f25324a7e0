"""The open API.  Whole games played by API clients
(examples/api_bot.py against a real server), hidden information, tokens
(scopes, expiry, revocation, made and revoked in Settings), bot accounts."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from api_helpers import account, bearer, open_game
from conftest import free_port, make_app, serving
from secrets_check import forbidden_for
from web_helpers import csrf, form_for

from server.db import db
from server.models import AccountNote, ApiToken, Game, Snapshot, User
from server.services import api_tokens, games
from server.services.state_store import replay, rules

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "examples"))
from api_bot import ApiBot  # noqa: E402 (examples/ is put on the path just above)


def serve(url, smtp, tmp_path):
    return serving(
        lambda base: make_app(
            url,
            smtp,
            tmp_path,
            PUBLIC_BASE_URL=base,
            TESTING=False,
            API_WAIT_MAX_SECONDS=2,
            API_WAIT_POLL_SECONDS=0.1,
            RATELIMIT_API_PER_TOKEN="100000 per minute",
        )
    )


@pytest.fixture
def served(sqlite_url, smtp, tmp_path):
    with serve(sqlite_url, smtp, tmp_path) as s:
        yield s


@pytest.fixture
def served_on(db_url, smtp, tmp_path):
    """On SQLite and on PostgreSQL."""
    with serve(db_url, smtp, tmp_path) as s:
        yield s


def table_of_bots(app, base: str, kind: str, players: int = 3):
    """A host and bots, each with a token; the bots join by the API as
    invited accounts and the host starts the game by the API."""
    host, host_token = account(app, "host@example.org", "Host", is_bot=True)
    others = [
        account(app, f"bot{i}@example.org", f"Bot {i}", is_bot=True) for i in range(1, players)
    ]
    game_id = open_game(
        app, host, players, kind, invite=tuple(f"bot{i}@example.org" for i in range(1, players))
    )
    for i, (_, token) in enumerate(others, start=1):
        listed = httpx.get(f"{base}/api/v1/lobby", headers=bearer(token)).json()["games"]
        assert [g["id"] for g in listed] == [game_id]
        joined = httpx.post(
            f"{base}/api/v1/lobby/{game_id}/join", json={"seat": i + 1}, headers=bearer(token)
        )
        assert joined.status_code == 200 and joined.json()["my_seat"] == i + 1, joined.text
    started = httpx.post(f"{base}/api/v1/lobby/{game_id}/start", headers=bearer(host_token))
    assert started.status_code == 200 and started.json()["status"] == "active", started.text
    return game_id, [host_token] + [t for _, t in others]


def assert_view_hides(app, game_id: int, seat: int, view: dict) -> int:
    """The API answer of ``seat`` holds no other seat's board rows or private log texts."""
    rows, texts = forbidden_for(app, game_id, seat)
    board = {s["title"]: {(r["label"], r["value"]) for r in s["rows"]} for s in view["board"]}
    for title, label, value in rows:
        assert (label, value) not in board.get(title, set()), (
            f"seat {seat + 1} sees {title}/{label}"
        )
    whole = json.dumps(view, ensure_ascii=False)
    for text in texts:
        assert json.dumps(text, ensure_ascii=False)[1:-1] not in whole
    return len(rows) + len(texts)


def check_hidden_while_playing(app, base, game_id, tokens, rounds: int = 12) -> list:
    """A few rounds by API bots; after each, every seat's API answer is
    checked against what the other seats see differently."""
    bots = [ApiBot(base, token, seed=i) for i, token in enumerate(tokens)]
    checked = 0
    for _ in range(rounds):
        for bot in bots:
            bot.play_turn(game_id)
        for seat, token in enumerate(tokens):
            view = httpx.get(f"{base}/api/v1/games/{game_id}", headers=bearer(token)).json()
            assert view["my_seat"] == seat + 1
            assert view["view"]["viewer"] == seat  # the engine's view for this seat
            checked += assert_view_hides(app, game_id, seat, view)
    assert checked > 0  # there was something to hide
    assert sum(bot.moves for bot in bots) >= rounds
    return bots


def play_to_the_end(bots, game_id: int) -> None:
    """Every bot on a thread of its own, waiting for its turns by the long poll."""
    errors = []

    def run(bot):
        try:
            bot.run(game_id, wait=2)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(bot,)) for bot in bots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(240)
    for bot in bots:
        bot.close()
    assert not errors, errors


def assert_finished_and_replayed(app, base, game_id, token, players: int) -> None:
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        assert game.status == "finished"
        assert rules(game).to_json(replay(game)) == Snapshot.get(Snapshot.game == game_id).state
    final = httpx.get(f"{base}/api/v1/games/{game_id}", headers=bearer(token)).json()
    assert final["status"] == "finished" and final["legal_moves"] == []
    assert len(final["result"]) == players and any(r["winner"] for r in final["result"])


def test_puerto_rico_by_api_bots_hides_what_each_seat_may_not_see(served):
    app, base = served
    game_id, tokens = table_of_bots(app, base, "puerto_rico")
    for bot in check_hidden_while_playing(app, base, game_id, tokens):
        bot.close()


@pytest.mark.postgres
def test_a_whole_game_by_api_bots_on_gunicorn_and_postgresql(pg_url, smtp, tmp_path):
    """The shipped gunicorn config with threads (the README's advice for a
    site with bots: each long poll holds a thread), on PostgreSQL."""
    app = make_app(pg_url, smtp, tmp_path)
    port = free_port()
    env = dict(
        os.environ,
        DATABASE_URL=pg_url,
        PBEM_INSTANCE=str(tmp_path / "instance"),
        SECRET_KEY="test-secret",
        SMTP_PORT=str(smtp.port),
        PBEM_WORKERS="2",
        PBEM_THREADS="4",
        API_WAIT_MAX_SECONDS="2",
        API_WAIT_POLL_SECONDS="0.1",
        RATELIMIT_API_PER_TOKEN="100000 per minute",
        PBEM_ACCESS_LOG="/dev/null",
    )
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "config/gunicorn.conf.py",
            "--bind",
            f"127.0.0.1:{port}",
            "server.wsgi:app",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):  # the workers may still be starting
            try:
                httpx.get(f"{base}/healthz")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        game_id, tokens = table_of_bots(app, base, "new_found_land", players=2)  # CI time
        bots = check_hidden_while_playing(app, base, game_id, tokens, rounds=3)
        play_to_the_end(bots, game_id)
        assert sum(bot.moves for bot in bots) > 20
        assert_finished_and_replayed(app, base, game_id, tokens[0], players=2)
    finally:
        web.terminate()
        web.wait(30)


def test_stale_and_illegal_moves_answer_problems_with_the_page_messages(served_on):
    app, base = served_on
    game_id, tokens = table_of_bots(app, base, "puerto_rico")
    first = httpx.get(f"{base}/api/v1/games/{game_id}", headers=bearer(tokens[0])).json()
    player = tokens[first["to_move"] - 1]
    view = httpx.get(f"{base}/api/v1/games/{game_id}", headers=bearer(player)).json()
    move = {"seq": view["seq"], "action": view["legal_moves"][0]["action"]}
    assert (
        httpx.post(
            f"{base}/api/v1/games/{game_id}/moves", json=move, headers=bearer(player)
        ).status_code
        == 200
    )
    stale = httpx.post(f"{base}/api/v1/games/{game_id}/moves", json=move, headers=bearer(player))
    assert stale.status_code == 409
    assert stale.headers["content-type"] == "application/problem+json"
    assert stale.json()["detail"] == "The game has moved on since this page was made."
    illegal = httpx.post(
        f"{base}/api/v1/games/{game_id}/moves",
        json={"seq": view["seq"] + 1, "action": {"type": "nonsense"}},
        headers=bearer(player),
    )
    assert illegal.status_code == 400
    assert illegal.json()["detail"] == "That move is not one of the moves you may make now."
    # In the owner's language, like the pages.
    with app.app_context(), db.connection_context():
        User.update(language="de").execute()
    german = httpx.post(f"{base}/api/v1/games/{game_id}/moves", json=move, headers=bearer(player))
    assert german.status_code == 409 and german.json()["detail"] != stale.json()["detail"]
    # Board, prompt and legal moves in the owner's language too.
    mover = tokens[view_of(base, game_id, tokens[0])["to_move"] - 1]
    deutsch = view_of(base, game_id, mover)
    with app.app_context(), db.connection_context():
        User.update(language="en").execute()
    english = view_of(base, game_id, mover)
    assert deutsch["prompt"] != english["prompt"]
    assert [m["label"] for m in deutsch["legal_moves"]] != [
        m["label"] for m in english["legal_moves"]
    ]
    assert [s["title"] for s in deutsch["board"]] != [s["title"] for s in english["board"]]


def view_of(base, game_id, token) -> dict:
    return httpx.get(f"{base}/api/v1/games/{game_id}", headers=bearer(token)).json()


def test_token_scopes_expiry_revocation_and_no_cookies(served):
    app, base = served
    _, reader = account(app, "reader@example.org", "Reader", scopes=("read",))
    mod_id, mod_token = account(app, "mod@example.org", "Mod", is_moderator=True)
    game_id, _ = table_of_bots(app, base, "puerto_rico")
    assert httpx.get(f"{base}/api/v1/me", headers=bearer(reader)).status_code == 200
    refused = httpx.post(
        f"{base}/api/v1/lobby/{game_id}/join", json={"seat": 1}, headers=bearer(reader)
    )
    assert refused.status_code == 403 and "lobby" in refused.json()["detail"]
    assert (
        httpx.post(
            f"{base}/api/v1/games/{game_id}/talk", json={"text": "hi"}, headers=bearer(reader)
        ).status_code
        == 403
    )
    # A moderator's token reads no table talk of a game it does not play in.
    assert (
        httpx.get(f"{base}/api/v1/games/{game_id}/talk", headers=bearer(mod_token)).status_code
        == 403
    )
    # Expired and revoked tokens, and no token at all, are 401 problems.
    with app.app_context(), db.connection_context():
        ApiToken.update(expires_at=dt.datetime(2000, 1, 1)).where(ApiToken.user == mod_id).execute()
    expired = httpx.get(f"{base}/api/v1/me", headers=bearer(mod_token))
    assert expired.status_code == 401 and expired.headers["www-authenticate"] == "Bearer"
    # A signed-in browser's cookies authenticate nothing in the API.
    browser = httpx.Client(base_url=base)
    try:
        tokens_in_settings(app, base, browser, game_id)
    finally:
        browser.close()


def tokens_in_settings(app, base, browser, game_id):
    page = browser.get("/login")
    with app.app_context(), db.connection_context():
        from werkzeug.security import generate_password_hash

        User.update(password_hash=generate_password_hash("correct horse")).where(
            User.email == "reader@example.org"
        ).execute()
    browser.post(
        "/login",
        data={
            "csrf_token": csrf(page.text),
            "email": "reader@example.org",
            "password": "correct horse",
        },
    )
    assert browser.get("/settings").status_code == 200  # signed in
    assert browser.get("/api/v1/me").status_code == 401
    assert browser.post(f"/api/v1/lobby/{game_id}/leave").status_code == 401
    # Settings: make a token (shown once), use it, revoke it.
    page = browser.get("/settings")
    form = form_for(page.text, "/settings/tokens")
    made = browser.post(
        "/settings/tokens",
        data=dict(form["fields"], name="my bot", scopes=["read", "play"], days="30"),
    )
    assert made.status_code == 200
    token = made.text.split('id="new-token"')[1].split('value="')[1].split('"')[0]
    assert token.startswith("pbem_") and token not in browser.get("/settings").text
    me = httpx.get(f"{base}/api/v1/me", headers=bearer(token)).json()
    assert me["token"] == {
        "name": "my bot",
        "scopes": ["read", "play"],
        "expires_at": me["token"]["expires_at"],
    }
    with app.app_context(), db.connection_context():
        row = ApiToken.get(ApiToken.name == "my bot")
        assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert row.last_used_at is not None
        # Nobody revokes another account's token.
        assert not api_tokens.revoke(User.get(User.email == "mod@example.org"), row.id)
    page = browser.get("/settings")
    revoke = form_for(page.text, f"/settings/tokens/{row.id}/revoke")
    assert browser.post(revoke["action"], data=revoke["fields"]).status_code == 302
    assert httpx.get(f"{base}/api/v1/me", headers=bearer(token)).status_code == 401


def test_a_moderator_marks_a_bot_account_on_the_record(served):
    app, base = served
    program, _ = account(app, "program@example.org", "Program")
    with app.app_context(), db.connection_context():
        from werkzeug.security import generate_password_hash

        mod = User.create(
            email="mod@example.org",
            name="Mod",
            is_moderator=True,
            password_hash=generate_password_hash("correct horse"),
            email_verified_at=dt.datetime(2026, 1, 1),
        )
    game_id = open_game(app, mod.id, 2)
    with app.app_context(), db.connection_context():
        games.join(game_id, User.get_by_id(program), 1)
    with httpx.Client(base_url=base) as browser:
        mark_as_bot(browser)
        # Seated like a person; the lobby says it is a bot.
        assert "Program (a bot)" in browser.get(f"/games/{game_id}/lobby").text
    with app.app_context(), db.connection_context():
        program = User.get(User.email == "program@example.org")
        note = AccountNote.get(AccountNote.user == program.id)
        assert program.is_bot and note.action == "bot" and note.reason == "plays by the API"


def mark_as_bot(browser):
    page = browser.get("/login")
    browser.post(
        "/login",
        data={
            "csrf_token": csrf(page.text),
            "email": "mod@example.org",
            "password": "correct horse",
        },
    )
    page = browser.get("/moderation/moderators")
    form = form_for(page.text, "/moderation/bots")
    done = browser.post(
        "/moderation/bots",
        follow_redirects=True,
        data=dict(
            form["fields"],
            **{
                "bot-email": "program@example.org",
                "bot-is_bot": "yes",
                "bot-reason": "plays by the API",
            },
        ),
    )
    assert "Program is marked as a bot." in done.text


def test_each_token_has_its_own_rate_limit(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path, RATELIMIT_API_PER_TOKEN="3 per minute")
    _, first = account(app, "first@example.org", "First")
    _, second = account(app, "second@example.org", "Second")
    client = app.test_client()
    assert [client.get("/api/v1/me", headers=bearer(first)).status_code for _ in range(4)] == [
        200,
        200,
        200,
        429,
    ]
    limited = client.get("/api/v1/games", headers=bearer(first))
    assert limited.status_code == 429 and limited.content_type == "application/problem+json"
    assert client.get("/api/v1/me", headers=bearer(second)).status_code == 200

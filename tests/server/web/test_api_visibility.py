"""The API shows a game to exactly those who may see its page: a private
game (practice or not) is not there for a stranger or a player of another
game, as if it never was, whatever they ask of it; its players, its host
and the moderators see it.  Every API route that names a game is walked."""

from __future__ import annotations

import pytest
from api_helpers import account, bearer
from web_helpers import csrf
from werkzeug.security import generate_password_hash

from server.db import db
from server.models import User
from server.services import games

MISSING = 999_999

# Every API route that takes a game id: (method, path, JSON body).
ROUTES = [
    ("GET", "/api/v1/games/{id}?since=0", None),
    ("GET", "/api/v1/games/{id}", None),
    ("POST", "/api/v1/games/{id}/moves", {"seq": 0, "action": {"type": "pass"}}),
    ("GET", "/api/v1/games/{id}/talk", None),
    ("POST", "/api/v1/games/{id}/talk", {"text": "hello"}),
    ("POST", "/api/v1/lobby/{id}/join", {"seat": 2, "token": "x"}),
    ("POST", "/api/v1/lobby/{id}/leave", None),
    ("POST", "/api/v1/lobby/{id}/start", None),
]


def tables(app, host_id: int, friend_id: int) -> dict[str, int]:
    """A public and a private table of two people, a public and a private
    practice table, and a private lobby not started."""
    with app.app_context(), db.connection_context():
        host, friend = User.get_by_id(host_id), User.get_by_id(friend_id)
        mailer = app.extensions["pbem_mailer"]

        def table(private: bool) -> int:
            game = games.create_game(
                host, "puerto_rico", "Secret table", 2, {}, 48, [24.0], mailer, private=private
            )
            games.join(game.id, friend, 1)
            return games.start(game.id, host, mailer).id

        def practice(private: bool) -> int:
            return games.create_practice(
                host, "puerto_rico", "Secret practice", 3, {}, "random", 24, mailer, private
            ).id

        lobby = games.create_game(
            host, "puerto_rico", "Secret lobby", 3, {}, 48, [24.0], mailer, private=True
        )
        return {
            "public": table(False),
            "private": table(True),
            "public practice": practice(False),
            "private practice": practice(True),
            "private lobby": lobby.id,
        }


@pytest.fixture
def people(app):
    host, host_token = account(app, "host@example.org", "Hilde")
    friend, friend_token = account(app, "friend@example.org", "Frits")
    _, stranger = account(app, "stranger@example.org", "Sam")
    other, other_token = account(app, "other@example.org", "Olga")
    _, moderator = account(app, "mod@example.org", "Mona", is_moderator=True)
    with app.app_context(), db.connection_context():
        # Olga plays a game of her own: a player, but of another table.
        mailer = app.extensions["pbem_mailer"]
        games.create_practice(
            User.get_by_id(other), "puerto_rico", "Olga's", 3, {}, "random", 24, mailer
        )
    return {
        "tables": tables(app, host, friend),
        "host": host_token,
        "friend": friend_token,
        "stranger": stranger,
        "other player": other_token,
        "moderator": moderator,
    }


def ask(client, method: str, path: str, body, token: str, game_id: int):
    return client.open(path.format(id=game_id), method=method, json=body, headers=bearer(token))


@pytest.mark.parametrize("outsider", ["stranger", "other player"])
@pytest.mark.parametrize("table", ["private", "private practice", "private lobby"])
def test_a_private_game_answers_outsiders_like_a_game_that_is_not_there(
    app, people, outsider, table
):
    client, token = app.test_client(), people[outsider]
    for method, path, body in ROUTES:
        there = ask(client, method, path, body, token, people["tables"][table])
        nowhere = ask(client, method, path, body, token, MISSING)
        assert there.status_code == 404, (method, path, there.status_code, there.get_json())
        assert there.get_json()["detail"] == nowhere.get_json()["detail"], (method, path)
        assert b"Secret" not in there.data and b"Hilde" not in there.data


@pytest.mark.parametrize("table", ["private", "private practice"])
@pytest.mark.parametrize("who", ["host", "moderator"])
def test_a_private_game_is_there_for_its_host_and_the_moderators(app, people, table, who):
    answer = app.test_client().get(
        f"/api/v1/games/{people['tables'][table]}?since=0", headers=bearer(people[who])
    )
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["name"].startswith("Secret")


def test_a_private_game_is_there_for_its_other_player(app, people):
    answer = app.test_client().get(
        f"/api/v1/games/{people['tables']['private']}", headers=bearer(people["friend"])
    )
    assert answer.status_code == 200


@pytest.mark.parametrize("table", ["public", "public practice"])
@pytest.mark.parametrize("outsider", ["stranger", "other player"])
def test_a_public_game_is_readable_by_any_account_but_not_playable(app, people, table, outsider):
    client, game_id = app.test_client(), people["tables"][table]
    seen = client.get(f"/api/v1/games/{game_id}", headers=bearer(people[outsider]))
    assert seen.status_code == 200
    assert seen.get_json()["legal_moves"] == []
    played = ask(client, *ROUTES[2], people[outsider], game_id)
    assert played.status_code == 403


def test_the_page_and_the_api_agree_on_who_sees_a_private_game(app, people):
    """The page's rule and the API's are one function: a stranger signed in
    on the page gets the 404 the API gives."""
    with app.app_context(), db.connection_context():
        User.update(password_hash=generate_password_hash("password1")).where(
            User.email == "stranger@example.org"
        ).execute()
    client = app.test_client()
    page = client.get("/login")
    client.post(
        "/login",
        data={
            "csrf_token": csrf(page.text),
            "email": "stranger@example.org",
            "password": "password1",
        },
    )
    assert client.get("/games").status_code != 302  # signed in
    game_id = people["tables"]["private"]
    assert client.get(f"/games/{game_id}").status_code == 404
    assert client.get(f"/games/{game_id}/log").status_code == 404

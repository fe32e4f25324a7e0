"""Who may act for a seat now (services/acting.py), on the game page and in
the API: a seat whose player left (resigned or removed, passing or played by
a bot to the end) is refused with each path's own message, in the reader's
language, and nothing changes."""

from __future__ import annotations

import pytest
from api_helpers import bearer
from clock_helpers import sign_in, started_game
from game_driver import db_state
from moderation_helpers import in_db
from web_helpers import move_form, post_form

from engine import get_game
from engine.words import term
from server.i18n import say
from server.models import Game, Seat, User
from server.services import acting, api_tokens
from server.services.state_store import load_state

LEFT = {
    "resigned": ({"withdrawn": True}, acting.Answer.WITHDRAWN),
    "removed, a bot plays it": (
        {"withdrawn": True, "bot": "heuristic"},
        acting.Answer.HANDED_TO_BOT,
    ),
}


def leave(app, game_id: int, index: int, changes: dict) -> None:
    """The seat's player left as ``changes`` say, and reads Dutch."""
    in_db(
        app,
        lambda: (
            Seat.update(**changes).where((Seat.game == game_id) & (Seat.index == index)).execute(),
            User.update(language="nl").execute(),
        ),
    )


def dutch(answer: acting.Answer) -> str:
    said = say("nl", term(acting.SAID[answer]))
    assert said != acting.SAID[answer]  # there is a Dutch text to look for
    return said


@pytest.mark.parametrize("how", list(LEFT))
def test_the_page_refuses_a_seat_whose_player_left(app, how):
    changes, answer = LEFT[how]
    game = started_game(app, players=3, tag="pl")
    client = sign_in(app, f"pl{game.to_move}@example.org")
    form = move_form(client.get(f"/games/{game.id}").text)
    assert form is not None  # their turn: the page offers the move
    leave(app, game.id, game.to_move, changes)
    before = db_state(app, game.id)
    refused = post_form(client, form, action=form["buttons"][0][1])
    assert refused.status_code == 403
    assert dutch(answer) in refused.text.replace("&#39;", "'")
    assert db_state(app, game.id) == before
    assert move_form(client.get(f"/games/{game.id}").text) is None  # nor offered again


@pytest.mark.parametrize("how", list(LEFT))
def test_the_api_refuses_a_seat_whose_player_left(app, how):
    changes, answer = LEFT[how]
    game = started_game(app, players=3, tag="al")
    index = game.to_move

    def token_and_move():
        player = User.get(User.email == f"al{index}@example.org")
        _, token = api_tokens.create(player, "test", ("read", "play"), 30)
        row = Game.get_by_id(game.id)
        action = get_game(row.kind).legal_actions(load_state(row), index)[0]
        return token, {"seq": row.seq, "action": action}

    token, move = in_db(app, token_and_move)
    client = app.test_client()
    assert client.get(f"/api/v1/games/{game.id}", headers=bearer(token)).json["my_turn"]
    leave(app, game.id, index, changes)
    before = db_state(app, game.id)
    refused = client.post(f"/api/v1/games/{game.id}/moves", json=move, headers=bearer(token))
    assert refused.status_code == 403
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json["detail"] == dutch(answer)
    assert db_state(app, game.id) == before
    view = client.get(f"/api/v1/games/{game.id}", headers=bearer(token)).json
    assert not view["my_turn"] and not view["legal_moves"]


def test_an_absent_player_takes_the_seat_back_by_moving_on_the_page(app):
    """docs/players/practice.md: "The player takes the seat back by moving,
    or with "I'm back"": the same on every path (services/acting.py)."""
    game = started_game(app, players=3, tag="ab")
    index = game.to_move
    in_db(
        app,
        lambda: (
            Seat.update(absent=True, bot="heuristic")
            .where((Seat.game == game.id) & (Seat.index == index))
            .execute()
        ),
    )
    client = sign_in(app, f"ab{index}@example.org")
    form = move_form(client.get(f"/games/{game.id}").text)
    assert post_form(client, form, action=form["buttons"][0][1]).status_code == 200
    seat = in_db(app, lambda: Seat.get((Seat.game == game.id) & (Seat.index == index)))
    assert seat.bot is None and not seat.absent
    assert in_db(app, lambda: Game.get_by_id(game.id)).seq == game.seq + 1

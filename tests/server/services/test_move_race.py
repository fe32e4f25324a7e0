"""The state is read consistent with the game row it was checked
against.  Two players send a move against the same position; on
PostgreSQL (READ COMMITTED) the loser used to read the game row before the
winner's commit and the snapshot after it, and was told its move was not
allowed (400) instead of "the game has moved on" (409)."""

from __future__ import annotations

import threading

import pytest
from clock_helpers import started_game, to_move
from conftest import make_app

from engine import get_game
from server.db import db
from server.models import Game
from server.services import moves
from server.services.moves import StaleMove, play
from server.services.state_store import load_state


@pytest.mark.postgres
def test_the_loser_of_a_race_hears_the_game_moved_on(pg_url, smtp, tmp_path, monkeypatch):
    app = make_app(pg_url, smtp, tmp_path)
    game = started_game(app, players=3, tag="race")
    seat = to_move(app, game.id).index
    rules = get_game("puerto_rico")
    with app.app_context(), db.connection_context():
        state = load_state(Game.get_by_id(game.id), save=False)
    first, second = rules.legal_actions(state, seat)[:2]
    entered, winner_done = threading.Event(), threading.Event()
    real_load = moves.load_state

    def late_read(game_row, *args, **kwargs):
        # The loser has read the game row; the winner commits before it
        # reads the state: the interleaving that made the 400.
        if threading.current_thread().name == "loser":
            entered.set()
            winner_done.wait(10)
        return real_load(game_row, *args, **kwargs)

    monkeypatch.setattr(moves, "load_state", late_read)
    outcome = {}

    def move(action, name):
        with app.app_context(), db.connection_context():
            try:
                play(game.id, seat, action, 0, "player", mailer=app.extensions["pbem_mailer"])
                outcome[name] = "played"
            except Exception as exc:  # the assertion below names it
                outcome[name] = exc
            finally:
                if name == "winner":
                    winner_done.set()

    loser = threading.Thread(target=move, args=(second, "loser"), name="loser")
    loser.start()
    assert entered.wait(10)
    move(first, "winner")
    loser.join(20)
    assert outcome["winner"] == "played"
    assert isinstance(outcome["loser"], StaleMove), repr(outcome["loser"])
    assert outcome["loser"].status == 409

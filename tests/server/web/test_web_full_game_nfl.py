"""Race to the New Found Land is played by email exactly like Puerto
Rico — through the same server code, which names neither game."""

from __future__ import annotations

from pathlib import Path

from game_driver import Table

from server.db import db
from server.models import Snapshot
from server.services.state_store import replay, rules

SERVER = Path(__file__).resolve().parents[3] / "server"


def test_complete_new_found_land_game_by_email(sqlite_app, smtp, send_mail):
    table = Table(sqlite_app, smtp, send_mail, 3, seed=31, kind="new_found_land")
    game_id = table.set_up("Race table")
    result = table.play_out()
    game = table.game()
    assert game.kind == "new_found_land" and game.status == "finished"
    assert result["moves"] > 30 and table.checks > 0
    for email, mails in result["finals"].items():
        final = next(m for m in mails if "is over" in m.get_body(("plain",)).get_content())
        assert "Final scores" in final.get_body(("plain",)).get_content()
    with sqlite_app.app_context(), db.connection_context():
        assert rules(game).to_json(replay(game)) == Snapshot.get(Snapshot.game == game_id).state


def test_the_server_names_no_game():
    for path in SERVER.rglob("*"):
        if path.suffix in (".py", ".html", ".txt"):
            text = path.read_text().lower()
            for name in ("puerto", "new_found_land", "new found land", "newfoundland"):
                assert name not in text, f"{path} names a game ({name})"


def test_a_new_found_land_game_of_timeouts_finishes_by_the_scheduler_alone(sqlite_app):
    from clock_helpers import HOUR, events, game_row, run_sweep, started_game, to_move

    from server.models import utcnow

    game = started_game(sqlite_app, players=3, kind="new_found_land", tag="nfl")
    now = utcnow()
    for _ in range(3000):
        if game_row(sqlite_app, game.id).status != "active":
            break
        now = max(now, to_move(sqlite_app, game.id).deadline) + HOUR
        run_sweep(sqlite_app, now)
    assert game_row(sqlite_app, game.id).status == "finished"
    assert {e.actor for e in events(sqlite_app, game.id)} == {"timeout"}

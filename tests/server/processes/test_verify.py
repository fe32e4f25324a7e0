"""``pbem verify [GAME…]`` replays each event log from its
seed and compares it with the snapshot and the game row; any difference is
reported with the game and where it is, and the exit status tells scripts
(0 all agree, 1 one differs, 2 a game not found)."""

from __future__ import annotations

from ops_helpers import games_in_progress, pbem

from server.db import db
from server.models import Event, Game, Snapshot


def test_games_in_progress_agree_with_their_logs(app, db_url, tmp_path):
    ids = games_in_progress(app, count=2, moves=8)
    done = pbem(db_url, tmp_path, "verify")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "2 game(s) checked, 0 differ"
    assert pbem(db_url, tmp_path, "verify", str(ids[0])).returncode == 0


def test_a_changed_snapshot_is_reported_with_where_it_differs(app, db_url, tmp_path):
    ids = games_in_progress(app, count=2, moves=8)
    with app.app_context(), db.connection_context():
        snap = Snapshot.get(Snapshot.game == ids[1])
        state = dict(snap.state)
        key = sorted(state)[0]
        state[key] = "tampered"
        Snapshot.update(state=state).where(Snapshot.game == ids[1]).execute()
    done = pbem(db_url, tmp_path, "verify")
    assert done.returncode == 1, done.stdout + done.stderr
    assert (
        f"game {ids[1]}: the snapshot at seq" in done.stdout
        and f"differs from the log's replay at state.{key} " in done.stdout
    ), done.stdout
    assert f"game {ids[0]}:" not in done.stdout
    assert done.stdout.strip().endswith("2 game(s) checked, 1 differ")
    assert pbem(db_url, tmp_path, "verify", str(ids[0])).returncode == 0


def test_a_lost_log_row_is_reported(app, db_url, tmp_path):
    ids = games_in_progress(app, count=1, moves=6)
    with app.app_context(), db.connection_context():
        last = Game.get_by_id(ids[0]).seq
        Event.delete().where((Event.game == ids[0]) & (Event.seq == last)).execute()
    done = pbem(db_url, tmp_path, "verify", str(ids[0]))
    assert done.returncode == 1
    assert f"game {ids[0]}: the game row says seq {last}, the log ends at {last - 1}" in done.stdout


def test_an_unknown_game_is_exit_status_2(app, db_url, tmp_path):
    done = pbem(db_url, tmp_path, "verify", "424242")
    assert done.returncode == 2 and "game 424242: not found" in done.stderr
    assert pbem(db_url, tmp_path, "verify", "x").returncode == 2  # click: not a number

"""engine/ holds pure rules: no web, database, server, I/O, clocks or global randomness.

Randomness must come from the generator kept in the game state, or replaying
a game's log would not give the same state.
"""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN_MODULES = {
    "flask",
    "flask_login",
    "flask_wtf",
    "peewee",
    "playhouse",
    "server",
    "os",
    "sys",
    "io",
    "socket",
    "smtplib",
    "subprocess",
    "threading",
    "random",
    "time",
    "datetime",
    "pathlib",
    "shutil",
    "sqlite3",
    "psycopg",
    "apscheduler",
    "jinja2",
    "urllib",
    "http",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


# Not rules: the import machinery's check that a compiled build matches its
# source reads the build's record and hashes files when ``engine`` is
# imported, before any rule module is; no rule module imports it.
LOADER = {ENGINE / "build_check.py"}


def engine_files():
    files = sorted(set(ENGINE.rglob("*.py")) - LOADER)
    assert len(files) > 10
    return files


def test_engine_imports_nothing_impure():
    for path in engine_files():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN_MODULES, f"{path}: imports {name}"


def test_engine_calls_no_io_builtins():
    for path in engine_files():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, (
                    f"{path}:{node.lineno} calls {node.func.id}"
                )


def test_every_game_gives_its_standing_at_any_moment():
    """Abandoned games end "with the scores as they stand"."""
    import random

    from engine import BUILT_IN, GAMES

    for game in map(GAMES.get, BUILT_IN):  # pbem's own (a plug-in may be for 2 only)
        state = game.new_game(game.min_players + 1, {}, 3)
        rnd = random.Random(3)
        for _ in range(60):
            standing = game.standing(state)
            assert [sc.seat for sc in standing.scores] == list(range(game.min_players + 1))
            assert set(standing.winners) <= {sc.seat for sc in standing.scores}
            seat = game.to_move(state)
            state, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))

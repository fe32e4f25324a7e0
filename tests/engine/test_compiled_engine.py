"""The optional compiled engine plays the same games as the source, move for
move.

scripts/build_fast_engine.py compiles both games' engines and the bots
with mypyc into a copy of the tree here, never into the checkout, so the
rest of a run tests the source.  The seeded games of test_same_games (Puerto
Rico with 2-5 players and every building set, New Found Land with 2-4) are
played in two processes, one from a plain copy and one from the compiled
copy: every move's legal actions, labels, events and the final state
(``apply``) and the final state of a simulation must be the same, and the
same as recorded; and games of the bots (the thinking bot at a small
budget) choose the same moves in both games.  Skipped only where the
compiler is missing (no gcc or Python headers); in CI it must run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORDED = json.loads((ROOT / "tests/engine/data/same_games.json").read_text())

PLAY = """
import json
import random
from engine import GAMES
from engine.bots import get_bot
from engine.bots import search
from engine.new_found_land import state as nfl_state
from engine.puerto_rico import state as pr_state
from engine.turns import NO_EVENTS
from tests.engine import test_same_games as same


def bots_game(name, players, options, seed):
    game, r = GAMES[name], random.Random(seed)
    bots = [search.SearchBot(4, 2, 6), get_bot("heuristic")]
    s, moves = game.new_game(players, options, seed=seed), []
    while not game.is_over(s):
        seat = game.to_move(s)
        moves.append(bots[seat % 2].choose(game, s, seat, r.getrandbits(48)))
        s, _ = game.apply(s, seat, moves[-1])
    return [moves, game.to_json(s)]


print(json.dumps({
    "compiled": [not m.__file__.endswith(".py") for m in (pr_state, nfl_state, search)],
    "applied": {same.case_id(c): same.fingerprint(*c) for c in same.CASES},
    "simulated": {same.case_id(c): same.final_by_simulation(*c) for c in same.CASES},
    "bots": [
        bots_game("puerto_rico", 3, {"buildings": "random"}, 5),
        bots_game("puerto_rico", 4, {"buildings": "extended"}, 6),
        bots_game("new_found_land", 3, {}, 5),
    ],
    "events_kept_by_simulations": len(NO_EVENTS),
}))
"""


def compiler_missing() -> str:
    """Why the build cannot run here, or "" when it can."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    for module, package in (("mypyc", "mypy"), ("setuptools", "setuptools")):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install {package})"
    return ""


def copy_engine(tree: Path) -> Path:
    shutil.copytree(
        ROOT / "engine", tree / "engine", ignore=shutil.ignore_patterns("*.so", "__pycache__")
    )
    return tree


def play(tree: Path) -> dict:
    """The seeded games played from ``tree``'s engine (then ours for tests/)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(ROOT)])}
    out = subprocess.run(
        [sys.executable, "-c", PLAY], cwd=tree, env=env, check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A plain copy of the engine and a compiled one."""
    reason = compiler_missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"the compiled engine cannot be built in CI: {reason}")
        # The build is optional: a contributor's machine without gcc or the
        # Python headers still runs every other test (CI must build it).
        pytest.skip(f"the compiled engine cannot be built here: {reason}")
    pure = copy_engine(tmp_path_factory.mktemp("pure"))
    compiled = copy_engine(tmp_path_factory.mktemp("compiled"))
    subprocess.run(
        [sys.executable, str(ROOT / "scripts/build_fast_engine.py"), "--tree", compiled, "--quiet"],
        check=True,
    )
    return pure, compiled


@pytest.fixture(scope="module")
def trees(built):
    pure, compiled = built
    return play(pure), play(compiled)


def test_a_build_whose_source_changed_runs_the_source_with_a_warning(built, tmp_path, trees):
    """A pull without a rebuild: the build is passed over, the games are the same."""
    _, compiled = built
    stale = tmp_path / "stale"
    shutil.copytree(compiled, stale, ignore=shutil.ignore_patterns("__pycache__"))
    assert list((stale / "engine").rglob("*.so"))
    with open(stale / "engine/puerto_rico/state.py", "a") as f:
        f.write("\n# changed after the build\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(stale), str(ROOT)])}
    out = subprocess.run(
        [sys.executable, "-c", PLAY], cwd=stale, env=env, check=True, capture_output=True, text=True
    )
    played = json.loads(out.stdout)
    assert played["compiled"] == [False, False, False]
    assert "does not match its source" in out.stderr
    assert played["applied"] == trees[0]["applied"]


def test_the_build_is_redone_only_when_stale(built):
    _, compiled = built
    again = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts/build_fast_engine.py"),
            "--tree",
            compiled,
            "--if-stale",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    assert "matches its source" in again.stdout


def test_the_copies_run_the_build_they_should(trees):
    pure, compiled = trees
    assert pure["compiled"] == [False, False, False]
    assert compiled["compiled"] == [True, True, True]  # both engines and the bots


def test_the_compiled_engine_plays_the_recorded_games_move_for_move(trees):
    pure, compiled = trees
    assert len(compiled["applied"]) == 24 + 9
    assert compiled["applied"] == pure["applied"]
    assert compiled["applied"] == {case: RECORDED[case] for case in compiled["applied"]}


def test_the_compiled_simulation_ends_in_the_same_states(trees):
    pure, compiled = trees
    assert compiled["simulated"] == pure["simulated"]


def test_the_bots_choose_the_same_moves_on_the_compiled_engine(trees):
    """The thinking bot's rollouts run on simulations, the steady bot's
    evaluation reads the state: the same draws give the same moves."""
    pure, compiled = trees
    assert compiled["bots"] == pure["bots"]


def test_simulations_keep_no_events_on_the_compiled_engine(trees):
    """Compiled rules append to a simulation's event list with a C call
    that passes over the list's own ``append`` (which keeps nothing): the
    list must still be empty after whole games of rollouts, or it grows
    for as long as the process runs bots (it once made single decisions
    take 300-900 ms, all of it the garbage collector walking the kept events)."""
    pure, compiled = trees
    assert pure["events_kept_by_simulations"] == 0
    assert compiled["events_kept_by_simulations"] == 0

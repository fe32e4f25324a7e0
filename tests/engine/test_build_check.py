"""A compiled engine that does not match its source is never loaded
(engine/build_check.py): with a record of other hashes, or none, ``import
engine`` warns and imports the source; with a matching record the build
is what Python imports.  The "build" here is a file that is no extension
at all, so importing it fails loudly: the source can only have been chosen
by the check.  tests/engine/test_compiled_engine.py does the same with a
real build."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
PLAY = """
import engine
from engine import GAMES
from engine.puerto_rico import state
game = GAMES["puerto_rico"]
s = game.new_game(3, {}, seed=4)
seat = game.to_move(s)
game.apply(s, seat, game.legal_actions(s, seat)[0])
print(engine.COMPILED, state.__file__)
"""


def tree_with_a_build(tmp_path: Path, record: dict | None) -> Path:
    shutil.copytree(
        ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("*.so", "__pycache__")
    )
    # A module and a package's __init__, as the real build compiles both.
    for stand_in in (f"puerto_rico/state{SUFFIX}", f"puerto_rico/phases/__init__{SUFFIX}"):
        (tmp_path / "engine" / stand_in).write_bytes(b"not an extension")
    if record is not None:
        (tmp_path / "engine/_compiled_source.json").write_text(json.dumps(record))
    return tmp_path


def run(tree: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONWARNINGS": "default"}
    return subprocess.run(
        [sys.executable, "-c", PLAY], cwd=tree, env=env, capture_output=True, text=True
    )


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_build_older_than_its_source_is_passed_over_with_a_warning(tmp_path):
    state = "engine/puerto_rico/state.py"
    tree = tree_with_a_build(tmp_path, {state: "0" * 64})
    done = run(tree)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", str(tree / state)]
    assert "StaleBuildWarning" in done.stderr
    assert "engine/puerto_rico/state.py changed since the build" in done.stderr


def test_a_build_without_its_record_is_passed_over(tmp_path):
    done = run(tree_with_a_build(tmp_path, None))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "False"
    assert "no record of the source it was built from" in done.stderr


def test_a_build_of_a_module_the_record_does_not_name_is_passed_over(tmp_path):
    rng = "engine/rng.py"
    tree = tree_with_a_build(tmp_path, {rng: sha(ROOT / rng)})
    done = run(tree)
    assert done.returncode == 0, done.stderr
    assert "was compiled but is not in the record" in done.stderr


def test_a_build_that_matches_its_source_is_the_one_imported(tmp_path):
    sources = ("engine/puerto_rico/state.py", "engine/puerto_rico/phases/__init__.py")
    done = run(tree_with_a_build(tmp_path, {s: sha(ROOT / s) for s in sources}))
    # The stand-in is no extension: Python tried to load it, as it should.
    assert done.returncode != 0
    assert "StaleBuildWarning" not in done.stderr
    assert "ImportError" in done.stderr or "invalid ELF header" in done.stderr


def test_without_a_build_nothing_is_said(tmp_path):
    shutil.copytree(
        ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("*.so", "__pycache__")
    )
    done = run(tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.split()[0] == "False"

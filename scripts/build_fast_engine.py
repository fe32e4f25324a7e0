"""An optional compiled build of the game engines and the bots (mypyc).

The engine stays Python source and the source is what runs by default and
what the tests run.  This compiles the same source with mypyc (it ships
with mypy, a test dependency) into extension modules next to the .py files;
Python imports an extension before a source file of the same name, so the
build is used from then on, until it is removed:

    .venv/bin/python scripts/build_fast_engine.py           # build into engine/
    .venv/bin/python scripts/build_fast_engine.py --clean   # back to pure Python
    .venv/bin/python scripts/build_fast_engine.py --tree DIR  # into DIR/engine

The build records the hash of every source file it compiled
(engine/_compiled_source.json); a build that no longer matches its source
is never loaded: ``import engine`` warns and runs the pure Python modules
(engine/build_check.py).  Rebuild after changing the engine, or let
``--if-stale`` rebuild only then (scripts/serve.sh does).  The .so files
and the record are gitignored.  The compiler runs in a temporary directory (its build/
and C files never reach the tree); it needs gcc and the Python headers.
tests/engine/test_compiled_engine.py builds into a copy of the tree and
checks that the same seeded games play move for move.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _build_check():
    """engine/build_check.py on its own: importing the package would run its check."""
    spec = importlib.util.spec_from_file_location("build_check", ROOT / "engine/build_check.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_check = _build_check()

# The modules a move and a bot's decision run through.  The bots are
# compiled with the engines: compiled code calling interpreted code pays at
# every call, so bots compiled alone made New Found Land's slower.  Left
# out: the packages' __init__ (an extension as a package's __init__ breaks
# the import of its source submodules), game.py and engine/interface.py and
# turns.py (interpreted classes cannot inherit from compiled ones: the game
# classes derive from them), words.py (Words derives from str) and the text
# modules (not on a move's path).
PACKAGES = ("puerto_rico", "new_found_land", "bots")
NOT_COMPILED = {
    f"engine/{package}/{module}.py"
    for package in ("puerto_rico", "new_found_land")
    for module in ("__init__", "game", "labels", "layout", "view")
} | {"engine/new_found_land/phases/__init__.py", "engine/bots/__init__.py"}
EXTRA = ("engine/rng.py",)
# One shared library for all of them (calls between its modules are direct
# C calls), named inside the engine package so it imports from the tree.
GROUP = "engine._compiled"

SETUP = """
import sys
from mypyc.build import mypycify
from setuptools import setup

modules = sys.argv[1:]
sys.argv[1:] = ["build_ext", "--inplace"]
setup(name="fast_engine", ext_modules=mypycify(modules, opt_level="3", group_name={group!r}))
"""


def modules(tree: Path) -> list[str]:
    found = sorted(
        str(p.relative_to(tree))
        for package in PACKAGES
        for p in (tree / "engine" / package).rglob("*.py")
    )
    return [m for m in found if m not in NOT_COMPILED] + list(EXTRA)


def built_files(engine_dir: Path) -> list[Path]:
    return sorted(engine_dir.rglob("*.so"))


def clean(tree: Path) -> int:
    gone = built_files(tree / "engine")
    for path in gone:
        path.unlink()
    (tree / "engine" / build_check.RECORD).unlink(missing_ok=True)
    return len(gone)


def up_to_date(tree: Path) -> bool:
    """A build is there and matches the source."""
    engine_dir = tree / "engine"
    return bool(build_check.compiled_modules(engine_dir)) and not build_check.mismatch(engine_dir)


def build(tree: Path, quiet: bool = False) -> list[Path]:
    """Compile ``tree``'s engine in a scratch copy; put the extensions into ``tree``."""
    clean(tree)
    with tempfile.TemporaryDirectory(prefix="fast-engine-") as scratch:
        work = Path(scratch)
        # Only the engine: the project's pyproject.toml is not for this
        # setuptools run, and mypy needs no settings to compile.
        shutil.copytree(tree / "engine", work / "engine", ignore=shutil.ignore_patterns("*.so"))
        (work / "setup_fast.py").write_text(SETUP.format(group=GROUP))
        subprocess.run(
            [sys.executable, "setup_fast.py", *modules(tree)],
            cwd=work,
            check=True,
            stdout=subprocess.DEVNULL if quiet else None,
        )
        made = built_files(work / "engine")
        for path in made:
            target = tree / path.relative_to(work)
            shutil.copy2(path, target)
        # The hashes of the source as compiled (the scratch copy), not as
        # the tree may stand by now.
        recorded = build_check.record(work, modules(tree))
        (tree / "engine" / build_check.RECORD).write_text(
            json.dumps(recorded, indent=1, sort_keys=True) + "\n"
        )
    return [tree / p.relative_to(work) for p in made]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", type=Path, default=ROOT, help="the tree holding engine/")
    ap.add_argument("--clean", action="store_true", help="remove the build: pure Python again")
    ap.add_argument("--quiet", action="store_true", help="hide the compiler's output")
    ap.add_argument(
        "--if-stale", action="store_true", help="build only when no build matches the source"
    )
    args = ap.parse_args()
    if args.clean:
        print(f"removed {clean(args.tree)} compiled modules from {args.tree / 'engine'}")
        return
    if args.if_stale and up_to_date(args.tree):
        print(f"the compiled engine in {args.tree / 'engine'} matches its source")
        return
    made = build(args.tree, args.quiet)
    print(f"built {len(made)} compiled modules into {args.tree / 'engine'}")


if __name__ == "__main__":
    main()

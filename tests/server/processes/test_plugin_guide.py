"""docs/contributors/adding-a-game.md, followed by the letter: its files
copied out of the page into a folder outside pbem's tree, installed the way
the page says into a virtual environment of their own (which sees pbem's),
their catalogs made with ``pbem catalogs``, and the game's own test run with
the kit (server.testing).  A guide whose code does not work fails here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from server.services.games import LobbyError

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "docs/contributors/adding-a-game.md"
# A file of the example: its path in bold code, then its fenced block.
FILE = re.compile(r"^\*\*`nim-for-pbem/([^`]+)`\*\*\n\n```\w*\n(.*?)^```$", re.M | re.S)
# What a translator writes into nl (the game's test reads "Hoop 3").
DUTCH = {"Heap %(number)s": "Hoop %(number)s", "The heaps": "De hopen"}


def guide_files() -> dict[str, str]:
    return {path: body for path, body in FILE.findall(GUIDE.read_text())}


def commands(step: str) -> list[str]:
    """The indented command lines of the guide that contain ``step``."""
    return [line.strip() for line in GUIDE.read_text().splitlines() if step in line]


@pytest.fixture
def project(tmp_path) -> Path:
    folder = tmp_path / "nim-for-pbem"
    assert ROOT not in folder.parents
    for path, body in guide_files().items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(body)
    return folder


@pytest.fixture
def python(tmp_path) -> str:
    """A virtual environment of the test's own that sees pbem's packages
    (through a .pth line), so installing the game leaves pbem's alone."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    parent = sysconfig.get_paths()["purelib"]
    (site / "pbem_parent.pth").write_text(f"import site; site.addsitedir({parent!r})\n")
    return str(venv / "bin/python")


def run(python: str, *args: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM", "PYTEST"))}
    done = subprocess.run(
        [python, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"{args}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def translate(po: Path, words: dict[str, str]) -> None:
    with po.open("rb") as f:
        catalog = read_po(f)
    for message in catalog:
        if message.id in words:
            message.string = words[message.id]
    with po.open("wb") as f:
        write_po(f, catalog)


def test_the_guide_has_every_file_of_its_game():
    assert sorted(guide_files()) == [
        "pbem_nim/__init__.py",
        "pbem_nim/game.py",
        "pyproject.toml",
        "tests/test_nim.py",
    ]
    assert commands("pip install -e") == ["pip install -e ."]
    assert commands("pytest tests") == ["python -m pytest tests"]


def test_a_game_built_from_the_guide_alone_is_played(project, python):
    # Step 3, as the guide writes it.
    run(python, "-m", "pip", "install", "-q", "-e", ".", cwd=project)
    # Step 4: pbem catalogs names the files after the game (nim), in the
    # package's folder (pbem_nim), where server/i18n.py reads them.
    out = run(python, "-m", "server.cli", "catalogs", "nim", cwd=project)
    translations = project / "pbem_nim/translations"
    assert out.startswith(f"nim: {translations}")
    pot = (translations / "nim.pot").read_text()
    for marked in (
        "Take %(n)s from heap %(heap)s",
        "take counters from one heap (%(left)s left)",
        "{s%(seat)s} takes the last counter and wins.",
        "Take counters from one heap",
    ):
        assert f'msgid "{marked}' in pot  # fmt: skip
    assert "Race to 21" not in pot  # the game's own sources only
    for code in ("nl", "de", "fr"):
        assert (translations / code / "LC_MESSAGES/nim.po").exists()
    translate(translations / "nl/LC_MESSAGES/nim.po", DUTCH)
    run(python, "-m", "server.cli", "catalogs", str(project), "compile", cwd=project)
    assert (translations / "nl/LC_MESSAGES/nim.mo").exists()
    # Step 5: the game's own test, with the kit.
    out = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=project)
    assert "2 passed" in out


def test_catalogs_says_what_is_wrong(tmp_path):
    pbem = [sys.executable, "-m", "server.cli", "catalogs"]
    done = subprocess.run([*pbem, "no_such_game"], capture_output=True, text=True)
    assert done.returncode == 1
    assert "neither a folder nor an installed game" in done.stderr
    done = subprocess.run([*pbem, str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 1 and "install it first" in done.stderr
    done = subprocess.run([*pbem, "race_to_21", "translate"], capture_output=True, text=True)
    assert done.returncode == 2 and "extract" in done.stderr


def test_the_kit_plays_race_to_21_and_refuses_what_the_page_does_not_offer():
    from server.testing import GameDriver

    with GameDriver("race_to_21", players=2) as table:
        folder = Path(table.folder)
        with pytest.raises(AssertionError, match="offers no"):
            table.play_by_page({"type": "add", "n": 4})
        assert table.state()["count"] == 0 and table.to_move() == 0
        table.play_by_page({"type": "add", "n": 3})
        assert table.to_move() == 1 and table.state()["count"] == 3
        with pytest.raises(AssertionError, match="does not say"):
            table.assert_turn_mail_says("now 0")
        # The kit's server checks CSRF as a real one does: its posts carry the token.
        bare = table.app.test_client().post(
            f"/games/{table.game_id}/move", data={"seq": "1", "action": '{"type": "add", "n": 1}'}
        )
        assert bare.status_code in (400, 403) and table.state()["count"] == 3
    assert not folder.exists()  # the throwaway server leaves nothing behind
    with pytest.raises(ValueError, match="no installed game 'chess'"):
        GameDriver("chess")
    leftovers = set(Path(tempfile.gettempdir()).glob("pbem-testing-*"))
    with pytest.raises(LobbyError, match="takes 2 to 2 players"):
        GameDriver("race_to_21", players=3)  # Race to 21 is for 2
    assert set(Path(tempfile.gettempdir()).glob("pbem-testing-*")) == leftovers


def test_catalogs_are_not_made_in_an_installed_copy(monkeypatch):
    """A game installed without -e lives in site-packages: catalogs made
    there would be lost at its next install."""
    import engine
    from server import catalogs

    class Copied:
        domain = "copied"

        def translations_dir(self):
            return "/usr/lib/python3/site-packages/copied_game/translations"

    monkeypatch.setattr(catalogs, "GAMES", {**engine.GAMES, "copied": Copied()})
    with pytest.raises(catalogs.CatalogError, match="pip install -e"):
        catalogs.find("copied")
    assert catalogs.find("race_to_21").domain == "race_to_21"

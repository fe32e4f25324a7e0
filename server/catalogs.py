"""``pbem catalogs``: a game's own catalogs, made with Babel the way
scripts/catalogs.sh makes pbem's, for a game published on its own.

A game says its words in its gettext domain, ``Rules.domain`` (its
``name``), from ``Rules.translations_dir()`` (``translations`` beside the
module of its class): server/i18n.py reads
``<translations>/<lang>/LC_MESSAGES/<domain>.mo``.  So the files are named
after the game's name, not its package, and this module asks the installed
game for both rather than guessing them from a folder's name.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

from engine import BROKEN, GAMES
from server.language_codes import DEFAULT, LANGUAGES

# The markers of pbem's words (engine/words.py and the server's): the same
# list scripts/catalogs.sh hands pybabel.
KEYWORDS = ("words:2", "lazy_gettext", "_l", "N_", "msg", "nmsg:1,2")
# Every Python file of the game's package (as pbem's babel-game.cfg says).
MAPPING = "[python: **.py]\n"
STEPS = ("extract", "update", "compile")


class CatalogError(ValueError):
    """A package or game whose catalogs cannot be made; says why."""


@dataclass(frozen=True)
class GameCatalogs:
    package: Path  # the folder of the game's package (its modules)
    domain: str  # the game's name: the catalogs' file names

    @property
    def folder(self) -> Path:
        return self.package / "translations"

    @property
    def template(self) -> Path:
        return self.folder / f"{self.domain}.pot"


def find(target: str) -> GameCatalogs:
    """The catalogs of an installed game, by its name or by a folder: its
    package folder or the project folder holding it."""
    if target in GAMES:
        folder = GAMES[target].translations_dir()
        if folder is None:
            raise CatalogError(f"{target} is a top-level module: put it in a package")
        return _editable(GameCatalogs(Path(folder).parent, GAMES[target].domain))
    path = Path(target).resolve()
    if not path.is_dir():
        known = ", ".join(sorted(GAMES)) or "none"
        raise CatalogError(f"{target} is neither a folder nor an installed game ({known})")
    found = [
        GameCatalogs(Path(game.translations_dir() or "/").parent, game.domain)
        for game in GAMES.values()
    ]
    mine = [c for c in found if c.package == path or c.package.parent == path]
    if len(mine) != 1:
        raise CatalogError(_not_one(path, mine))
    return _editable(mine[0])


def _editable(catalogs: GameCatalogs) -> GameCatalogs:
    """Catalogs made in an installed copy would be lost at the next install."""
    if {"site-packages", "dist-packages"} & set(catalogs.package.parts):
        raise CatalogError(
            f"{catalogs.domain} is installed as a copy ({catalogs.package}): install "
            "it from its folder with pip install -e, then make its catalogs there"
        )
    return catalogs


def _not_one(path: Path, mine: list[GameCatalogs]) -> str:
    if mine:
        return f"{path} holds several games ({', '.join(c.domain for c in mine)}): name one"
    broken = f"; these did not load: {', '.join(sorted(BROKEN))}" if BROKEN else ""
    return (
        f"no installed game lives in {path}: install it first "
        f"(pip install -e {path}) so that pbem.games names it{broken}"
    )


def run(catalogs: GameCatalogs, steps: tuple[str, ...], languages: tuple[str, ...]) -> None:
    """Babel's extract, update (init for a new language) and compile."""
    for step in steps:
        if step == "extract":
            extract(catalogs)
        elif step == "update":
            for code in languages:
                update(catalogs, code)
        elif step == "compile":
            _babel("compile", "-d", catalogs.folder, "-D", catalogs.domain, "--statistics")
        else:
            raise CatalogError(f"no step {step}: {', '.join(STEPS)}")


def extract(catalogs: GameCatalogs) -> None:
    catalogs.folder.mkdir(exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as mapping:
        mapping.write(MAPPING)
    try:
        keywords = [arg for k in KEYWORDS for arg in ("-k", k)]
        _babel(
            "extract", "-F", mapping.name, *keywords, "--no-location", "--sort-output",
            "--no-wrap", "--project", catalogs.domain, "-o", catalogs.template,
            catalogs.package,
        )  # fmt: skip
    finally:
        os.unlink(mapping.name)


def update(catalogs: GameCatalogs, code: str) -> None:
    if not catalogs.template.exists():
        raise CatalogError(f"{catalogs.template} is missing: extract first")
    po = catalogs.folder / code / "LC_MESSAGES" / f"{catalogs.domain}.po"
    common = ("-i", catalogs.template, "-d", catalogs.folder, "-D", catalogs.domain, "-l", code)
    if po.exists():
        _babel("update", *common, "--no-fuzzy-matching", "--no-wrap", "--ignore-obsolete")
    else:
        _babel("init", *common, "--no-wrap")


def translated_languages() -> tuple[str, ...]:
    """The languages pbem speaks besides English, the language of the sources."""
    return tuple(code for code in LANGUAGES if code != DEFAULT)


def _babel(command: str, *args: str | Path) -> None:
    if CommandLineInterface().run(["pybabel", "-q", command, *map(str, args)]):
        raise CatalogError(f"pybabel {command} failed (see above)")

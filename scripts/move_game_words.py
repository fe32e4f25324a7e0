"""Fill a game catalog's untranslated entries from an older server catalog.

Games carry their own catalogs (engine/<game>/translations/); their words
used to be in the server's.  After `bash scripts/catalogs.sh` has moved a
game's msgids out of server/translations/*/messages.po (a merge of a branch
that still wrote them there, say), this takes each untranslated msgid of the
game catalogs from a copy of the server's catalogs as they were before:

    cp -r server/translations /tmp/before      # before scripts/catalogs.sh
    bash scripts/catalogs.sh
    .venv/bin/python scripts/move_game_words.py /tmp/before
    bash scripts/catalogs.sh compile

It prints what it could not find; translate those by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("nl", "de", "fr")


def game_catalogs() -> list[tuple[str, Path]]:
    """(domain, translations folder) of every game package in the tree."""
    folders = [*ROOT.glob("engine/*/translations"), *ROOT.glob("tests/plugin_game/*/translations")]
    return [(folder.parent.name, folder) for folder in sorted(folders)]


def fill(game_po: Path, server_po: Path, lang: str) -> list[str]:
    """Copies translations into ``game_po``; returns the msgids still missing."""
    with server_po.open("rb") as f:
        server = read_po(f, locale=lang)
    with game_po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    missing = []
    for message in catalog:
        if not message.id or (message.string and all(message.string)):
            continue
        found = server.get(message.id)
        if found is None or not found.string or "fuzzy" in found.flags:
            missing.append(str(message.id))
            continue
        message.string = found.string
    with game_po.open("wb") as f:
        write_po(f, catalog, width=0)
    return missing


def main(before: Path) -> None:
    for domain, folder in game_catalogs():
        for lang in LANGS:
            game_po = folder / lang / "LC_MESSAGES" / f"{domain}.po"
            for msgid in fill(game_po, before / lang / "LC_MESSAGES" / "messages.po", lang):
                print(f"{game_po.relative_to(ROOT)}: no translation of {msgid!r}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

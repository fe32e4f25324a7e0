"""One engine term, one word per language.  Each game
keeps a glossary beside its catalogs (engine/<game>/translations/
glossary.json); every text of its catalog (buttons, board, log lines, the
texts mails carry) that names a term in English must say it with the
glossary's word, and no text may use a word the glossary sets aside (the
New Found Land tile said "glass"/"Glas" where the buttons say "spyglass"/
"Fernrohr")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ENGINE = Path(__file__).resolve().parents[2] / "engine"
GLOSSARIES = sorted(ENGINE.glob("*/translations/glossary.json"))
LANGUAGES = ("nl", "de", "fr")
PLACEHOLDER = re.compile(r"%\([^)]*\)[sdif]")


def catalog(game: Path, code: str) -> list[tuple[str, str]]:
    """(English, translation) of every message of the game's catalog in
    ``code``; a plural's forms each with its English form."""
    path = game / "translations" / code / "LC_MESSAGES" / f"{game.name}.po"
    with path.open("rb") as file:
        messages = [m for m in read_po(file) if m.id]
    pairs = []
    for m in messages:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        pairs += [(ids[min(i, len(ids) - 1)], s) for i, s in enumerate(strings)]
    # Placeholders are no words: "%(glass)s" names a value, not the term.
    return [(PLACEHOLDER.sub("", e), PLACEHOLDER.sub("", s)) for e, s in pairs]


def word(text: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(text)}(?:s|es)?(?![\w-])", re.IGNORECASE)


def problems(game: Path) -> list[str]:
    glossary = json.loads((game / "translations" / "glossary.json").read_text("utf-8"))
    found = []
    for code in LANGUAGES:
        pairs = catalog(game, code)
        for term, words in glossary["terms"].items():
            forms = [f.lower() for f in words[code]]
            for english, said in pairs:
                if (
                    said
                    and word(term).search(english)
                    and not any(f in said.lower() for f in forms)
                ):
                    found.append(f"{code}: {english!r} says {term!r} as {said!r}")
        for avoided in glossary["avoid"].get(code, []):
            found += [
                f"{code}: {said!r} uses {avoided!r}"
                for _, said in pairs
                if word(avoided).search(said)
            ]
    english = {english for english, _ in catalog(game, LANGUAGES[0])}
    for avoided in glossary["avoid"].get("en", []):
        found += [
            f"en: {text!r} uses {avoided!r}" for text in english if word(avoided).search(text)
        ]
    return found


def test_every_game_keeps_a_glossary():
    assert {g.parent.parent.name for g in GLOSSARIES} == {"puerto_rico", "new_found_land"}


@pytest.mark.parametrize("game", [g.parent.parent for g in GLOSSARIES], ids=lambda g: g.name)
def test_each_term_is_said_one_way_in_each_language(game):
    assert not problems(game), "\n".join(problems(game))


def test_the_check_finds_a_term_said_two_ways(tmp_path):
    """The old New Found Land ship tile: "glass" in English, "Glas" in German."""
    game = tmp_path / "new_found_land"
    for code in LANGUAGES:
        folder = game / "translations" / code / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / "new_found_land.po").write_text(
            'msgid "spyglass %(n)s"\nmsgstr "Fernrohr %(n)s"\n\n'
            'msgid "person %(p)s glass %(g)s"\nmsgstr "Person %(p)s Glas %(g)s"\n',
            "utf-8",
        )
    glossary = ENGINE / "new_found_land" / "translations" / "glossary.json"
    (game / "translations" / "glossary.json").write_text(glossary.read_text("utf-8"), "utf-8")
    found = problems(game)
    assert any(p.startswith("en:") and "glass" in p for p in found)
    assert any(p.startswith("de:") and "Glas" in p for p in found)
    assert any(p.startswith("nl:") and "Fernrohr" in p for p in found)  # nl says verrekijker

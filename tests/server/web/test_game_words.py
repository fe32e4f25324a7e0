"""The games' words a reviewer read in Dutch, German and French: words agree with what they name; one term for one thing, the rule books'
where a rule book names it (/work/shared/rules: 000 and 004 Puerto Rico in
Dutch and French, 002 the German server manual, 001 New Found Land in
Dutch)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engine.new_found_land import labels
from engine.new_found_land.common import SEMICOLON
from engine.words import listing, msg, nmsg, term
from server.i18n import say

ENGINE = Path(__file__).resolve().parents[3] / "engine"


def pr(lang: str, text) -> str:
    return say(lang, text, "puerto_rico")


def nfl(lang: str, text) -> str:
    return say(lang, text, "new_found_land")


def test_puerto_rico_words_agree_with_what_they_name():
    # 002: "Gesammelte Steinbrüche und Plantagen".
    two = nmsg(
        "%(n)s quarry (%(worked)s worked)", "%(n)s quarries (%(worked)s worked)", 2, worked=1
    )
    assert pr("de", two) == "2 Steinbrüche (1 besetzt)"
    assert pr("fr", two) == "2 carrières (colons\u202f: 1)"
    assert pr("en", two) == "2 quarries (1 worked)"
    assert pr("de", term("Place")) == "Setzen"
    put = nmsg(
        "Put a colonist on the %(target)s",
        "Put %(n)s colonists on the %(target)s",
        1,
        target=term("indigo plantation"),
    )
    assert pr("de", put) == "Setze einen Kolonisten ein: Indigoplantage"
    assert pr("fr", put) == "Placez un colon\u202f: plantation d’indigo"
    # 004: "50 jetons points de victoire": the chips are plural.
    assert pr("fr", msg("hidden")) == "cachés"
    assert pr("fr", msg("no goods")) == "aucune marchandise"
    assert pr("fr", msg("no plantations")) == "aucune plantation"


def test_new_found_land_words_agree_and_keep_one_term():
    kind = msg("%(ship)s (%(kind)s)", ship="s02", kind=term("small"))
    assert nfl("nl", kind) == "s02 (klein)"
    assert nfl("fr", kind) == "s02 (petit)"
    assert nfl("fr", labels.goal_text("G11")).startswith("G11 (petits navires\u202f:")
    # 001: "heeft de speler het **koloniale toezicht** gebouwd": with the
    # article "koloniale", alone "koloniaal".
    assert nfl("nl", term("colonial oversight")) == "koloniaal toezicht"
    # 001: "het cijfer op de verrekijker": the board says it too.
    glass = msg(
        "sail %(sail)s crate %(crate)s person %(person)s spyglass %(glass)s",
        sail=1,
        crate=1,
        person=1,
        glass=2,
    )
    assert "verrekijker 2" in nfl("nl", glass)
    assert "longue-vue 2" in nfl("fr", glass)
    assert nfl("fr", msg("a small ship %(ship)s", ship="s15")) == "un petit navire s15"
    assert nfl("fr", listing([msg("%(n)s point", n=4), "Q1"], SEMICOLON)) == "4 point\u202f; Q1"
    assert nfl("en", listing(["a", "b"], SEMICOLON)) == "a; b"
    assert nfl("fr", msg("End your land phase")) == "Terminez votre phase à terre"


@pytest.mark.parametrize(
    "catalog",
    [
        "puerto_rico/translations/fr/LC_MESSAGES/puerto_rico.po",
        "new_found_land/translations/fr/LC_MESSAGES/new_found_land.po",
    ],
)
def test_french_game_catalogs_write_one_apostrophe_and_one_plus(catalog):
    with open(ENGINE / catalog, "rb") as f:
        strings = [m.string for m in read_po(f) if m.id]
    flat = [s for m in strings for s in (m if isinstance(m, tuple) else (m,))]
    assert not [s for s in flat if "'" in s]
    assert not [s for s in flat if re.search(r"[\w)]\+[\w%]", s)]
    assert not [s for s in flat if "phase terrestre" in s or "lunette" in s]

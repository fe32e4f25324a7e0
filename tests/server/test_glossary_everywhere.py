"""One engine term, one word per language, where people read it: every kind
of mail (every_mail.py) and the pages of both games (boards, logs, the
moderator's page) rendered in each language, checked against each game's
glossary (engine/<game>/translations/glossary.json).  A term said with a
word the glossary sets aside, or left in English inside another language,
is a term said two ways.  tests/engine/test_glossary.py checks the
catalogs; this checks what the server writes with them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clock_helpers import sign_in
from every_mail import queue_every_kind, site
from pseudo_locale import visible

from server.db import db
from server.models import Game, Seat

ENGINE = Path(__file__).resolve().parents[2] / "engine"
GLOSSARIES = [
    json.loads(p.read_text("utf-8")) for p in sorted(ENGINE.glob("*/translations/glossary.json"))
]
# Texts every_mail.py hands a mail as already said (a reply's applied moves).
GIVEN = ("Ana Alba took the Mayor",)


def word(text: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(text)}(?:s|es)?(?![\w-])", re.IGNORECASE)


def second_ways(text: str, code: str) -> list[str]:
    """The words of ``text`` that say a glossary term another way in ``code``."""
    for given in GIVEN:
        text = text.replace(given, " ")
    found = []
    for glossary in GLOSSARIES:
        found += [w for w in glossary["avoid"].get(code, []) if word(w).search(text)]
        if code == "en":
            continue
        for term, words in glossary["terms"].items():
            own = " ".join(words[code]).lower()
            if word(term).search(text) and not word(term).search(own):
                found.append(f"{term} (English)")
    return found


@pytest.fixture(scope="module", params=["en", "nl", "de", "fr"])
def written(request, tmp_path_factory):
    """Every mail kind and the games' pages in one language: (where, text)."""
    code = request.param
    app, ids = site(tmp_path_factory.mktemp(f"glossary-{code}"), code)
    game_id, lobby_id, ships_id, over_id = ids
    texts = []
    for mail in queue_every_kind(app, ids):
        texts += [
            (f"{mail.kind} subject", mail.subject),
            (f"{mail.kind} text", mail.body_text),
            (f"{mail.kind} html", visible(mail.body_html)),
        ]
    with app.app_context(), db.connection_context():
        holders = {
            g: Seat.get((Seat.game == g) & (Seat.index == Game.get_by_id(g).to_move)).user.email
            for g in (game_id, ships_id)
        }
    heard = {"Accept-Language": code}
    for game, email in holders.items():
        reader = sign_in(app, email)
        for path in (f"/games/{game}", f"/games/{game}/log", f"/games/{game}/at/1"):
            page = reader.get(path, headers=heard)
            assert page.status_code == 200, path
            texts.append((path, visible(page.text)))
    moderator = sign_in(app, "mod@example.org")
    for path in (f"/moderation/games/{game_id}", f"/moderation/games/{over_id}"):
        page = moderator.get(path, headers=heard)
        assert page.status_code == 200, path
        texts.append((path, visible(page.text)))
    return code, texts


def test_each_term_is_said_one_way_in_every_mail_and_page(written):
    code, texts = written
    found = {where: second_ways(text, code) for where, text in texts}
    assert not {w: f for w, f in found.items() if f}
    # The terms are there to be checked: the boards and logs name them.
    said = {
        term
        for glossary in GLOSSARIES
        for term, words in glossary["terms"].items()
        for _, text in texts
        if any(word(w).search(text) for w in ([term] if code == "en" else words[code]))
    }
    assert len(said) >= 5, said


def test_the_check_finds_a_term_said_two_ways():
    assert second_ways("Die Glas-Karte: Glas 1", "de") == ["Glas"]
    assert second_ways("Le Mayor prend", "fr") == ["Mayor (English)"]
    assert second_ways("the large indigo plant", "en") == ["large indigo plant"]
    assert second_ways("L’Intendant prend la teinturerie d’indigo", "fr") == []

"""The games' own words (choices, the log, the board) in
Dutch, German and French, with each game's terms as its rule text in that
language names them.

The engines hand out ``Words`` (engine/words.py): English text that keeps
its template and values.  These tests walk seeded games through every kind
of decision, render every text in every language, and check that nothing is
left untranslated or unfilled; then that the terms are the rulebooks' own
(each one looked up in the rule file itself), and that pages, turn mails and
mail replies use them."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from clock_helpers import random_move, sign_in, started_game, to_move
from web_helpers import text_of

from engine import GAMES
from engine.interface import Event
from engine.puerto_rico.data import CARDS
from engine.puerto_rico.phases.roles import ROLE_TITLES
from engine.words import Words, term
from server.db import db
from server.i18n import TRANSLATIONS, say
from server.models import Game, Seat, User
from server.services.move_replies import match
from server.services.reply_menu import seat_choices
from server.services.state_store import load_state

# The rule texts (the spec) sit beside the project, not in it; a clone
# elsewhere finds them through PBEM_RULES or the team machine's path.
RULE_DIRS = [
    Path(os.environ.get("PBEM_RULES", "/nonexistent")),
    Path(__file__).resolve().parents[4] / "shared" / "rules",
    Path("/work/shared/rules"),
]
RULES = next((d for d in RULE_DIRS if d.is_dir()), RULE_DIRS[1])
LANGS = ("nl", "de", "fr")


def rule_text(name: str) -> str:
    path = RULES / name
    if not path.exists():
        pytest.skip(f"the rule texts are not beside the project ({RULES})")
    # The French catalogs write the typographic apostrophe (d’indigo), the
    # rule books the straight one: the same letter, so compare them as one.
    return path.read_text(encoding="utf-8").casefold().replace("'", "’")


def catalog_ids(lang: str) -> set:
    """The translated msgids of the server's catalog and every game's own."""
    files = [TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"]
    files += [
        Path(game.translations_dir()) / lang / "LC_MESSAGES" / f"{game.domain}.po"
        for game in GAMES.values()
    ]
    ids = set()
    for path in files:
        with path.open("rb") as f:
            ids |= {
                m.id if isinstance(m.id, str) else m.id[0]
                for m in read_po(f, locale=lang)
                if m.id and m.string
            }
    return ids


def words_in(text) -> list[Words]:
    """``text`` and every Words among its values, depth first."""
    if not isinstance(text, Words):
        return []
    found = [text]
    for value in text.values.values():
        found += words_in(value)
    return found


def is_listing(words: Words) -> bool:
    """engine.words.listing's joining templates hold no words of their own."""
    stripped = words.template
    for key in words.values:
        stripped = stripped.replace(f"%({key})s", "")
    return not any(ch.isalpha() for ch in stripped)


def walk_texts(game_name: str, players: int, seed: int, options=None, moves_cap=400):
    """Every text a seat may read in a seeded random game: choice labels,
    log events (whole and public), the board of every seat."""
    game = GAMES[game_name]
    state, r = game.new_game(players, options or {}, seed=seed), random.Random(seed)
    for step in range(moves_cap):
        if game.is_over(state):
            break
        seat = game.to_move(state)
        choices = game.choices(state, seat)
        yield from (c.label for c in choices)
        if step % 7 == 0:
            for viewer in (seat, None):
                for section in game.board(game.view(state, viewer)):
                    yield section.title
                    for label, value in section.rows:
                        yield label
                        yield value
        state, events = game.apply(state, seat, r.choice(choices).action)
        for e in events:
            e = Event.from_json(e.to_json())  # as the log stores and reads it
            yield e.text
            yield e.public_text


CASES = [
    ("puerto_rico", 4, 1, {"buildings": "base"}),
    ("puerto_rico", 3, 2, {"buildings": "extended"}),
    ("puerto_rico", 2, 3, {"buildings": "random"}),
    ("new_found_land", 3, 1, None),
    ("new_found_land", 2, 2, None),
    ("new_found_land", 4, 3, None),
]


@pytest.fixture(scope="module")
def texts():
    found = []
    for game_name, players, seed, options in CASES:
        found += [t for t in walk_texts(game_name, players, seed, options) if t]
    return found


def test_the_games_write_their_texts_as_words(texts):
    """Not a check of wording: that the engines really hand out templates.
    Plain strings would read in English in every language."""
    plain = sorted({t for t in texts if not isinstance(t, Words) and any(ch.isalpha() for ch in t)})
    assert len([t for t in texts if isinstance(t, Words)]) > 1000
    # The few plain strings left are names and codes: seats, cities,
    # islands, captains, card ids; none is a sentence.
    assert all(" " not in t or t[0].isupper() for t in plain), plain[:20]


@pytest.mark.parametrize("lang", LANGS)
def test_every_game_text_is_in_the_catalog_and_renders(texts, lang):
    ids = catalog_ids(lang)
    missing, broken = set(), []
    for text in texts:
        for words in words_in(text):
            if words.template and not is_listing(words) and words.template not in ids:
                missing.add(words.template)
        rendered = say(lang, text)
        if "%(" in rendered or not rendered.strip():
            broken.append((text, rendered))
    assert not missing, sorted(missing)[:20]
    assert not broken, broken[:5]


def test_a_dutch_log_line_is_dutch_and_english_stays_english(texts):
    rounds = [t for t in texts if isinstance(t, Words) and t.template.startswith("Round %")]
    assert rounds
    line = rounds[0]
    assert say("en", line) == str(line) and str(line).startswith("Round ")
    assert say("nl", line).startswith("Ronde ") and say("de", line).startswith("Runde ")
    assert say("fr", line).startswith("Tour ")


# -- the rulebooks' terms ------------------------------------------------------
PR_NL, PR_FR, PR_DE, NFL_NL = (
    "000_5b629d4347a4e22c.txt",
    "004_800c979a45a72a97.txt",
    "002_ba16dceef361cad6.txt",
    "001_6e0b967b99df3447.txt",
)
BASE_BUILDINGS = [name for name, card in CARDS.items() if not card.expansion]


@pytest.mark.parametrize("lang,rules", [("nl", PR_NL), ("fr", PR_FR)])
def test_puerto_rico_buildings_carry_the_names_of_the_rule_text(lang, rules):
    """000 "DE GEBOUWEN" / 004 "Les bâtiments": every base building the
    rulebook describes by name is called by that name.  (The production
    buildings are named by the goods they make in both texts; they are
    checked by their goods below.)"""
    text = rule_text(rules)
    named = [b for b in BASE_BUILDINGS if CARDS[b].produces is None]
    assert len(named) == 17
    for building in named:
        name = say(lang, term(CARDS[building].title))
        assert name != CARDS[building].title or lang == "fr", building
        assert name.casefold() in text, f"{lang}: {name!r} ({building}) is not in {rules}"


@pytest.mark.parametrize("lang,rules", [("nl", PR_NL), ("de", PR_DE), ("fr", PR_FR)])
def test_puerto_rico_roles_and_goods_carry_the_names_of_the_rule_text(lang, rules):
    """000 "rollen", 002 "Rollen" / "Waren", 004 "Les personnages": the roles
    and goods as the rule text of that language calls them."""
    text = rule_text(rules)
    for title in set(ROLE_TITLES.values()):
        if lang == "nl" and title == "Settler":
            continue  # 000 says both "kolonist" and "landbouwer"; checked below
        name = say(lang, term(title))
        assert name.casefold() in text, f"{lang}: role {name!r} is not in {rules}"
    for good in ("corn", "indigo", "sugar", "tobacco", "coffee", "quarry"):
        name = say(lang, term(good))
        assert name.casefold() in text, f"{lang}: {name!r} is not in {rules}"
    if lang == "nl":
        # "DE LANDBOUWER (landbouwfase → aanleg van een nieuwe plantage)"
        assert say("nl", term("Settler")) == "Landbouwer" and "de landbouwer" in text


def test_new_found_land_actions_and_goods_carry_the_names_of_the_dutch_rules():
    """001 Planningsfase: "Laden", "Vestigen", "Leveren", "Ontdekken"; the
    goods "hout, doek, ijzer, goud" (Speelmateriaal)."""
    text = rule_text(NFL_NL)
    for action in ("Load", "Settle", "Deliver", "Explore"):
        name = say("nl", term(action))
        assert name.casefold() in text, name
    for good in ("wood", "cloth", "iron", "gold"):
        assert say("nl", term(good)).casefold() in text


# -- pages, mails and replies --------------------------------------------------
def speak(app, game_id: int, lang: str) -> None:
    """Every player of the game reads ``lang``."""
    with app.app_context(), db.connection_context():
        ids = [s.user_id for s in Seat.select().where(Seat.game == game_id)]
        User.update(language=lang).where(User.id.in_(ids)).execute()


def test_the_game_page_shows_choices_log_and_board_in_the_readers_language(app):
    game = started_game(app, players=3, tag="taal")
    speak(app, game.id, "nl")
    random_move(app, game.id, random.Random(5))  # a role is taken: a line in the log
    seat = to_move(app, game.id)
    page = sign_in(app, seat.user.email).get(f"/games/{game.id}").text
    choices = page[page.index('name="action"') :]
    assert "Bouwmeester" in choices or "Neem " in choices or "Zet " in choices
    assert "Beschikbare rollen" in page and "Tafel" in page  # the board
    assert " kiest de " in page  # the log
    assert "Roles on offer" not in page and " chooses the " not in page
    # The drawn board speaks Dutch too (HTML, no longer SVG).
    assert "Rollen (dubloenen erop)" in page and '"label">Burgemeester</span>' in page
    assert ">Mayor<" not in page and "Roles (doubloons on them)" not in page


def test_the_turn_mail_speaks_the_players_language(app, smtp, send_mail):
    game = started_game(app, players=3, tag="langue")
    speak(app, game.id, "fr")
    random_move(app, game.id, random.Random(5))  # the next seat's turn mail
    seat = to_move(app, game.id)
    send_mail(app)
    body = text_of(smtp.to(seat.user.email)[-1])
    # French sets a space before a colon: "Tour : 1".
    assert "Personnages disponibles" in body and "Tour\u202f: 1" in body
    assert "choisit le personnage" in body  # the move just made
    assert "Roles on offer" not in body and "chooses the" not in body


def test_a_reply_may_name_a_choice_in_the_players_language(app):
    game = started_game(app, players=3, tag="sprache")
    seat = to_move(app, game.id)
    with app.app_context(), db.connection_context():
        row = Game.get_by_id(game.id)
        state = load_state(row, save=False)
        german = seat_choices(row, seat.index, state, "de")
        english = seat_choices(row, seat.index, state)
    assert [c.action for c in german] == [c.action for c in english]
    assert any(c.label.startswith("Bürgermeister") for c in german)
    chosen = next(c for c in german if c.label.startswith("Bürgermeister"))
    assert match("bürgermeister", german) == chosen


def marked_in_engine() -> set[str]:
    """Every literal the engines mark (``N_``, ``msg``, ``nmsg``), found by
    walking their syntax trees: a call nested in another's arguments too,
    which the catalog extraction must not miss."""
    import ast

    found = set()
    for path in (Path(__file__).resolve().parents[3] / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("N_", "msg", "nmsg")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and node.args[0].value
            ):
                found.add(node.args[0].value)
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_the_engines_mark_is_in_the_catalog(lang):
    marked = marked_in_engine()
    assert len(marked) > 300
    assert not sorted(marked - catalog_ids(lang))


@pytest.mark.parametrize("game_name", ["puerto_rico", "new_found_land"])
def test_the_result_says_why_the_game_ended_in_the_readers_language(game_name):
    """The stored outcome keeps the reason's template; the score parts are
    catalog entries.  (A finished random game, stored as the server stores it.)"""
    from types import SimpleNamespace

    from server.services.what_a_seat_sees import outcome_reason, outcome_rows

    game = GAMES[game_name]
    state, r = game.new_game(3, {}, seed=11), random.Random(11)
    while not game.is_over(state):
        seat = game.to_move(state)
        state, _ = game.apply(state, seat, r.choice(game.legal_actions(state, seat)))
    row = SimpleNamespace(kind=game_name, outcome=game.outcome(state).to_json())
    english, dutch = outcome_reason(row, "en"), outcome_reason(row, "nl")
    assert english.startswith("It ended") and dutch.startswith("Het spel eindigde")
    parts = {label for r in outcome_rows(row, ["A", "B", "C"], "de") for label, _ in r["breakdown"]}
    assert parts & {"Chips", "Gebäude", "während des Spiels"}, parts
    # A game stored before the templates were kept reads its English reason.
    old = SimpleNamespace(outcome={k: v for k, v in row.outcome.items() if k != "reason_words"})
    assert outcome_reason(old, "nl") == english


def test_the_moderation_pages_speak_the_moderators_language(app):
    game = started_game(app, players=3, tag="mod")
    with app.app_context(), db.connection_context():
        User.update(language="de", is_moderator=True).where(
            User.email == "mod0@example.org"
        ).execute()
    client = sign_in(app, "mod0@example.org")
    dashboard = client.get("/moderation?all=1").text
    assert "<h1>Laufende Partien</h1>" in dashboard  # every game: titled so
    page = client.get(f"/moderation/games/{game.id}").text
    assert "Einen Spieler ersetzen" in page and "Grund (die Spieler lesen ihn)" in page
    assert "wähle eine Rolle" in page  # the pending prompt
    assert "Replace a player" not in page and "choose a role" not in page


def test_a_refused_move_is_explained_in_the_players_language(app):
    """The messages of refusals are catalog entries (marked N_ where they are
    raised): a stale move's 409 page reads in Dutch."""
    import json

    from web_helpers import move_form

    game = started_game(app, players=3, tag="weiger")
    speak(app, game.id, "nl")
    seat = to_move(app, game.id)
    client = sign_in(app, seat.user.email)
    form = move_form(client.get(f"/games/{game.id}").text)
    action = next(v for name, v in form["buttons"] if name == "action")
    stale = client.post(form["action"], data=dict(form["fields"], action=action, seq="999"))
    assert stale.status_code == 409
    assert "Het spel is verder gegaan sinds deze pagina gemaakt werd." in stale.text
    assert json.loads(action)  # the form offered a real move


def test_a_moderators_note_reads_in_each_players_language(app):
    """What a moderator did is a note in the log and a mail to the players:
    both in the reader's language; the moderator's reason as written."""
    from server.models import Outbox
    from server.services import moderation

    game = started_game(app, players=3, tag="pauze")
    speak(app, game.id, "nl")
    with app.app_context(), db.connection_context():
        # A site moderator: a host who plays may not pause alone.
        mod = User.create(email="mod@example.org", name="Mo", password_hash="", is_moderator=True)
        moderation.pause(
            game.id,
            mod,
            Game.get_by_id(game.id).seq,
            "even wachten",
            mailer=app.extensions["pbem_mailer"],
        )
        mail = Outbox.select().where(Outbox.kind == "moderation_notice").get()
    assert "heeft het spel gepauzeerd" in mail.body_text and "Reden: even wachten" in mail.body_text
    page = sign_in(app, "pauze1@example.org").get(f"/games/{game.id}").text
    assert "heeft het spel gepauzeerd" in page and "paused the game" not in page


def test_a_move_that_is_not_offered_is_refused_in_the_players_language(app):
    """A refusal raised with a marked message reads in Dutch on the 400 page."""
    import json

    from web_helpers import move_form

    game = started_game(app, players=3, tag="onwettig")
    speak(app, game.id, "nl")
    seat = to_move(app, game.id)
    client = sign_in(app, seat.user.email)
    form = move_form(client.get(f"/games/{game.id}").text)
    bad = client.post(
        form["action"], data=dict(form["fields"], action=json.dumps({"type": "sell"}))
    )
    assert bad.status_code == 400
    assert "Die zet hoort niet bij de zetten die je nu mag doen." in bad.text

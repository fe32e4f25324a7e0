"""Pages and mails in Dutch, German, French and English.

The catalogs must hold every message the sources mark for translation, with
every plural form and the same placeholders; the compiled .mo files must
match their .po; a reader's page follows their setting, else their
browser; mails follow the recipient's setting."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from clock_helpers import sign_in, started_game
from web_helpers import csrf, form_for, post_form, signup

from server.db import db
from server.i18n import LANGUAGES, TRANSLATIONS
from server.models import Game, Outbox, User
from server.services import moves
from server.services.state_store import load_state, rules

ROOT = Path(__file__).resolve().parents[3]
LANGS = [code for code in LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


# The server's catalog and each built-in game's own (its words, its domain):
# (domain, catalogs folder, babel mapping, sources), as scripts/catalogs.sh has them.
CATALOGS = {
    "messages": (TRANSLATIONS, "babel.cfg", ROOT),
    **{
        game: (ROOT / "engine" / game / "translations", "babel-game.cfg", ROOT / "engine" / game)
        for game in ("puerto_rico", "new_found_land")
    },
}


def extract(tmp_path, domain: str) -> list:
    """The messages the sources mark today (scripts/catalogs.sh's extraction)."""
    _, mapping, sources = CATALOGS[domain]
    pot = tmp_path / f"{domain}.pot"
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from babel.messages.frontend import main; main()",
            "--quiet",
            "extract",
            "-F",
            str(ROOT / mapping),
            "-k",
            "words:2",
            "-k",
            "lazy_gettext",
            "-k",
            "_l",
            "-k",
            "N_",
            "-k",
            "msg",
            "-k",
            "nmsg:1,2",
            "-o",
            str(pot),
            ".",
        ],
        cwd=sources,
        check=True,
    )
    with pot.open("rb") as f:
        return [m for m in read_po(f) if m.id]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pot")
    return {domain: extract(folder, domain) for domain in CATALOGS}


def catalog(lang: str, domain: str = "messages"):
    with (CATALOGS[domain][0] / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=lang)


def test_a_games_words_are_in_its_own_catalog_only(extracted):
    """Adding a game touches the game only: none of its words comes from the
    server's sources, and the server's catalog holds none that is only a game's."""
    server = {m.id for m in extracted["messages"]}
    with (TRANSLATIONS / "messages.pot").open("rb") as f:
        assert {m.id for m in read_po(f) if m.id} == server, "run: bash scripts/catalogs.sh"
    for game in ("puerto_rico", "new_found_land"):
        own = {m.id for m in extracted[game]} - server
        assert len(own) > 100
        assert not own & {m.id for m in catalog("nl")}, game


@pytest.mark.parametrize("domain", list(CATALOGS))
@pytest.mark.parametrize("lang", LANGS)
def test_every_marked_message_is_translated_with_its_placeholders(extracted, lang, domain):
    po, extracted = catalog(lang, domain), extracted[domain]
    assert len(extracted) > 100
    for message in extracted:
        found = po.get(message.id, message.context)  # "ordinal one": a msgctxt
        assert found is not None, f"{lang}: no entry for {message.id!r}"
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [found.string] if isinstance(found.string, str) else list(found.string)
        assert strings and all(strings), f"{lang}: {message.id!r} is not translated"
        assert "fuzzy" not in found.flags, f"{lang}: {message.id!r} is fuzzy"
        wanted = set(PLACEHOLDER.findall(" ".join(ids)))
        # A singular form may leave the count out ("a colonist"); the last
        # (plural) form and a message without plural say every value.
        assert set(PLACEHOLDER.findall(strings[-1])) == wanted, f"{lang}: {strings[-1]!r}"
        for s in strings:
            assert set(PLACEHOLDER.findall(s)) <= wanted, f"{lang}: {s!r} vs {message.id!r}"


@pytest.mark.parametrize("domain", list(CATALOGS))
@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalog_is_the_po_file(lang, domain):
    with (CATALOGS[domain][0] / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as f:
        mo = read_mo(f)
    po = catalog(lang, domain)

    def entries(cat) -> dict:
        def flat(value):
            return value if isinstance(value, str) else tuple(value)

        return {flat(m.id): flat(m.string) for m in cat if m.id}

    compiled, written = entries(mo), entries(po)
    assert compiled == written, "run: bash scripts/catalogs.sh compile"


def test_pages_follow_the_browser_until_the_reader_chooses(app):
    visitor = app.test_client()
    page = visitor.get("/", headers={"Accept-Language": "de-CH, de;q=0.9, en;q=0.5"})
    assert '<html lang="de">' in page.text and "Brettspiele per E-Mail spielen" in page.text
    page = visitor.get("/", headers={"Accept-Language": "fr-BE"})
    assert "Jouer à des jeux de société par e-mail" in page.text
    page = visitor.get("/", headers={"Accept-Language": "ja, es;q=0.8"})
    assert '<html lang="en">' in page.text and "Play board games by email" in page.text
    client = app.test_client()
    signup(client, "Noor", "noor@example.org")  # a browser that asked for nothing: en
    page = client.get("/settings", headers={"Accept-Language": "fr"})
    assert "Settings" in page.text
    saved = post_form(client, form_for(page.text, "/settings"), language="")
    page = client.get("/settings", headers={"Accept-Language": "fr"})
    assert "Réglages" in page.text  # "as my browser says"
    form = form_for(page.text, "/settings")
    saved = post_form(client, form, language="nl")
    assert "Instellingen" in saved.text
    page = client.get("/", headers={"Accept-Language": "fr"})  # the setting wins
    assert '<html lang="nl">' in page.text and "Je spellen" in page.text


def test_an_unknown_language_is_refused_and_changes_nothing(app):
    client = app.test_client()
    signup(client, "Ed", "ed@example.org")
    page = client.get("/settings")
    fields = dict(form_for(page.text, "/settings")["fields"], language="xx")
    refused = client.post("/settings", data=fields)
    assert refused.status_code == 400
    with app.app_context(), db.connection_context():
        assert User.get(User.email == "ed@example.org").language == "en"  # as it was
    assert csrf(refused.text)


def play_until_the_next_seat(app, game) -> Game:
    """The seat to move plays its first choices until another seat is to
    move (that seat's turn mail is then the newest); the game row after."""
    first_seat = game.to_move
    while (g := Game.get_by_id(game.id)).to_move == first_seat:
        kind, state = rules(g), load_state(g)
        moves.play(
            g.id,
            g.to_move,
            kind.legal_actions(state, g.to_move)[0],
            g.seq,
            "player",
            mailer=app.extensions["pbem_mailer"],
        )
    return g


def test_mails_go_out_in_the_recipients_language(app):
    game = started_game(app, players=2, tag="fr")
    with app.app_context(), db.connection_context():
        first = Outbox.select().where(Outbox.kind == "turn").get()
        assert "It is your turn in" in first.body_text  # English by default
        User.update(language="fr").execute()
        play_until_the_next_seat(app, game)
        mail = Outbox.select().where(Outbox.kind == "turn").order_by(Outbox.id.desc()).get()
    assert "C’est votre tour dans" in mail.body_text and "C’est votre tour dans" in mail.body_html
    assert "Envoyé par pbem" in mail.body_text
    assert mail.body_text.startswith("C’est votre tour\u202f:")


def test_signing_up_keeps_the_browsers_language_for_the_first_mail(app):
    """A German browser signs up: the account's first guess is German, and
    the confirmation mail is German; Settings still offer every language."""
    client = app.test_client()
    page = client.get("/signup", headers={"Accept-Language": "de-AT,de;q=0.9"})
    assert "Registrieren" in page.text
    client.post(
        "/signup",
        headers={"Accept-Language": "de-AT,de;q=0.9"},
        data={
            "csrf_token": csrf(page.text),
            "name": "Grete",
            "email": "grete@example.org",
            "password": "correct horse",
        },
    )
    with app.app_context(), db.connection_context():
        assert User.get(User.email == "grete@example.org").language == "de"
        mail = Outbox.select().where(Outbox.to_addr == "grete@example.org").get()
    assert "Meine Adresse bestätigen" in mail.body_html
    assert "wahrscheinlich du" in mail.body_text


def test_the_engines_prompts_follow_the_readers_language(app):
    """The prompt comes from the engine as a template (Rules.prompt_message):
    the page and the turn mail say it in the player's language."""
    game = started_game(app, players=2, tag="pl")
    seat_email = f"pl{game.to_move}@example.org"
    with app.app_context(), db.connection_context():
        User.update(language="de").where(User.email == seat_email).execute()
    page = sign_in(app, seat_email).get(f"/games/{game.id}")
    assert "Dein Zug: wähle eine Rolle" in page.text
    with app.app_context(), db.connection_context():
        User.update(language="nl").execute()
        g = play_until_the_next_seat(app, game)
        mail = Outbox.select().where(Outbox.kind == "turn").order_by(Outbox.id.desc()).get()
        wanted = rules(g).prompt_message(load_state(g))
    assert wanted[0] in (
        "choose a role",
        "take a plantation",
        "place your colonists",
        "build a building",
        "sell a good",
        "ship goods",
        "place your colonists (%(left)s left to place)",
        "choose the craftsman's extra barrel",
    )
    from server.i18n import translate

    dutch = translate("nl", *wanted)
    assert dutch != wanted[0] % wanted[1] if wanted[1] else dutch != wanted[0]
    assert dutch in mail.body_text and mail.body_text.startswith("Je bent aan de beurt: ")


def test_account_mails_go_out_in_the_accounts_language(app):
    """A password reset and an address change, for a Dutch account: the mail
    to the new address (no account yet) is in the account's language too."""
    from clock_helpers import user

    with app.app_context(), db.connection_context():
        person = user("anna@example.org", "Anna", language="nl")
        mailer = app.extensions["pbem_mailer"]
        reset = mailer.reset(person)
        change = mailer.address_change(person, "anna.nieuw@example.org")
        notice = Outbox.select().where(Outbox.kind == "address_notice").get()
    assert reset.subject == "[pbem] Kies een nieuw wachtwoord"
    assert "Open deze link om een nieuw wachtwoord te kiezen" in reset.body_text
    assert change.subject == "[pbem] Bevestig je nieuwe adres"
    assert "Je vroeg pbem om je mail voortaan naar dit adres te sturen" in change.body_text
    assert "anna.nieuw@example.org" in notice.body_text and "Je adres wordt gewijzigd" in (
        notice.subject
    )


@pytest.mark.parametrize(("lang", "heading"), [("fr", "Classement\u202f: "), ("de", "Rangliste: ")])
def test_a_label_and_its_colon_follow_the_languages_typography(app, lang, heading):
    """French sets a narrow no-break space before a colon ("Classement : Puerto Rico"); the
    pages' "label: value" lines take their colon from the catalog."""
    client = app.test_client()
    signup(client, "Lea", "lea@example.org")
    with app.app_context(), db.connection_context():
        User.update(language=lang).where(User.email == "lea@example.org").execute()
    page = client.get("/leaderboard?kind=puerto_rico")
    assert page.status_code == 200
    assert f"<h1>{heading}Puerto Rico</h1>" in page.text

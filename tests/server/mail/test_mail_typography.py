"""Each language's typography, applied where the catalogs
are loaded (server/typography.py), not typed by hand in each string:
French narrow no-break space before : ; ! ? and inside « », German „…“,
Dutch “…”.  Every kind of mail in French, German and Dutch is checked, and
a French page."""

from __future__ import annotations

import re

import pytest
from every_mail import queue_every_kind, site
from web_helpers import form_for, post_form, signup

from server.db import db
from server.models import User
from server.typography import polish, signed

NARROW = "\u202f"
# French: a word, then a plain or no space, then : ; ! ? ending a phrase.
FRENCH_WRONG = re.compile(r"\w[ \u00a0]?[:;!?](?=\s|$)")
STRAIGHT = re.compile(r'"[^"\n<>]*"')


def test_polish_follows_each_language():
    assert polish("C'est votre tour:", "fr") == f"C'est votre tour{NARROW}:"
    assert polish("Tour : 1 ; enfin !", "fr") == f"Tour{NARROW}: 1{NARROW}; enfin{NARROW}!"
    assert polish('Appuyez sur "Je suis de retour".', "fr") == (
        f"Appuyez sur «{NARROW}Je suis de retour{NARROW}»."
    )
    assert polish('Drück "Ich bin zurück".', "de") == "Drück „Ich bin zurück“."
    assert polish('Druk op "Ik ben terug".', "nl") == "Druk op “Ik ben terug”."
    assert polish('Press "I\'m back": now', "en") == "Press \u201cI\u2019m back\u201d: now"
    # Links, times, entities and tags stay as they are.
    html = 'Réglages : <a href="%(url)s">ici</a> &amp; 10:30, https://x.org/?a=1'
    assert polish(html, "fr") == html.replace(" :", f"{NARROW}:")
    tag = "<a href='/x' title=\"y\">it's</a>"
    assert polish(tag, "en") == "<a href='/x' title=\"y\">it\u2019s</a>"
    assert signed(1.5, "fr") == "+1,5"
    # Twice is once: a mail is polished whole, its catalog texts already were.
    for code, text in (
        ("fr", 'Tour : « x » "y"; z!'),
        ("de", 'a "b" c'),
        ("nl", 'a "b"'),
        ("en", 'don\'t "b"'),
    ):
        assert polish(polish(text, code), code) == polish(text, code)


@pytest.fixture(scope="module", params=["en", "fr", "de", "nl"])
def outbox(request, tmp_path_factory):
    app, ids = site(tmp_path_factory.mktemp(f"typo-{request.param}"), request.param)
    return request.param, queue_every_kind(app, ids)


def test_every_mail_follows_its_languages_typography(outbox):
    code, mails = outbox
    wrong = {}
    for mail in mails:
        for part, text in (("subject", mail.subject), ("text", mail.body_text)):
            text = re.sub(r"https?://\S+", "", text)
            found = STRAIGHT.findall(text)
            if code == "en":
                found += re.findall(r"[A-Za-z]'[A-Za-z]", text)
            if code == "fr":
                found += [m for m in FRENCH_WRONG.findall(text) if NARROW not in m]
            if found:
                wrong[f"{mail.kind} {part}"] = sorted(set(found))
    assert not wrong, wrong


def test_a_french_page_sets_narrow_spaces(app):
    client = app.test_client()
    signup(client, "Léa", "lea@example.org")
    with app.app_context(), db.connection_context():
        User.update(language="fr").where(User.email == "lea@example.org").execute()
    page = client.get("/leaderboard?kind=puerto_rico").text
    assert f"<h1>Classement{NARROW}: Puerto Rico</h1>" in page


@pytest.mark.parametrize(
    "code, quoted",
    [
        ("de", "„Das Spiel anlegen“"),
        ("nl", "“Het spel aanmaken”"),
        ("fr", f"«{NARROW}Créer la partie{NARROW}»"),
    ],
)
def test_a_page_quotes_as_its_language_does(app, code, quoted):
    """The new-game page's notice for a game picked, as a reader of each
    language gets it: the catalog's straight quotes set as the language sets them."""
    client = app.test_client()
    signup(client, "Léa", f"lea-{code}@example.org")
    with app.app_context(), db.connection_context():
        User.update(language=code).where(User.email == f"lea-{code}@example.org").execute()
    form = form_for(client.get("/games/new").text, "/games/new")
    picked = post_form(client, form, kind="new_found_land", name="Ships", seats="3")
    notice = re.search(r'<p class="notice" id="picked">(.*?)</p>', picked.text).group(1)
    assert quoted in notice and '"' not in notice and "&#34;" not in notice, notice

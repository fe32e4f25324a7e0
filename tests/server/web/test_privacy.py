"""/privacy says what is kept, why, for how long and who
answers for it, from the settings that decide it, in the reader's
language; every page footer and every mail footer links to it."""

from __future__ import annotations

import pytest
from conftest import make_app
from web_helpers import text_of

HEADINGS = {
    "en": "What is kept, why, and for how long",
    "nl": "Wat er bewaard wordt, waarom en hoe lang",
    "de": "Was aufbewahrt wird, warum und wie lange",
    "fr": "Ce qui est gardé, pourquoi et combien de temps",
}
DAYS = {"en": "12 days", "nl": "12 dagen", "de": "12 Tage", "fr": "12 jours"}


@pytest.fixture
def papp(sqlite_url, smtp, tmp_path):
    return make_app(
        sqlite_url,
        smtp,
        tmp_path,
        RETAIN_INBOUND_MAIL_DAYS=12,
        RETAIN_SENT_MAIL_BODY_DAYS=9,
        PRIVACY_CONTROLLER_NAME="Club Zeeland",
        PRIVACY_CONTROLLER_CONTACT="privacy@club.example",
    )


@pytest.mark.parametrize("language", ["en", "nl", "de", "fr"])
def test_the_page_states_the_windows_and_the_controller(papp, language):
    page = papp.test_client().get("/privacy", headers={"Accept-Language": language})
    assert page.status_code == 200
    assert HEADINGS[language] in page.text
    assert DAYS[language] in page.text and "9 " in page.text
    assert "Club Zeeland" in page.text and "privacy@club.example" in page.text


def test_without_a_controller_the_page_names_the_operator(sqlite_app):
    page = sqlite_app.test_client().get("/privacy")
    assert "The operator of this site answers for the personal data on it." in page.text
    assert "30 days" in page.text


def test_every_page_footer_links_to_it(sqlite_app):
    client = sqlite_app.test_client()
    for path in ("/", "/login", "/signup", "/no/such/page"):
        assert '<a href="/privacy">Privacy</a>' in client.get(path).text, path


def test_mails_link_to_it(sqlite_table):
    sqlite_table.send_mail(sqlite_table.app)
    mails = [m for e in sqlite_table.emails for m in sqlite_table.smtp.to(e)]
    # A mail to an address that has no account yet links to nothing but its
    # own link (mail/compose.py "stranger"); every other one links here.
    known = [m for m in mails if "the play-by-email server at" in text_of(m)]
    assert any("It is your turn" in text_of(m) for m in known)
    for mail in known:
        assert "What the site keeps about you, and for how long: <http://localhost/privacy>" in (
            mail.get_body(("plain",)).get_content()
        )
        assert '<a href="http://localhost/privacy">privacy</a>' in (
            mail.get_body(("html",)).get_content()
        )

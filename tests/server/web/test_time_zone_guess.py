"""A new account's time zone is guessed, not UTC for
everybody: from the region of the browser's languages when no script runs
(static/timezone.js does better in a browser: test_browser_small_things.py),
and what the form sends wins when it names a real zone."""

from __future__ import annotations

import pytest
from web_helpers import csrf

from server.db import db
from server.models import User
from server.web.time_zones import zone_for


@pytest.mark.parametrize(
    "header, zone",
    [
        ([("nl-NL", 1)], "Europe/Amsterdam"),
        ([("de", 1), ("de-AT", 0.8)], "Europe/Vienna"),  # the first tag with a region
        ([("pt_BR", 1)], "America/Sao_Paulo"),  # most people, not the first zone
        ([("zh-Hant-TW", 1)], "Asia/Taipei"),
        ([("en", 1)], "UTC"),  # no region: no guess
        ([("xx-ZZ", 1)], "UTC"),
    ],
)
def test_the_region_of_the_browsers_language_names_a_zone(header, zone):
    assert zone_for(header) == zone


def sign_up(client, language: str, **fields) -> User:
    page = client.get("/signup", headers={"Accept-Language": language})
    client.post(
        "/signup",
        headers={"Accept-Language": language},
        data={
            "csrf_token": csrf(page.text),
            "name": "Wim",
            "email": "wim@example.org",
            "password": "correct horse",
            **fields,
        },
    )
    with db.connection_context():
        return User.get(User.email == "wim@example.org")


def test_the_sign_up_form_offers_the_guess_and_keeps_a_choice(sqlite_app):
    app = sqlite_app
    client = app.test_client()
    page = client.get("/signup", headers={"Accept-Language": "nl-NL,nl;q=0.9"}).text
    assert '<option selected value="Europe/Amsterdam">' in page
    assert 'data-guess="yes"' in page and "/static/timezone.js" in page
    with app.app_context():
        assert sign_up(client, "fr-BE", timezone="Asia/Tokyo").timezone == "Asia/Tokyo"


@pytest.mark.parametrize("sent", [{}, {"timezone": "Mars/Olympus_Mons"}])
def test_a_missing_or_unknown_zone_falls_back_to_the_guess(sqlite_app, sent):
    app = sqlite_app
    with app.app_context():
        assert sign_up(app.test_client(), "de-AT", **sent).timezone == "Europe/Vienna"

"""The guides' screenshots (docs/screenshots/*.png) are made here, by a real
Chromium at 390 px without script, from a game of the plug-in game Race to
21 (tests/plugin_game/): the move page in English and in Dutch, and the
new-game form.  Commit the files this test changed with the change that
changed the pages; the guides (docs/players/, docs/hosts/) show them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from clock_helpers import random_move, started_game, to_move

from server.db import db
from server.models import User

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}


def signed_in(browser, base: str, email: str):
    page = browser.new_context(viewport=PHONE, java_script_enabled=False).new_page()
    page.goto(f"{base}/login")
    page.fill("#email", email)
    page.fill("#password", "password1")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")
    return page


def shoot(page, name: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    page.screenshot(path=str(SHOTS / name), full_page=True)
    assert (SHOTS / name).stat().st_size > 5_000


def test_the_guides_screenshots(live, browser):
    app, base = live
    game = started_game(app, players=2, kind="race_to_21", tag="shot")
    rnd = random.Random(21)
    for _ in range(3):
        random_move(app, game.id, rnd)
    seat = to_move(app, game.id)
    page = signed_in(browser, base, seat.user.email)
    page.goto(f"{base}/games/{game.id}")
    assert "add 1, 2 or 3 to the count" in page.content()
    shoot(page, "move-page.png")
    with app.app_context(), db.connection_context():
        User.update(language="nl").where(User.id == seat.user.id).execute()
    page.goto(f"{base}/games/{game.id}")
    assert "tel 1, 2 of 3 op bij de stand" in page.content()
    shoot(page, "move-page-nl.png")
    with app.app_context(), db.connection_context():
        User.update(language="en").where(User.id == seat.user.id).execute()
    page.goto(f"{base}/games/new?kind=race_to_21")
    assert "Two players take turns adding 1, 2 or 3" in page.content()
    shoot(page, "new-game.png")

"""A real Chromium at 390 px, without script: a player asks to take back
their move and the other player agrees; the move is gone and it is the
asker's turn again.  Screenshots go to test-artifacts/."""

from __future__ import annotations

import random

import pytest
from browser_helpers import ARTIFACTS, shows
from moderation_helpers import in_db, moves, service_game
from test_takebacks import until_another_seat

from server.models import Game

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def signed_in(browser, base: str, email: str):
    page = browser.new_context(viewport=PHONE, java_script_enabled=False).new_page()
    page.goto(f"{base}/login")
    page.fill("#email", email)
    page.fill("#password", "password1")
    page.get_by_role("button", name="Sign in").click()
    return page


def sideways(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_a_player_asks_and_the_other_agrees(live, browser):
    app, base = live
    gid = service_game(app, "bt", players=2)
    seat, seq = until_another_seat(app, gid, random.Random(9))
    asker = signed_in(browser, base, f"bt{seat}@example.org")
    asker.goto(f"{base}/games/{gid}")
    asker.locator("#takeback summary").click()
    assert asker.locator(f'#takeback input[name="back_to"][value="{seq}"]').is_checked()
    asker.get_by_role("button", name="Ask to take it back").click()
    shows(asker, "the other players are asked")
    assert sideways(asker) <= 0
    ARTIFACTS.mkdir(exist_ok=True)
    asker.screenshot(path=str(ARTIFACTS / "takeback-asked.png"), full_page=True)

    other = signed_in(browser, base, f"bt{1 - seat}@example.org")
    other.goto(f"{base}/games/{gid}")
    shows(other, "asks to take back their move")
    assert other.locator("#move").count() == 0  # the game waits for the answers
    assert sideways(other) <= 0
    other.screenshot(path=str(ARTIFACTS / "takeback-answer.png"), full_page=True)
    other.get_by_role("button", name="Yes, take it back").click()
    shows(other, "Everybody agreed: the move is taken back.")

    assert in_db(app, lambda: Game.get_by_id(gid).to_move) == seat
    assert [m.seq for m in moves(app, gid) if m.undone][-1] == seq
    asker.goto(f"{base}/games/{gid}")
    shows(asker, "took back their move")
    assert asker.locator("#move button").count() > 0

"""The decision first: on the move page of both games, the player whose
turn it is finds the first move button on the first screen of a phone
(390 x 844 CSS px), before the game's facts, the players and the takeback
box; at 1280 px the drawn board uses the page's width.  Measured in
Chromium with script off, as the page works without it.  Screenshots go to
test-artifacts/decision/."""

from __future__ import annotations

import random

import pytest
from browser_helpers import ARTIFACTS
from conftest import make_app, serving
from test_browser_board import advance, new_game

from server.db import db
from server.models import Game, Seat

SHOTS = ARTIFACTS / "decision"
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}

MEASURE = """() => {
  const top = sel => { const e = document.querySelector(sel);
    return e ? e.getBoundingClientRect().top + window.scrollY : null; };
  // What the panels of a drawn board cover side to side (the grid itself
  // always spans the column, however narrow the panels in it).
  const covered = b => { const rs = [...b.children].map(c => c.getBoundingClientRect());
    return rs.length ? Math.max(...rs.map(r => r.right)) - Math.min(...rs.map(r => r.left)) : 0; };
  const widest = Math.max(0, ...[...document.querySelectorAll('.board')].map(covered));
  return {button: top('.choices button'), facts: top('#facts'), players: top('#players'),
          takeback: top('#takeback'), board: widest, viewport: window.innerWidth};
}"""


def seat_to_move(app, game_id: int) -> str:
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        return Seat.get((Seat.game == game_id) & (Seat.index == game.to_move)).user.email


def measured(browser, base: str, email: str, game_id: int, viewport: dict, name: str) -> dict:
    context = browser.new_context(viewport=viewport, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{base}/login")
        page.fill("#email", email)
        page.fill("#password", "password1")
        page.press("#password", "Enter")
        page.wait_for_url(lambda url: "/login" not in url)
        assert page.goto(f"{base}/games/{game_id}").status == 200
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
        page.screenshot(path=str(SHOTS / f"{name}-first-screen.png"))
        return page.evaluate(MEASURE)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize(
    "kind, players, moves",
    [("puerto_rico", 4, 9), ("new_found_land", 3, 9)],
)
def test_the_first_move_button_is_on_the_first_screen_and_the_board_uses_the_width(
    sqlite_url, smtp, tmp_path, browser, kind, players, moves
):
    def build(base):
        return make_app(sqlite_url, smtp, tmp_path, PUBLIC_BASE_URL=base, TESTING=False)

    with serving(build) as (app, base):
        game_id = new_game(app, kind, players, {}, kind[:3])
        advance(app, game_id, moves, random.Random(3))  # a game under way, a takeback to offer
        email = seat_to_move(app, game_id)
        phone = measured(browser, base, email, game_id, PHONE, f"{kind}-390")
        wide = measured(browser, base, email, game_id, WIDE, f"{kind}-1280")
    assert phone["button"] is not None, "no move button"
    assert phone["button"] <= PHONE["height"], f"the first move button at {phone['button']} px"
    for later in ("facts", "players", "takeback"):
        if phone[later] is not None:
            assert phone["button"] < phone[later], f"{later} before the move button"
    assert phone["players"] is not None and phone["facts"] is not None
    assert wide["board"] >= 0.6 * wide["viewport"], f"the board {wide['board']} px wide"

"""In Chromium: the time zone is guessed at sign-up (by
the browser's script file, or without script from the region of its
languages) and can be changed there; "Your games" puts the games that wait
for the reader first and says so in words; at 390 px no word is split in
the middle and the list tables (Your games, the moderation dashboard, the
recent mails in Settings) stack instead of running off the screen.
Screenshots go to $BOARD_SHOTS (or test-artifacts/board/)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from browser_helpers import ARTIFACTS
from clock_helpers import user
from conftest import make_app, serving
from moderation_helpers import make_moderator

from server.db import db
from server.models import Game, User
from server.services import games

SHOTS = Path(os.environ.get("BOARD_SHOTS") or ARTIFACTS / "board")

# Runs in the page: the words of ``main`` drawn on more than one line (a
# word broken in its middle), and what reaches past the window's right
# edge.  Hyphens and slashes are break points of their own; addresses and
# links are codes, not words.
SPLIT_WORDS = """() => {
  const split = [], past = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement.closest('pre, .mail-text, .visually-hidden, option, select')) continue;
    for (const m of node.textContent.matchAll(/[^\\s\\-\\/–—]+/g)) {
      if (m[0].includes('@') || m[0].length < 2) continue;
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) split.push(m[0]);
    }
  }
  for (const el of document.querySelectorAll('main *')) {
    if (el.closest('pre, .visually-hidden')) continue;
    if (el.getBoundingClientRect().right > window.innerWidth + 1) past.push(el.tagName + ': ' + el.textContent.trim().slice(0, 40));
  }
  return {split, past: past.slice(0, 5)};
}"""


def seated_games(app, host: User, others: list[User]) -> tuple[int, int]:
    """Two started games of ``host``'s: an older one waiting for the host's
    move and a newer one waiting for somebody else."""
    mailer = app.extensions["pbem_mailer"]
    waiting = other = None
    for _ in range(20):
        game = games.create_game(
            host, "puerto_rico", "Wartet auf Spielerin", 3, {}, 48, [24], mailer
        )
        for i, person in enumerate(others, start=1):
            games.join(game.id, person, i)
        game = games.start(game.id, host, mailer)
        if game.to_move == 0 and waiting is None:
            waiting = game.id
        elif game.to_move != 0 and waiting is not None:
            other = game.id
            break
    assert waiting and other, "no two such games in twenty tries"
    return waiting, other


@pytest.mark.browser
def test_time_zone_your_games_and_tables_on_a_phone(sqlite_url, smtp, tmp_path, browser):
    def build(base):
        return make_app(
            sqlite_url,
            smtp,
            tmp_path,
            PUBLIC_BASE_URL=base,  # noqa: E731
            TESTING=False,
        )

    SHOTS.mkdir(parents=True, exist_ok=True)
    with serving(build) as (app, base):
        # The browser's own zone, filled in by static/timezone.js.
        scripted = browser.new_context(locale="nl-NL", timezone_id="America/New_York")
        page = scripted.new_page()
        page.goto(f"{base}/signup")
        assert page.locator("#timezone").input_value() == "America/New_York"
        # Without script: the region of the browser's language.
        plain = browser.new_context(
            locale="nl-NL", timezone_id="Asia/Tokyo", java_script_enabled=False
        )
        page = plain.new_page()
        page.goto(f"{base}/signup")
        assert page.locator("#timezone").input_value() == "Europe/Amsterdam"
        page.fill("#name", "Noor")
        page.fill("#email", "noor@example.org")
        page.fill("#password", "correct horse battery")
        page.select_option("#timezone", "Europe/Brussels")  # the guess can be changed
        with page.expect_navigation():  # the answer comes at /signup itself
            page.press("#password", "Enter")
        with app.app_context(), db.connection_context():
            assert User.get(User.email == "noor@example.org").timezone == "Europe/Brussels"

        with app.app_context(), db.connection_context():
            host = user("gastgeberin@example.org", "Gastgeberin", language="de")
            others = [user(f"mit{i}@example.org", f"Mitspielerin {i}") for i in (1, 2)]
            waiting, other = seated_games(app, host, others)
            assert make_moderator(app, host.email).exit_code == 0
        phone = browser.new_context(viewport={"width": 390, "height": 900})
        page = phone.new_page()
        page.goto(f"{base}/login")
        page.fill("#email", "gastgeberin@example.org")
        page.fill("#password", "password1")
        page.press("#password", "Enter")
        page.wait_for_url(lambda url: "/login" not in url)

        page.goto(f"{base}/")
        rows = page.locator("table.games tr").all_inner_texts()[1:]
        marked = ["Du bist dran" in row for row in rows]
        # The newest game (``other``) waits for somebody else: it comes after
        # every game that waits for the reader, ``waiting`` among them.
        assert marked == sorted(marked, reverse=True) and marked[0] and not marked[-1], rows
        assert any(re.search(rf"#{waiting}\b", row) for row, mine in zip(rows, marked) if mine)
        assert any(re.search(rf"#{other}\b", row) for row, mine in zip(rows, marked) if not mine)
        # How many games wait for the reader depends on the seeds drawn above.
        mine = sum(marked)
        expected = "1 Spiel wartet" if mine == 1 else f"{mine} Spiele warten"
        assert f"{expected} auf deinen Zug" in page.locator("#your-moves").inner_text()
        problems = {}
        for path, label in (
            ("/", "your-games"),
            ("/settings", "settings"),
            ("/moderation?all=1", "moderation"),
            (f"/games/{waiting}", "game"),
        ):
            assert page.goto(f"{base}{path}").status == 200
            page.screenshot(path=str(SHOTS / f"de-{label}-390.jpeg"), full_page=True, quality=70)
            found = page.evaluate(SPLIT_WORDS)
            if found["split"] or found["past"]:
                problems[label] = found
        page.goto(f"{base}/moderation?all=1")
        labels = page.evaluate("""[...document.querySelectorAll('#attention tr:nth-child(2) td')]
            .map(td => getComputedStyle(td, '::before').content)""")
        assert '"Wartet auf: "' in labels, labels  # each cell under its column's name
        with app.app_context(), db.connection_context():
            assert Game.get_by_id(waiting).to_move == 0
    print(f"\nscreenshots: {SHOTS}")
    assert not problems, problems

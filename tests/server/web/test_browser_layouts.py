"""At 390 px, in English and German, measured in Chromium:
each checkbox sits on the line of its words (notification settings, new
game), the moderator's undo table cuts nothing at the right, the new-game
page's selects show their chosen words whole, and the dashboard's sort
links stand apart.  Screenshots go to test-artifacts/layouts/."""

from __future__ import annotations

import random

import pytest
from browser_helpers import ARTIFACTS
from clock_helpers import random_move
from conftest import make_app, serving
from game_driver import Table
from moderation_helpers import make_moderator
from test_browser_widths import Widths

from server.db import db
from server.models import User

SHOTS = ARTIFACTS / "layouts"

# Each checkbox and the first line of its words: their middles less than a
# line apart (the old settings put the boxes on one line, the words below).
BOXES_OFF_THEIR_LINE = """() => [...document.querySelectorAll('input[type=checkbox]')].flatMap(box => {
  const label = box.closest('label') || document.querySelector(`label[for="${box.id}"]`);
  if (!label) return [`${box.name}: no label`];
  const b = box.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(label);
  const words = [...range.getClientRects()].find(r => r.width > 0 && r.height > 0 && r.right > b.right);
  if (!words) return [`${box.name}: no words beside it`];
  const apart = Math.abs((b.top + b.bottom) / 2 - (words.top + words.bottom) / 2);
  return apart > words.height ? [`${box.name}/${box.value}: ${apart}px from its words`] : [];
})"""
# A select whose chosen words are wider than its box, or that reaches past the window.
CUT_SELECTS = """() => [...document.querySelectorAll('select')].flatMap(s => {
  const r = s.getBoundingClientRect(), style = getComputedStyle(s);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontSize} ${style.fontFamily}`;
  const text = s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : '';
  const room = s.clientWidth - 28;  // the arrow and padding
  const bad = r.right > window.innerWidth + 0.5 || ctx.measureText(text).width > room;
  return bad ? [`${s.name}: "${text}" in ${room}px`] : [];
})"""
CUT_CELLS = """sel => { const t = document.querySelector(sel);
  if (!t) return ['no table'];
  const cut = [...t.querySelectorAll('td')].filter(td => td.getBoundingClientRect().right > window.innerWidth + 0.5);
  return (t.scrollWidth > t.clientWidth + 1 ? ['the table scrolls sideways'] : []).concat(cut.map(td => td.textContent.slice(0, 30)));
}"""
# Sort links that overlap or touch (less than 4 px apart both ways).
TOUCHING = """() => { const rs = [...document.querySelectorAll('#attention tr:first-child th a')].map(a => a.getBoundingClientRect());
  const bad = [];
  rs.forEach((a, i) => rs.slice(i + 1).forEach((b, j) => {
    const dx = Math.max(b.left - a.right, a.left - b.right), dy = Math.max(b.top - a.bottom, a.top - b.bottom);
    if (dx < 4 && dy < 4) bad.push(`${i}/${i + j + 1}: ${dx}, ${dy}`);
  }));
  return rs.length ? bad : ['no sort links']; }"""


@pytest.mark.browser
@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_phone_layouts_keep_words_whole_and_apart(
    sqlite_url, smtp, tmp_path, browser, send_mail, locale
):
    def build(base):
        return make_app(sqlite_url, smtp, tmp_path, PUBLIC_BASE_URL=base, TESTING=False)

    with serving(build) as (app, base):
        table = Table(app, smtp, send_mail, 3, seed=11)
        table.set_up("Ein Spiel mit einem recht langen Namen")
        host = table.emails[0]
        with app.app_context(), db.connection_context():
            User.update(language=locale[:2]).execute()
        assert make_moderator(app, host).exit_code == 0
        random_move(app, table.game_id, random.Random(1))  # a move to undo
        page = Widths(browser, base, locale).page(host, 390)
        found = {}
        SHOTS.mkdir(parents=True, exist_ok=True)
        for path, label, script, arg in (
            ("/settings", "settings", BOXES_OFF_THEIR_LINE, None),
            ("/games/new", "new-game", BOXES_OFF_THEIR_LINE, None),
            ("/games/new", "new-game-selects", CUT_SELECTS, None),
            ("/leagues/new", "league-selects", CUT_SELECTS, None),
            (f"/moderation/games/{table.game_id}", "undo", CUT_CELLS, "#undo-moves"),
            ("/moderation?all=1", "dashboard", TOUCHING, None),
        ):
            assert page.goto(f"{base}{path}").status < 400, path
            page.screenshot(path=str(SHOTS / f"{locale[:2]}-{label}.png"), full_page=True)
            wrong = page.evaluate(script, arg) if arg else page.evaluate(script)
            if wrong:
                found[label] = wrong
        assert not found, found

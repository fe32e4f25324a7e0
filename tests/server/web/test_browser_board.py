"""A board for every width.  Both games' boards are opened
in Chromium at 390 and 1280 px, at the start, in the middle and at the end
of a game, in English, Dutch, German and French, with the longest building
names of the expansion in the cities.  Measured in the page: no text of the
board or the move form under 12 CSS px (an SVG's text counts at its drawn
scale), no word of a tile cut or split, no tiles or panels overlapping,
nothing scrolling sideways, move buttons at least 44 px tall, and on a
phone the prompt, then the seat's own board, then the choices.
Screenshots go to $BOARD_SHOTS (or test-artifacts/board/), printed."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from browser_helpers import ARTIFACTS
from clock_helpers import user
from conftest import make_app, serving

from engine.puerto_rico.data import CARDS
from engine.words import term
from server.db import db
from server.i18n import say
from server.models import Game, Seat, User
from server.services import games
from server.services.moves import play
from server.services.state_store import load_state, rules

WIDTHS = (390, 1280)
LANGUAGES = ("en", "nl", "de", "fr")
SHOTS = Path(os.environ.get("BOARD_SHOTS") or ARTIFACTS / "board")

# Runs in the page: what the checks need, in CSS pixels.  Tiles and headings
# are measured with words unbreakable (overflow-wrap: normal), so a word
# that only fits by being split shows as overflowing.
MEASURE = """() => {
  const small = [], cut = [], overlaps = [];
  const hidden = el => el.closest('.visually-hidden');
  const board = [...document.querySelectorAll('.board, .choices')];
  for (const root of board) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode, el = node.parentElement;
      if (!node.textContent.trim() || hidden(el)) continue;
      let size = parseFloat(getComputedStyle(el).fontSize);
      const svg = el.closest('svg');
      if (svg) size *= svg.getScreenCTM().a;      // a drawing's scale
      if (size < 12) small.push(`${size.toFixed(1)}px: ${node.textContent.trim().slice(0, 40)}`);
    }
  }
  const words = document.querySelectorAll(
    '.tile > span:not(.visually-hidden), .facts li, .panel h3, .panel h4, .choices button, .choices legend');
  words.forEach(el => { el.style.overflowWrap = 'normal'; el.style.hyphens = 'manual'; });
  for (const el of [...words, ...document.querySelectorAll('.tile, .panel')]) {
    if (el.scrollWidth > el.clientWidth + 1)
      cut.push(`${el.className || el.tagName}: ${el.textContent.trim().slice(0, 50)}`);
  }
  words.forEach(el => { el.style.overflowWrap = ''; el.style.hyphens = ''; });
  const apart = (a, b) => a.right <= b.left + 1 || b.right <= a.left + 1 ||
                          a.bottom <= b.top + 1 || b.bottom <= a.top + 1;
  const groups = [...document.querySelectorAll('.tiles'), ...document.querySelectorAll('.board')];
  for (const g of groups) {
    const boxes = [...g.children].map(c => [c, c.getBoundingClientRect()]);
    boxes.forEach(([a, ra], i) => boxes.slice(i + 1).forEach(([b, rb]) => {
      if (!apart(ra, rb)) overlaps.push(`${a.textContent.trim().slice(0, 30)} / ${b.textContent.trim().slice(0, 30)}`);
    }));
  }
  const top = sel => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().top : null; };
  const buttons = [...document.querySelectorAll('.choices button')].map(b => b.getBoundingClientRect().height);
  return {small, cut, overlaps, buttons,
          wide: document.documentElement.scrollWidth - window.innerWidth,
          past: [...document.querySelectorAll('main *')].filter(
            e => e.getBoundingClientRect().right > window.innerWidth + 1 && !hidden(e)
          ).slice(-3).map(e => `${e.tagName}.${e.className}: ${e.textContent.trim().slice(0, 40)}`),
          tiles: document.querySelectorAll('.tile').length,
          prompt: top('#move h2'), own: top('#move .panel.mine'), first_choice: top('.choices button'),
          first_panel_mine: !!document.querySelector('.board .panel:first-child.mine')};
}"""


def longest_first(actions: list[dict], rnd: random.Random) -> dict:
    """A random move, except that the buildings with the longest German or
    Dutch names are chosen and built whenever they may be."""

    def length(a):
        name = CARDS[a["building"]].title
        return max(len(w) for lang in ("de", "nl", "fr") for w in say(lang, term(name)).split())

    buildings = [a for a in actions if a.get("type") in ("build", "select") and "building" in a]
    if buildings:
        return max(buildings, key=length)
    return rnd.choice(actions)


def advance(app, game_id: int, moves: int | None, rnd: random.Random) -> None:
    """Play ``moves`` moves (None: to the end) through the services."""
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        while moves is None or moves > 0:
            game = Game.get_by_id(game_id)
            if game.to_move is None:
                return
            actions = rules(game).legal_actions(load_state(game, save=False), game.to_move)
            play(
                game_id,
                game.to_move,
                longest_first(actions, rnd),
                game.seq,
                mailer=mailer,
                notify=False,
            )
            moves = None if moves is None else moves - 1


GAME_SEED = 1


def new_game(app, kind: str, players: int, options: dict, tag: str) -> int:
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        people = [
            user(f"{tag}{i}@example.org", f"{tag.upper()} Spielerin-mit-langem-Namen {i}")
            for i in range(1, players + 1)
        ]
        game = games.create_game(
            people[0], kind, f"{tag} board", players, options, 48, [24], mailer
        )
        for i, person in enumerate(people[1:], start=1):
            games.join(game.id, person, i)
        # A fixed deal, so the moves below are the same on every run: with a
        # drawn one, about one game in forty never built the buildings with
        # the longest names, which the test wants on the board.
        Game.update(seed=GAME_SEED).where(Game.id == game.id).execute()
        games.start(game.id, people[0], mailer)
        return game.id


class Boards:
    """One signed-in browser context per player and width."""

    def __init__(self, browser, app, base: str):
        self.browser, self.app, self.base, self.pages, self.problems = browser, app, base, {}, []

    def page(self, email: str, width: int):
        if (email, width) not in self.pages:
            context = self.browser.new_context(viewport={"width": width, "height": 900})
            page = context.new_page()
            page.goto(f"{self.base}/login")
            page.fill("#email", email)
            page.fill("#password", "password1")
            page.press("#password", "Enter")
            page.wait_for_url(lambda url: "/login" not in url)
            self.pages[email, width] = page
        return self.pages[email, width]

    def check(self, game_id: int, label: str) -> dict:
        """The game page of the seat to move (seat 1 once it is over), in
        each language at each width."""
        with self.app.app_context(), db.connection_context():
            game = Game.get_by_id(game_id)
            seat = game.to_move or 0
            email = Seat.get((Seat.game == game_id) & (Seat.index == seat)).user.email
        seen = {}
        for lang in LANGUAGES:
            with self.app.app_context(), db.connection_context():
                User.update(language=lang).where(User.email == email).execute()
            for width in WIDTHS:
                page = self.page(email, width)
                assert page.goto(f"{self.base}/games/{game_id}").status == 200
                found = page.evaluate(MEASURE)
                name = f"{label}-{lang}-{width}"
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"{name}.jpeg"), full_page=True, quality=70)
                self.judge(name, width, found)
                seen[lang, width] = found
        return seen

    def judge(self, name: str, width: int, found: dict) -> None:
        problems = [f"text under 12 px: {t}" for t in found["small"][:5]]
        problems += [f"cut: {t}" for t in found["cut"][:5]]
        problems += [f"overlap: {t}" for t in found["overlaps"][:5]]
        if found["wide"] > 0:
            problems.append(f"{found['wide']} px too wide: {found['past']}")
        if not found["tiles"]:
            problems.append("no drawn board")
        if any(h < 44 for h in found["buttons"]):
            problems.append(f"a move button {min(found['buttons']):.0f} px tall")
        if found["first_choice"] is not None:
            if found["own"] is None or not found["prompt"] < found["own"] < found["first_choice"]:
                problems.append("not prompt, own board, choices")
        elif not found["first_panel_mine"]:
            problems.append("the seat's own board is not first")
        self.problems += [f"{name}: {p}" for p in problems]


@pytest.mark.browser
def test_both_boards_read_at_every_width_in_every_language(sqlite_url, smtp, tmp_path, browser):
    def build(base):
        return make_app(
            sqlite_url,
            smtp,
            tmp_path,
            PUBLIC_BASE_URL=base,  # noqa: E731
            TESTING=False,
        )

    rnd = random.Random(27)
    with serving(build) as (app, base):
        boards = Boards(browser, app, base)
        puerto_rico = new_game(app, "puerto_rico", 4, {"buildings": "extended"}, "pr")
        new_found_land = new_game(app, "new_found_land", 3, {}, "nfl")
        for game_id, label, middle in ((puerto_rico, "pr", 160), (new_found_land, "nfl", 50)):
            start = boards.check(game_id, f"{label}-start")
            assert start["de", 390]["buttons"], "the seat to move has no choices at the start"
            advance(app, game_id, middle, rnd)
            boards.check(game_id, f"{label}-middle")
            advance(app, game_id, None, rnd)
            end = boards.check(game_id, f"{label}-end")
            assert not end["en", 390]["buttons"]
        with app.app_context(), db.connection_context():
            state = load_state(Game.get_by_id(puerto_rico), save=False)
        built = {b for p in state.players for b in p.buildings}
        assert "specialty_factory" in built or "union_hall" in built, built
    print(f"\nboard screenshots: {SHOTS}")
    assert not boards.problems, "\n".join(boards.problems)

"""Accessible.  axe-core (npm, fetched by scripts/test.sh
into .cache/axe-core-<version>; PBEM_AXE_JS points elsewhere) finds no serious or
critical violation on any page kind, in four languages, at 390 and 1280 px;
a whole turn is played with the keyboard alone; the text board has headings
and row headers a screen reader announces.  One browser and one server for
the module; each page is checked once per language and width."""

from __future__ import annotations

import datetime as dt
import os
import random
from pathlib import Path

import pytest
from browser_helpers import ARGS, CHROMIUM
from clock_helpers import random_move, user
from conftest import make_app, serving
from moderation_helpers import make_moderator

from server.db import db
from server.models import Game, Invitation, Proposal, User, utcnow
from server.services import clubs, games, proposals, question_links

ROOT = Path(__file__).resolve().parents[3]
AXE = Path(os.environ.get("PBEM_AXE_JS", ROOT / ".cache" / "axe-core-4.14.1" / "axe.min.js"))
LANGS = ("en", "nl", "de", "fr")
WIDTHS = (390, 1280)
PASSWORD = "password1"  # clock_helpers.user's


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A served app with a started game of three (one move played), an open
    lobby and a site moderator; Chromium beside it."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test.sh installs Debian's chromium")
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: scripts/test.sh fetches axe-core with npm")
    tmp = tmp_path_factory.mktemp("a11y")
    smtp = type("NoSmtp", (), {"port": 9})()  # mail stays in the outbox

    def build(base):
        return make_app(
            f"sqlite:///{tmp / 'a11y.sqlite3'}",
            smtp,
            tmp,  # noqa: E731
            PUBLIC_BASE_URL=base,
            TESTING=False,
        )

    from playwright.sync_api import sync_playwright

    with serving(build) as (app, base), sync_playwright() as p:
        with app.app_context(), db.connection_context():
            people = [user(f"a{i}@example.org", f"Ada {i + 1}") for i in range(3)]
            mailer = app.extensions["pbem_mailer"]
            game = games.create_game(people[0], "puerto_rico", "Sugar", 3, {}, 48, [24], mailer)
            for i, person in enumerate(people[1:], start=1):
                games.join(game.id, person, i)
            games.start(game.id, people[0], mailer)
            lobby = games.create_game(people[0], "new_found_land", "Tea", 3, {}, 48, [24], mailer)
            user("mod@example.org", "Mo")
            # An invitation held back by its address's daily limit: the
            # host's lobby page says it in words.
            Invitation.create(
                game=lobby,
                email="waiting.for.a.long.time@example.org",
                held_until=utcnow() + dt.timedelta(hours=20),
            )
            # An invite-only club of two (its page, a request to
            # answer, the outsiders' view) and a public one.
            club = clubs.found(people[0], "Sugar Club", "We plant.", ["en"], True)
            clubs.join_by_link(
                clubs.invitation_token(club, app.config["SECRET_KEY"]),
                people[1],
                app.config["SECRET_KEY"],
                3600,
            )
            clubs.ask_to_join(club, User.get(User.email == "mod@example.org"))
            clubs.found(people[2], "Open Club", "All welcome.", ["nl"], False)
            Game.update(club=club).where(Game.id == game.id).execute()
        make_moderator(app, "mod@example.org")
        random_move(app, game.id, random.Random(2))
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield app, base, browser, game.id, lobby.id
        browser.close()


def signed_in(browser, base: str, email: str | None, width: int = 1280, locale: str = "en"):
    """A page in a context of its own (axe needs the CSP bypassed), signed in."""
    context = browser.new_context(
        viewport={"width": width, "height": 900}, locale=locale, bypass_csp=True
    )
    page = context.new_page()
    if email:
        page.goto(f"{base}/login")
        page.fill("#email", email)
        page.fill("#password", PASSWORD)
        page.press("#password", "Enter")
        page.wait_for_url(lambda url: "/login" not in url)
    return page


def serious(page) -> list[str]:
    """axe's serious and critical violations on the open page."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(n["target"][0] if n["target"] else "?" for n in v["nodes"][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.browser
def test_no_page_has_a_serious_accessibility_violation(site):
    app, base, browser, game_id, lobby_id = site
    with app.app_context(), db.connection_context():
        to_move = Game.get_by_id(game_id).to_move
        host_id = User.get(User.email == "a0@example.org").id
        club = clubs.by_slug("sugar-club")
        invitation = "/clubs/join/" + clubs.invitation_token(club, app.config["SECRET_KEY"])
        # The page a mailed "delete my account" link shows (its GET changes nothing).
        erase_path = app.extensions["pbem_mailer"].links.erase_url(
            User.get(User.email == "mod@example.org")
        )[len(base) :]
        never_url = app.extensions["pbem_mailer"].links.never_invite_url("far@example.org")
        # The page a question's mailed link shows (a proposal the host makes).
        game = Game.get_by_id(game_id)
        host = User.get_by_id(host_id)
        mailer = app.extensions["pbem_mailer"]
        proposals.propose(game_id, host, game.seq, "extend", {"hours": 2}, "A trip", mailer=mailer)
        asked = User.get(User.email == "a1@example.org").id
        proposal = Proposal.get(Proposal.game == game_id).id
        answer_path = "/answer/" + question_links.token(
            app.config["SECRET_KEY"], game_id, question_links.PROPOSAL, proposal, asked
        )
    player = f"a{to_move}@example.org"
    pages = {
        None: [
            "/",
            "/login",
            "/signup",
            "/reset",
            "/no/such/page",
            "/games/open",
            "/archive",
            "/leaderboard",
            f"/players/{host_id}",
            "/api/v1/docs",
            "/clubs",
            "/clubs/open-club",
            "/clubs/sugar-club",
            erase_path,
            "/" + never_url.split("/", 3)[3],
            "/privacy",
            answer_path,
        ],
        player: [
            "/",
            "/games/new",
            f"/games/{game_id}",
            f"/games/{game_id}/log",
            f"/games/{game_id}/at/1",
            "/settings",
            "/account",
            "/account/data/not-a-link",
            "/games/999999",
        ],
        "a0@example.org": [
            f"/games/{lobby_id}/lobby",
            f"/games/{game_id}/channel",
            "/clubs/new",
            "/clubs/sugar-club",
            "/clubs",
            invitation,
        ],
        "mod@example.org": [
            "/moderation",
            f"/moderation/games/{game_id}",
            "/moderation/inbound",
            "/moderation/moderators",
        ],
    }
    found = []
    tabs = {who: signed_in(browser, base, who) for who in pages if who}  # one sign-in each
    for lang in LANGS:
        tabs[None] = signed_in(browser, base, None, locale=lang)  # the browser's language
        with app.app_context(), db.connection_context():
            User.update(language=lang).execute()  # as if each had chosen it in Settings
        for width in WIDTHS:
            for who, paths in pages.items():
                page = tabs[who]
                page.set_viewport_size({"width": width, "height": 900})
                for path in paths:
                    response = page.goto(f"{base}{path}")
                    assert response.status in (200, 404), (path, response.status)
                    assert page.locator("html").get_attribute("lang") == lang
                    found += [f"{lang} {width} {path}: {v}" for v in serious(page)]
        tabs[None].context.close()
    for who in pages:
        if who:
            tabs[who].context.close()
    assert not found, "\n".join(found)


@pytest.mark.browser
def test_a_whole_turn_is_played_with_the_keyboard_alone(site):
    """Sign in and play the seat's whole turn with Tab, typing and Enter:
    no click, no fill.  The page's focus is read only to know when to stop."""
    app, base, browser, game_id, _ = site
    with app.app_context(), db.connection_context():
        User.update(language="en").execute()
        game = Game.get_by_id(game_id)
        seat, seq = game.to_move, game.seq
    page = signed_in(browser, base, None, 390, "en")
    page.goto(f"{base}/login")
    keys = page.keyboard

    def tab_to(selector: str, limit: int = 80) -> None:
        for _ in range(limit):
            keys.press("Tab")
            if page.evaluate(f"!!document.activeElement.closest({selector!r})"):
                return
        raise AssertionError(f"Tab never reached {selector}")

    tab_to("#email")
    keys.type(f"a{seat}@example.org")
    tab_to("#password")
    keys.type(PASSWORD)
    keys.press("Enter")
    page.wait_for_url(lambda url: "/login" not in url)
    page.goto(f"{base}/games/{game_id}")
    moves = 0
    while True:
        with app.app_context(), db.connection_context():
            game = Game.get_by_id(game_id)
        if game.to_move != seat or moves > 12:
            break
        # The skip link first: past the menu to the content, then to a choice.
        keys.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip"
        keys.press("Enter")
        tab_to("form.choices button")
        with page.expect_navigation():
            keys.press("Enter")
        moves += 1
    assert moves >= 1 and game.seq > seq and game.to_move != seat, (moves, game.seq)


@pytest.mark.browser
def test_the_text_board_speaks_to_a_screen_reader(site):
    """The board's sections are headings; each row's label is a row header
    (the accessibility tree Chromium gives a screen reader)."""
    app, base, browser, game_id, _ = site
    with app.app_context(), db.connection_context():
        User.update(language="de").execute()
    page = signed_in(browser, base, "a1@example.org", 1280, "de")
    page.goto(f"{base}/games/{game_id}")
    sections = page.locator("section.board-section")
    assert sections.count() >= 3
    first = sections.first
    assert first.get_by_role("heading", level=3).count() == 1
    assert first.get_by_role("rowheader").count() >= 1
    assert first.get_by_role("rowheader").count() == first.get_by_role("row").count()
    assert page.get_by_role("main").count() == 1 and page.get_by_role("navigation").count() == 1
    page.context.close()

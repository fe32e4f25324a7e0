"""No page scrolls sideways at 390 px (a phone): every page kind
(lobby, new game, the game page at each kind of decision of both games,
settings, account, sign-in and sign-up, the moderation dashboard and game
page, a mail in the development catcher, and a profile, the
archive and a leaderboard) is opened in Chromium at 390 and at
1280 px.  Screenshots of the phone width go to test-artifacts/widths/."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from browser_helpers import ARTIFACTS
from conftest import make_app, serving
from game_driver import Table
from moderation_helpers import make_moderator
from web_helpers import text_of

from engine import get_game
from server.db import db
from server.mail.smtp_sender import build_message
from server.models import Game, Outbox, PlayerRating, Seat, User
from server.notify import channels
from server.services import games, moderation
from server.services.state_store import load_state

WIDTHS = (390, 1280)
SHOTS = ARTIFACTS / "widths"
PASSWORD = "correct horse"  # web_helpers.signup's


def overflow(page) -> int:
    """How far the page reaches past the window, in CSS pixels (0: none)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


class Widths:
    """One browser context per width and player; checks and screenshots."""

    def __init__(self, browser, base: str, locale: str = "en-US"):
        self.browser, self.base, self.pages, self.wide = browser, base, {}, []
        self.locale = locale  # the browser's language: pages follow it

    def page(self, who: str, width: int):
        if (who, width) not in self.pages:
            context = self.browser.new_context(
                viewport={"width": width, "height": 900}, locale=self.locale
            )
            page = context.new_page()
            if who:
                page.goto(f"{self.base}/login")
                page.fill("#email", who)
                page.fill("#password", PASSWORD)
                page.press("#password", "Enter")  # the button's words vary by language
                page.wait_for_url(lambda url: "/login" not in url)
            self.pages[who, width] = page
        return self.pages[who, width]

    def check(self, who: str, path: str, label: str) -> None:
        for width in WIDTHS:
            page = self.page(who, width)
            response = page.goto(f"{self.base}{path}")
            assert response.status < 400, (label, response.status)
            extra = overflow(page)
            if width == WIDTHS[0]:
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"{label}.png"), full_page=True)
            if extra > 0:
                self.wide.append(f"{label} at {width} px: {extra} px too wide")


def public_lobby(app, host_email: str, name: str) -> int:
    """A lobby listed among the open games, for the list and its own page."""
    with app.app_context(), db.connection_context():
        host = User.get(User.email == host_email)
        return games.create_game(
            host, "puerto_rico", name, 5, {}, 48, [24], app.extensions["pbem_mailer"], public=True
        ).id


def phase_of(app, game_id: int) -> str:
    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        state = load_state(game, save=False)
    return getattr(state, "phase", None) or get_game(game.kind).prompt(state)[:30]


def visit_each_decision(widths: Widths, table: Table, label: str, turns: int) -> int:
    """Play ``turns`` turns; open the game page of the seat to move at each
    kind of decision met for the first time."""
    seen = set()
    for _ in range(turns):
        mails = {email: table.new_mail(email) for email in table.emails}
        turn = [(e, m) for e, ms in mails.items() for m in ms if "It is your turn in" in text_of(m)]
        if not turn:
            break
        email, mail = turn[-1]
        phase = phase_of(table.app, table.game_id)
        if phase not in seen:
            seen.add(phase)
            widths.check(email, f"/games/{table.game_id}", f"{label}-{phase}".replace(" ", "_"))
        table.take_turn(email, mail)
    return len(seen)


def catch_a_turn_mail(app, folder: Path) -> str:
    """A real turn mail from the outbox, as the catcher would have stored it."""
    with app.app_context(), db.connection_context():
        row = Outbox.select().where(Outbox.kind == "turn").order_by(Outbox.id.desc()).get()
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{uuid.uuid4().hex}.eml"
        (folder / name).write_bytes(bytes(build_message(row, app.config["MAIL_FROM"])))
    return name


def finish_and_rate(app, game_id: int, moderator: str) -> int:
    """The game abandoned (so it is finished and in the archive) and its
    players given ratings; returns the moderator's user id."""
    with app.app_context(), db.connection_context():
        mod = User.get(User.email == moderator)
        moderation.abandon(
            game_id,
            mod,
            Game.get_by_id(game_id).seq,
            "for the widths",
            mailer=app.extensions["pbem_mailer"],
        )
        for i, seat in enumerate(Seat.select().where(Seat.game == game_id)):
            PlayerRating.create(
                user=seat.user_id, kind="puerto_rico", mu=30 - i, sigma=3 + 2 * i, games=9 - 3 * i
            )
        return mod.id


@pytest.mark.browser
def test_no_page_scrolls_sideways_on_a_phone(sqlite_url, smtp, tmp_path, browser, send_mail):
    def build(base):
        return make_app(
            sqlite_url,
            smtp,
            tmp_path,
            PUBLIC_BASE_URL=base,  # noqa: E731
            TESTING=False,
            MAIL_CATCHER_DIR="caught",
        )

    with serving(build) as (app, base):
        widths = Widths(browser, base)
        for path, label in (
            ("/login", "sign-in"),
            ("/signup", "sign-up"),
            ("/", "welcome"),
            ("/privacy", "privacy"),
        ):
            widths.check("", path, label)

        puerto_rico = Table(app, smtp, send_mail, 3, seed=11)
        puerto_rico.set_up("A rather long game name that a phone must wrap somewhere")
        host = puerto_rico.emails[0]
        listed = public_lobby(app, host, "An open table with a name long enough to wrap twice")
        with app.app_context(), db.connection_context():  # Settings lists a channel
            channels.add(
                app.config,
                User.get(User.email == host),
                "discord://123456789012345678/" + "t" * 68,
                ["turn", "talk"],
                22,
                7,
            )
        for path, label in (
            ("/", "lobby"),
            ("/games/new", "new-game"),
            ("/games/new?kind=new_found_land", "new-game-nfl"),
            ("/settings", "settings"),
            ("/account", "account"),
            ("/games/open", "open-games"),
            (f"/games/{listed}/lobby", "open-lobby"),
        ):
            widths.check(host, path, label)
        kinds = visit_each_decision(widths, puerto_rico, "pr", 60)

        new_found_land = Table(app, smtp, send_mail, 3, seed=12, kind="new_found_land")
        new_found_land.emails = [f"nfl{i + 1}@example.org" for i in range(3)]
        new_found_land.read = {email: 0 for email in new_found_land.emails}
        new_found_land.set_up("Ships")
        # Up to its end if need be: the game's own seed is random, so 60 turns
        # met too few kinds of decision now and then; nothing below uses it.
        kinds += visit_each_decision(widths, new_found_land, "nfl", 150)
        assert kinds >= 8, f"only {kinds} kinds of decision were seen"

        assert make_moderator(app, host).exit_code == 0
        widths.check(host, "/moderation?all=1", "moderation-dashboard")
        widths.check(host, f"/moderation/games/{puerto_rico.game_id}", "moderation-game")
        widths.check(host, f"/games/{puerto_rico.game_id}/channel", "table-channel")
        # A profile with a finished game and ratings, the archive,
        # a leaderboard with a provisional mark.
        host_id = finish_and_rate(app, puerto_rico.game_id, host)
        widths.check(host, f"/players/{host_id}", "profile")
        widths.check(host, "/archive", "archive")
        widths.check(host, "/leaderboard?kind=puerto_rico", "leaderboard")
        name = catch_a_turn_mail(app, Path(app.instance_path) / "caught")
        widths.check(host, "/dev/mail/", "caught-mail-list")
        widths.check(host, f"/dev/mail/{name}", "caught-mail")
        assert not widths.wide, "\n".join(widths.wide)


@pytest.mark.browser
@pytest.mark.parametrize("locale", ["nl-NL", "de-DE", "fr-FR"])
def test_no_translated_page_scrolls_sideways_on_a_phone(
    sqlite_url, smtp, tmp_path, browser, send_mail, locale
):
    """The same at 390 and 1280 px in Dutch, German and French (German's long
    words first of all): the pages a player meets, both games' boards."""

    def build(base):
        return make_app(
            sqlite_url,
            smtp,
            tmp_path,
            PUBLIC_BASE_URL=base,  # noqa: E731
            TESTING=False,
        )

    with serving(build) as (app, base):
        widths = Widths(browser, base, locale)
        lang = locale[:2]
        for path, label in (("/login", "sign-in"), ("/signup", "sign-up"), ("/", "welcome")):
            widths.check("", path, f"{lang}-{label}")
        puerto_rico = Table(app, smtp, send_mail, 3, seed=11)
        puerto_rico.set_up("Een spel met een heel lange naam die moet afbreken")
        new_found_land = Table(app, smtp, send_mail, 3, seed=12, kind="new_found_land")
        new_found_land.emails = [f"nfl{i + 1}@example.org" for i in range(3)]
        new_found_land.read = {email: 0 for email in new_found_land.emails}
        new_found_land.set_up("Schiffe")
        host = puerto_rico.emails[0]
        with app.app_context(), db.connection_context():
            User.update(language=lang).execute()  # as if each had picked it in Settings
        public_lobby(app, host, "Een open tafel met een naam die moet afbreken")
        with app.app_context(), db.connection_context():
            host_id = User.get(User.email == host).id
        for path, label in (
            ("/", "lobby"),
            ("/settings", "settings"),
            ("/games/open", "open"),
            (f"/games/{puerto_rico.game_id}", "pr-game"),
            (f"/games/{puerto_rico.game_id}/channel", "pr-channel"),
            (f"/games/{new_found_land.game_id}", "nfl-game"),
            (f"/players/{host_id}", "profile"),
            ("/archive", "archive"),
            ("/leaderboard", "leaderboard"),
        ):
            widths.check(
                host if "nfl" not in label else new_found_land.emails[0], path, f"{lang}-{label}"
            )
        page = widths.page(host, 390)
        page.goto(f"{base}/settings")
        assert page.locator("html").get_attribute("lang") == lang
        assert not widths.wide, "\n".join(widths.wide)

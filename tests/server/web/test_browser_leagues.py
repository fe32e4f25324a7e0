"""League pages in Chromium: in four languages at 390 and 1280 px no page
scrolls sideways and axe-core finds no serious violation; joining works
with script turned off."""

from __future__ import annotations

import datetime as dt

import pytest
from browser_helpers import ARGS, CHROMIUM
from clock_helpers import user
from conftest import make_app, serving
from test_accessibility import AXE, serious, signed_in

from server.db import db
from server.models import LeagueMember, utcnow
from server.services import clubs, leagues

LANGS = ("en", "nl", "de", "fr")


def overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.browser
def test_league_pages_at_both_widths_in_four_languages(tmp_path):
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: scripts/test.sh fetches axe-core with npm")
    smtp = type("NoSmtp", (), {"port": 9})()
    from playwright.sync_api import sync_playwright

    def build(base):
        return make_app(
            f"sqlite:///{tmp_path / 'l.sqlite3'}", smtp, tmp_path, PUBLIC_BASE_URL=base,
            TESTING=False,
        )  # fmt: skip

    with serving(build) as (app, base), sync_playwright() as p:
        mailer = app.extensions["pbem_mailer"]
        with app.app_context(), db.connection_context():
            people = [user(f"l{i}@example.org", f"Lou {i + 1}") for i in range(4)]
            club = clubs.found(people[0], "Long Table Club", "", [], invite_only=False)
            league = leagues.create(
                people[0], "Autumn Cup of the Long Table Club", "puerto_rico",
                starts_at=utcnow() + dt.timedelta(minutes=5), club=club, same_deal=True,
            )  # fmt: skip
            for person in people[:3]:
                leagues.join(league, person)
            leagues.advance(league.id, mailer, league.starts_at)
            waiting = leagues.create(
                people[0], "Winter", "new_found_land", starts_at=utcnow() + dt.timedelta(days=2)
            )
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        paths = [
            "/leagues",
            "/leagues/new",
            f"/leagues/{league.id}",
            f"/leagues/{league.id}/rounds/1",
            f"/leagues/{waiting.id}",
            "/clubs/long-table-club",
        ]
        found = []
        tab = signed_in(browser, base, "l1@example.org")
        for lang in LANGS:
            with app.app_context(), db.connection_context():
                from server.models import User

                User.update(language=lang).execute()
            for width in (390, 1280):
                tab.set_viewport_size({"width": width, "height": 900})
                for path in paths:
                    response = tab.goto(f"{base}{path}")
                    assert response.status == 200, (path, response.status)
                    assert tab.locator("html").get_attribute("lang") == lang
                    if overflow(tab) > 0:
                        found.append(f"{lang} {width} {path}: scrolls sideways")
                    found += [f"{lang} {width} {path}: {v}" for v in serious(tab)]
        tab.context.close()

        # No script: the join button is a plain form.
        context = browser.new_context(
            java_script_enabled=False, viewport={"width": 390, "height": 900}
        )
        page = context.new_page()
        page.goto(f"{base}/login")
        page.fill("#email", "l3@example.org")
        page.fill("#password", "password1")
        page.press("#password", "Enter")
        page.wait_for_url(lambda url: "/login" not in url)
        page.goto(f"{base}/leagues/{waiting.id}")
        page.locator("form[action$='/join'] button").click()
        page.wait_for_load_state()
        assert page.locator("form[action$='/leave']").count() == 1
        context.close()
        browser.close()
        with app.app_context(), db.connection_context():
            assert LeagueMember.select().where(LeagueMember.league == waiting.id).count() == 1
    assert not found, "\n".join(found)

"""Clubs in two real browsers (two Chromium processes) at 390 px
without script: Ann founds an invite-only club and makes an invitation
link; Bob opens it, sees the club, presses Join; both see him on the club
page and on its record.  Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest
from browser_helpers import ARGS, ARTIFACTS, CHROMIUM, shows
from clock_helpers import user
from moderation_helpers import in_db

from server.models import ClubMember, User

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def signed_in(browser, base: str, email: str):
    page = browser.new_context(viewport=PHONE, java_script_enabled=False).new_page()
    page.goto(f"{base}/login")
    page.fill("#email", email)
    page.fill("#password", "password1")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/login" not in url)
    return page


def sideways(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_found_invite_join_in_two_browsers(live, browser):
    app, base = live
    in_db(app, lambda: (user("ann@example.org", "Ann"), user("bob@example.org", "Bob")))
    second = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    try:
        ann = signed_in(browser, base, "ann@example.org")
        bob = signed_in(second, base, "bob@example.org")
        ARTIFACTS.mkdir(exist_ok=True)

        ann.goto(f"{base}/clubs")
        ann.get_by_role("link", name="Found a club").click()
        ann.fill("#name", "Tuesday Traders")
        ann.fill("#description", "Puerto Rico on Tuesdays, by mail.")
        ann.select_option("#access", "invite")
        assert sideways(ann) <= 0
        ann.screenshot(path=str(ARTIFACTS / "club-found.png"), full_page=True)
        ann.get_by_role("button", name="Found the club").click()
        shows(ann, "Your club is founded")
        assert ann.url.endswith("/clubs/tuesday-traders") and sideways(ann) <= 0
        ann.get_by_role("button", name="Make an invitation link").click()
        shows(ann, "Send this link to the people you invite")
        link = ann.locator("#link").input_value()
        assert "/clubs/join/" in link and sideways(ann) <= 0

        # Bob is an outsider: the club's page shows him its name and description only.
        bob.goto(f"{base}/clubs/tuesday-traders")
        shows(bob, "only its members see its page")
        assert bob.locator("#members").count() == 0
        bob.goto(link)  # a GET joins nobody
        shows(bob, "You are invited to Tuesday Traders")
        assert sideways(bob) <= 0
        bob.screenshot(path=str(ARTIFACTS / "club-invited.png"), full_page=True)
        assert in_db(app, lambda: ClubMember.select().count()) == 1
        bob.get_by_role("button", name="Join", exact=True).click()
        shows(bob, "Welcome: you are a member of Tuesday Traders.")
        shows(bob, "Bob joined by invitation link.")
        assert sideways(bob) <= 0
        bob.screenshot(path=str(ARTIFACTS / "club-page.png"), full_page=True)

        ann.goto(f"{base}/clubs/tuesday-traders")
        shows(ann, "Bob joined by invitation link.")
        assert ann.get_by_role("button", name="Make Bob admin").count() == 1
        bob_id = in_db(app, lambda: User.get(User.email == "bob@example.org").id)
        assert in_db(app, lambda: ClubMember.get(ClubMember.user == bob_id).role) == "member"
    finally:
        second.close()

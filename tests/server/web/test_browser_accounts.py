"""A real Chromium signs up, confirms the address from the mail the built-in
catcher shows at /dev/mail, takes an invited seat, and resets a forgotten
password the same way."""

from __future__ import annotations

import pytest
from browser_helpers import ARTIFACTS, fill_sign_up, shows
from conftest import make_app, serving

from server.db import db
from server.mail import catcher
from server.mail.smtp_sender import drain

pytestmark = pytest.mark.browser


@pytest.fixture
def caught(sqlite_url, smtp, tmp_path):
    """The app on a real HTTP server, mailing to the built-in catcher."""
    folder = tmp_path / "caught"
    controller = catcher.start(folder)
    try:
        with serving(
            lambda base: make_app(
                sqlite_url,
                smtp,
                tmp_path,
                PUBLIC_BASE_URL=base,
                TESTING=False,
                SMTP_PORT=controller.port,
                MAIL_CATCHER_DIR=str(folder),
            )
        ) as served:
            yield served
    finally:
        controller.stop()


def open_mail(page, app, base, to: str, subject: str, link_part: str):
    """Send what is queued (the sender's job), then click the link in the
    newest mail to ``to`` on the catcher's page."""
    with app.app_context(), db.connection_context():
        drain(app.config)
    page.goto(f"{base}/dev/mail/")
    page.locator("tr", has_text=to).filter(has_text=subject).first.get_by_role("link").click()
    page.locator("pre.mail-text a", has_text=link_part).first.click()


def test_sign_up_confirm_take_the_invited_seat_and_reset(caught, browser):
    app, base = caught
    ann = browser.new_context().new_page()
    ann.goto(f"{base}/signup")
    fill_sign_up(ann, "Ann", "ann@example.org", "anns password")
    open_mail(ann, app, base, "ann@example.org", "Confirm your address", "/confirm/")
    ann.get_by_role("button", name="Yes, confirm and sign in").click()
    shows(ann, "Your address is confirmed")
    ann.get_by_role("link", name="New game").click()
    ann.fill("#name", "Confirmed game")
    ann.fill("#seats", "2")
    ann.get_by_role("button", name="Create the game").click()
    ann.fill("#emails", "bob@example.org")
    ann.get_by_role("button", name="Send invitations").click()

    bob = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    # Bob has no account yet: his invitation's subject carries no game name.
    open_mail(bob, app, base, "bob@example.org", "An invitation to a game", "/j/")
    bob.get_by_role("link", name="sign up", exact=True).click()
    fill_sign_up(bob, "Bob", "bob@example.org", "bobs password")
    open_mail(bob, app, base, "bob@example.org", "Confirm your address", "/confirm/")
    bob.get_by_role("button", name="Yes, confirm and sign in").click()
    bob.get_by_role("button", name="Join seat 2").click()  # back on the join page
    shows(bob, "You sit in seat 2")
    ARTIFACTS.mkdir(exist_ok=True)
    bob.screenshot(path=str(ARTIFACTS / "joined-after-confirming.png"), full_page=True)

    # Bob forgets his password.
    bob.get_by_role("button", name="Sign out", exact=True).click()
    bob.goto(f"{base}/login")
    bob.get_by_role("link", name="Forgot your password?").click()
    bob.fill("#email", "bob@example.org")
    bob.get_by_role("button", name="Mail me a link").click()
    open_mail(bob, app, base, "bob@example.org", "Choose a new password", "/reset/")
    bob.fill("#password", "bobs new password")
    bob.get_by_role("button", name="Set the new password").click()
    shows(bob, "Your new password is set")
    bob.get_by_role("button", name="Sign out", exact=True).click()
    bob.goto(f"{base}/login")
    bob.fill("#email", "bob@example.org")
    bob.fill("#password", "bobs password")
    bob.get_by_role("button", name="Sign in").click()
    shows(bob, "wrong password")
    bob.fill("#password", "bobs new password")
    bob.get_by_role("button", name="Sign in").click()
    shows(bob, "Confirmed game")

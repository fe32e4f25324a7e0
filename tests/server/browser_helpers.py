"""Shared by the browser tests: where Chromium is, how it starts, and the
clicks of signing up.  The fixtures that use these live in conftest.py."""

from __future__ import annotations

import re
from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def sign_up(page, base, name, email, mailbox, start=None):
    """Sign up, then confirm the address from the mail ``mailbox(email)`` reads."""
    page.goto(start or f"{base}/signup")
    if start:
        page.get_by_role("link", name="sign up", exact=True).click()
    fill_sign_up(page, name, email, "correct horse battery")
    page.goto(link_in(mailbox(email), "/confirm/"))
    page.get_by_role("button", name="Yes, confirm and sign in").click()


def fill_sign_up(page, name: str, email: str, password: str) -> None:
    """Fill and send the sign-up form; the page then asks to check the mail."""
    page.fill("#name", name)
    page.fill("#email", email)
    page.fill("#password", password)
    page.get_by_role("button", name="Sign up").click()
    shows(page, "Check your mail")


def shows(page, text: str) -> None:
    """Wait until the page shows ``text``: a click that posts a form returns
    before the redirected page has loaded, so reading it at once may read
    an empty document."""
    from playwright.sync_api import expect

    expect(page.locator("body")).to_contain_text(text)


def link_in(text: str, part: str) -> str:
    return re.findall(r"https?://[^\s>]+" + re.escape(part) + r"[^\s>]+", text)[-1]


def mailbox_of(smtp, send_mail, app):
    """What has arrived for an address over the real SMTP server, as text."""

    def read(email: str) -> str:
        send_mail(app)
        return "\n".join(m.get_body(("plain",)).get_content() for m in smtp.to(email))

    return read

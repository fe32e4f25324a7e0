"""A real Chromium (Debian's, headless) signs up, creates a game, invites,
starts and plays several turns by clicking; the move page's screenshot is
kept under test-artifacts/."""

from __future__ import annotations

import re

import pytest
from browser_helpers import ARTIFACTS, mailbox_of, shows, sign_up
from web_helpers import text_of

pytestmark = pytest.mark.browser


def mail_link(smtp, send_mail, app, email, kind):
    send_mail(app)
    mails = [m for m in smtp.to(email) if kind in text_of(m)]
    assert mails, f"no {kind!r} mail for {email}"
    body = mails[-1].get_body(("plain",)).get_content()
    return re.search(r"http://127\.0\.0\.1:\d+/[sj]/\S+", body).group(0)


def test_sign_up_create_invite_start_and_play(live, browser, smtp, send_mail):
    app, base = live
    host, guest = browser.new_context(), browser.new_context(viewport={"width": 390, "height": 844})
    a, b = host.new_page(), guest.new_page()
    mailbox = mailbox_of(smtp, send_mail, app)
    sign_up(a, base, "Ann", "ann@example.org", mailbox)
    a.get_by_role("link", name="New game").click()
    a.fill("#name", "Sunday game")
    a.fill("#seats", "2")
    a.get_by_role("button", name="Create the game").click()
    a.fill("#emails", "bob@example.org")
    a.get_by_role("button", name="Send invitations").click()
    shows(a, "Sent 1 invitation")

    sign_up(
        b,
        base,
        "Bob",
        "bob@example.org",
        mailbox,
        start=mail_link(smtp, send_mail, app, "bob@example.org", "You are invited"),
    )
    b.get_by_role("button", name="Join seat 2").click()
    shows(b, "You sit in seat 2")

    a.reload()
    a.get_by_role("button", name="Start the game").click()
    shows(a, "The game has started")

    pages = {"ann@example.org": a, "bob@example.org": b}
    seen = {email: 0 for email in pages}
    played = 0
    while played < 8:
        send_mail(app)
        fresh = {e: smtp.to(e)[seen[e] :] for e in pages}
        seen = {e: len(smtp.to(e)) for e in pages}
        ((email, mail),) = [
            (e, m) for e, ms in fresh.items() for m in ms if "It is your turn in" in text_of(m)
        ]
        page = pages[email]
        link = re.search(r"http://127\.0\.0\.1:\d+/s/\S+", mail.get_body(("plain",)).get_content())
        page.goto(link.group(0))
        while page.locator("#move button").count():
            if played == 0:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "move-page.png"), full_page=True)
            page.locator("#move button").first.click()
            shows(page, "What happened")
            played += 1
    assert (ARTIFACTS / "move-page.png").stat().st_size > 10_000
    host.close()
    guest.close()

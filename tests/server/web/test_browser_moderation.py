"""A real Chromium: a moderator finds a stalled game on the dashboard and
gives the seat holding it up to someone else, who then plays from the turn
mail; the old player's link is refused.  Screenshots go to test-artifacts/."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from browser_helpers import ARTIFACTS, link_in, mailbox_of, shows, sign_up
from moderation_helpers import (
    backdate,
    game_row,
    make_moderator,
    seat_row,
    service_game,
)
from web_helpers import text_of

pytestmark = pytest.mark.browser
DAYS = 5


def turn_link(smtp, send_mail, app, email: str) -> str:
    send_mail(app)
    mails = [m for m in smtp.to(email) if "It is your turn in" in text_of(m)]
    assert mails, f"no turn mail for {email}"
    body = mails[-1].get_body(("plain",)).get_content()
    return re.search(r"http://127\.0\.0\.1:\d+/s/\S+", body).group(0)


def test_moderator_finds_stalled_game_and_replaces_the_player(live, browser, smtp, send_mail):
    app, base = live
    gid = service_game(app, "stall")
    backdate(app, gid, dt.timedelta(days=DAYS))
    pending = game_row(app, gid).to_move
    holder = seat_row(app, gid, pending).user
    old_link = turn_link(smtp, send_mail, app, holder.email)

    mod = browser.new_context().new_page()
    sign_up(mod, base, "Mona", "mona@example.org", mailbox_of(smtp, send_mail, app))
    assert make_moderator(app, "mona@example.org").exit_code == 0
    mod.reload()
    mod.get_by_role("link", name="Moderation").click()
    row = mod.locator("#attention tr", has_text="Game stall")
    assert "overdue" in row.inner_text() and "no move for a long time" in row.inner_text()
    assert holder.name in row.inner_text() and f"{DAYS} d 0 h" in row.inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    mod.screenshot(path=str(ARTIFACTS / "moderation-dashboard.png"), full_page=True)
    row.get_by_role("link", name="Game stall").click()

    mod.select_option("#replace-seat", str(pending + 1))
    mod.fill("#replace-email", "sub@example.org")
    mod.fill("#replace-name", "Sub")
    mod.fill("#replace-reason", f"{holder.name} has not played for {DAYS} days")
    mod.get_by_role("button", name="Replace the player").click()
    shows(mod, f"Sub now plays seat {pending + 1}")
    assert "Sub" in mod.locator("#seats").inner_text()
    mod.screenshot(path=str(ARTIFACTS / "moderation-replaced.png"), full_page=True)

    old = browser.new_context().new_page()
    old.goto(old_link)
    shows(old, "no longer valid")

    # The newcomer's address is not confirmed yet: the moderator's welcome
    # mail brings the seat link (turn mails follow once they confirm).
    sub = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    sub.goto(link_in(mailbox_of(smtp, send_mail, app)("sub@example.org"), "/s/"))
    shows(sub, f"You play seat {pending + 1} (Sub)")
    assert f"has not played for {DAYS} days" in sub.content()  # the record, in the log
    sub.locator("#move button").first.click()
    shows(sub, "What happened")
    assert (ARTIFACTS / "moderation-dashboard.png").stat().st_size > 10_000

"""Clocks on the players' own time in a real Chromium: a player sets their mail
schedule in Settings (refused with a message, then saved), and a host
creates a game whose clock stops at night and sees it in the lobby."""

from __future__ import annotations

import pytest
from browser_helpers import mailbox_of, shows, sign_up

from server.db import db
from server.models import Game, User

pytestmark = pytest.mark.browser


def test_settings_mail_schedule_and_a_night_clock(live, browser, smtp, send_mail):
    app, base = live
    page = browser.new_context().new_page()
    sign_up(page, base, "Nina", "nina@example.org", mailbox_of(smtp, send_mail, app))
    page.goto(f"{base}/settings")
    page.select_option("#timezone", "America/New_York")
    page.fill("#reminder_hours", "12, later")
    page.select_option("#quiet_from", "22")
    page.select_option("#quiet_until", "7")
    page.get_by_role("button", name="Save", exact=True).click()
    shows(page, "'later' is neither 'half' nor a number of hours")
    page.fill("#reminder_hours", "12, 2")
    page.select_option("#mail_mode", "digest")
    page.select_option("#digest_hour", "23")
    page.get_by_role("button", name="Save", exact=True).click()
    shows(
        page,
        "Your digest hour 23:00 falls in your quiet hours (22:00 to 07:00): the digest "
        "comes at 22:00, when they begin.",
    )
    page.select_option("#digest_hour", "8")
    page.get_by_role("button", name="Save", exact=True).click()
    shows(page, "Your settings are saved")
    assert page.input_value("#reminder_hours") == "12, 2"
    assert page.input_value("#digest_hour") == "8"
    with app.app_context(), db.connection_context():
        nina = User.get(User.email == "nina@example.org")
        assert (nina.timezone, nina.reminder_hours) == ("America/New_York", [12, 2])
        assert (nina.quiet_from, nina.quiet_until, nina.digest_hour) == (22, 7, 8)
        assert nina.mail_mode == "digest" and nina.next_digest_at is not None

    page.goto(f"{base}/games/new")
    page.fill("#name", "Owls")
    page.select_option("#clock_policy", "no_nights/22-6")
    page.get_by_role("button", name="Create the game").click()
    shows(page, "The clock stops at night from 22:00 to 06:00, in each player’s own time zone")
    with app.app_context(), db.connection_context():
        assert Game.get(Game.name == "Owls").clock_policy == "no_nights"

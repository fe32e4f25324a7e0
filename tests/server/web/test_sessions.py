"""Sessions you can end.  Signing out ends this browser's
session on the server, so a copy of its cookie signs nobody in and opens no
seat; "sign out everywhere" ends every session of the account and the seat
links browsers hold for its seats; a new password or "sign out everywhere"
ends pending address-change and reset links.  The copied-cookie flow runs in
Chromium; the rest with test clients on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from browser_helpers import mailbox_of, shows, sign_up
from game_driver import current_turn
from web_helpers import csrf, form_for, post_form, queued_link, seat_link, signup


# -- in the browser --------------------------------------------------------------
@pytest.mark.browser
def test_a_copied_cookie_dies_with_the_sign_out(live, browser, smtp, send_mail):
    app, base = live
    owner = browser.new_context()
    page = owner.new_page()
    sign_up(page, base, "Ann", "ann@example.org", mailbox_of(smtp, send_mail, app))
    stolen = owner.cookies()
    thief = browser.new_context()
    thief.add_cookies(stolen)
    spy = thief.new_page()
    spy.goto(f"{base}/account")
    shows(spy, "Sign out on every device")  # the copy works while Ann is in
    page.get_by_role("button", name="Sign out", exact=True).click()
    shows(page, "Sign in")
    spy.goto(f"{base}/account")
    assert "/login" in spy.url  # the copy died with Ann's sign-out
    shows(spy, "Please sign in")
    owner.close()
    thief.close()


@pytest.mark.browser
def test_sign_out_everywhere_ends_a_copy_made_on_another_device(live, browser, smtp, send_mail):
    app, base = live
    laptop = browser.new_context()
    page = laptop.new_page()
    sign_up(page, base, "Bea", "bea@example.org", mailbox_of(smtp, send_mail, app))
    thief = browser.new_context()
    thief.add_cookies(laptop.cookies())
    page.goto(f"{base}/account")
    page.get_by_role("button", name="Sign out on every device").click()
    shows(page, "signed out on every device")
    spy = thief.new_page()
    spy.goto(f"{base}/account")
    assert "/login" in spy.url
    laptop.close()
    thief.close()


# -- seat links ----------------------------------------------------------------
def copy_cookie(source, target) -> None:
    target.set_cookie("session", source.get_cookie("session").value, domain="localhost")


def move_form_shown(client, gid: int) -> bool:
    return 'action="/games/%d/move"' % gid in client.get(f"/games/{gid}").text


def test_sign_out_ends_the_seat_links_of_every_copy(table):
    """A friend's signed-in browser opened a forwarded seat link; it signs
    out: the copy of its cookie holds neither the account nor the seat."""
    gid = table.game_id
    seat, player, page, mail = current_turn(table)
    borrowed = table.app.test_client()
    signup(borrowed, "Friend", "friend@example.org")
    borrowed.get(seat_link(mail))
    copy = table.app.test_client()
    copy_cookie(borrowed, copy)
    move = form_for(copy.get(f"/games/{gid}").text, "/move")  # the copy plays the seat
    post_form(borrowed, form_for(borrowed.get("/account").text, "/logout"))
    assert not move_form_shown(copy, gid)
    assert copy.get("/account").status_code == 302
    before = table.game().seq
    refused = copy.post(move["action"], data=dict(move["fields"], action=move["buttons"][0][1]))
    assert refused.status_code == 403 and table.game().seq == before


def test_sign_out_everywhere_revokes_the_seat_links_browsers_hold(table):
    gid = table.game_id
    seat, player, page, mail = current_turn(table)
    phone = table.app.test_client()  # not signed in: the link alone
    phone.get(seat_link(mail))
    assert move_form_shown(phone, gid)
    post_form(player, form_for(player.get("/account").text, "/logout-everywhere"))
    assert not move_form_shown(phone, gid)
    assert not move_form_shown(player, gid)
    # The link in the mail itself still opens the seat (the mailbox is the owner's).
    phone.get(seat_link(mail))
    assert move_form_shown(phone, gid)


# -- mailed account links ----------------------------------------------------------
def ask_address_change(client, email: str):
    page = client.get("/account")
    form = form_for(page.text, "/account/address")
    answer = post_form(client, form, current="correct horse", email=email)
    assert "Check your mail" in answer.text
    return queued_link(client.application, email, "/account/address/")


@pytest.mark.parametrize("ending", ["password", "everywhere"])
def test_a_pending_address_change_dies_when_sessions_end(app, ending):
    owner = app.test_client()
    signup(owner, "Cy", "cy@example.org")
    link = ask_address_change(owner, "attacker@example.org")
    assert owner.get(link).status_code == 200  # valid until...
    if ending == "password":
        form = form_for(owner.get("/account").text, "/account/password")
        post_form(owner, form, current="correct horse", password="a brand new one")
    else:
        post_form(owner, form_for(owner.get("/account").text, "/logout-everywhere"))
    attacker = app.test_client()
    assert attacker.get(link).status_code == 410
    refused = attacker.post(link, data={"csrf_token": csrf(attacker.get("/login").text)})
    assert refused.status_code == 410
    from moderation_helpers import in_db

    from server.models import User

    assert in_db(app, lambda: User.get(User.name == "Cy").email) == "cy@example.org"


def test_a_reset_link_dies_when_the_owner_signs_out_everywhere(app):
    owner = app.test_client()
    signup(owner, "Di", "di@example.org")
    stranger = app.test_client()
    stranger.post(
        "/reset", data={"csrf_token": csrf(stranger.get("/reset").text), "email": "di@example.org"}
    )
    link = queued_link(app, "di@example.org", "/reset/")
    assert stranger.get(link).status_code == 200
    post_form(owner, form_for(owner.get("/account").text, "/logout-everywhere"))
    assert stranger.get(link).status_code == 410


def test_a_session_ends_when_its_lifetime_is_over(app):
    """However busy, a session lasts PERMANENT_SESSION_LIFETIME_DAYS (30)."""
    import datetime as dt

    from moderation_helpers import in_db

    from server.models import BrowserSession, utcnow

    old = app.test_client()
    signup(old, "Ed", "ed@example.org")
    assert old.get("/account").status_code == 200
    in_db(app, lambda: BrowserSession.update(created_at=utcnow() - dt.timedelta(days=31)).execute())
    signup(app.test_client(), "Flo", "flo@example.org")  # any new session sweeps
    assert old.get("/account").status_code == 302

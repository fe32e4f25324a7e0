"""Accounts on the open internet: addresses are confirmed before
they count, sign-up and reset reveal nothing, a reset link works once, and a
player changes their own password, name and address.  SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import time

from game_driver import Table
from web_helpers import confirm, csrf, form_for, post_form, queued_link, signup

from server.db import db
from server.models import Outbox, Seat, SignUpAttempt, User, utcnow


def kinds_to(app, email: str) -> list[str]:
    with app.app_context(), db.connection_context():
        return [o.kind for o in Outbox.select().where(Outbox.to_addr == email).order_by(Outbox.id)]


def account(app, email: str) -> User | None:
    with app.app_context(), db.connection_context():
        return User.get_or_none(User.email == email)


def post_signup(client, name, email, password="correct horse", next_path=None):
    page = client.get("/signup")
    url = "/signup" + (f"?next={next_path}" if next_path else "")
    return client.post(
        url,
        data={"csrf_token": csrf(page.text), "name": name, "email": email, "password": password},
    )


def sign_in(client, email, password="correct horse", next_path=None):
    page = client.get("/login")
    url = "/login" + (f"?next={next_path}" if next_path else "")
    return client.post(
        url, data={"csrf_token": csrf(page.text), "email": email, "password": password}
    )


def is_signed_in(client) -> bool:
    return "Sign out" in client.get("/").text


def test_sign_up_needs_the_mailed_link_and_a_button(app):
    client = app.test_client()
    page = post_signup(client, "Ann", "ann@example.org", next_path="/games/new")
    assert page.status_code == 200 and "Check your mail" in page.text
    assert not is_signed_in(client)
    assert not account(app, "ann@example.org").verified
    assert kinds_to(app, "ann@example.org") == ["confirm"]
    # Unconfirmed: the password alone does not sign in, it mails a new link.
    page = sign_in(client, "ann@example.org", next_path="/games/new")
    assert "not confirmed yet" in page.text and not is_signed_in(client)
    link = queued_link(app, "ann@example.org", "/confirm/")
    scanner = app.test_client()
    assert "Yes, confirm" in scanner.get(link).text  # a GET changes nothing
    assert not account(app, "ann@example.org").verified
    page = client.get(link)
    landed = client.post(link, data={"csrf_token": csrf(page.text)})
    assert landed.status_code == 302 and landed.headers["Location"] == "/games/new"
    assert account(app, "ann@example.org").verified and is_signed_in(client)
    again = app.test_client().get(link)  # used: it stays used
    assert again.status_code == 410


def test_sign_up_with_a_taken_address_reveals_nothing_and_tells_the_owner(app):
    signup(app.test_client(), "Ann", "ann@example.org", password="anns password")
    before = account(app, "ann@example.org")
    stranger = app.test_client()
    fresh = post_signup(stranger, "Eve", "fresh@example.org")
    taken = post_signup(stranger, "Eve", "ANN@example.org", password="eves password")
    assert taken.status_code == fresh.status_code == 200
    assert taken.text.replace("Eve", "") == fresh.text.replace("Eve", "")
    assert kinds_to(app, "ann@example.org")[-1] == "account_exists"
    after = account(app, "ann@example.org")
    assert (after.name, after.password_hash) == (before.name, before.password_hash)
    assert not is_signed_in(stranger)


def test_signing_up_again_never_changes_an_unconfirmed_account(app):
    """The account keeps the first sign-up's name and password until a link
    is confirmed; the link of the other sign-up waits unused, then dies."""
    owner = app.test_client()
    fresh = post_signup(owner, "Ann", "ann@example.org", password="anns password")
    owners_link = queued_link(app, "ann@example.org", "/confirm/")
    before = account(app, "ann@example.org")
    stranger = app.test_client()
    again = post_signup(stranger, "Eve", "Ann@Example.org", password="eves password")
    assert again.status_code == fresh.status_code == 200
    assert again.text.replace("Eve", "") == fresh.text.replace("Ann", "")  # nothing leaks
    after = account(app, "ann@example.org")
    assert (after.name, after.password_hash, after.session_token) == (
        before.name,
        before.password_hash,
        before.session_token,
    )
    assert kinds_to(app, "ann@example.org") == ["confirm", "confirm"]
    strangers_link = queued_link(app, "ann@example.org", "/confirm/")
    assert strangers_link != owners_link
    page = owner.get(owners_link)
    owner.post(owners_link, data={"csrf_token": csrf(page.text)})
    confirmed = account(app, "ann@example.org")
    assert confirmed.verified and confirmed.name == "Ann"
    assert is_signed_in(signed_in_with(app, "anns password"))
    assert not is_signed_in(signed_in_with(app, "eves password"))
    assert app.test_client().get(strangers_link).status_code == 410


def test_later_sign_ups_whose_links_expired_are_forgotten(app):
    post_signup(app.test_client(), "Ann", "ann@example.org")
    post_signup(app.test_client(), "Eve", "ann@example.org", password="eves password")
    with app.app_context(), db.connection_context():
        days = app.config["CONFIRM_LINK_MAX_AGE"] // 86400 + 1
        long_ago = utcnow() - dt.timedelta(days=days)
        SignUpAttempt.update(created_at=long_ago).execute()
    post_signup(app.test_client(), "Bob", "ann@example.org", password="bobs password")
    with app.app_context(), db.connection_context():
        assert [a.name for a in SignUpAttempt.select()] == ["Bob"]


def signed_in_with(app, password: str):
    client = app.test_client()
    sign_in(client, "ann@example.org", password=password)
    return client


def test_a_stranger_cannot_take_a_seat_reserved_for_an_address(app, smtp, send_mail):
    """The invited address's seat goes to whoever proves the address, not to
    the first to sign up with it."""
    t = Table(app, smtp, send_mail, 2, seed=3)
    host = t.clients[0]
    signup(host, "Host", t.emails[0])
    page = host.get("/games/new")
    page = post_form(
        host,
        form_for(page.text, "/games/new"),
        name="g",
        seats="2",
        move_hours="24",
        reminder_hours="",
    )
    game_id = int(page.request.path.split("/")[2])
    post_form(host, form_for(page.text, "/invite"), emails=t.emails[1])
    eve = app.test_client()
    post_signup(eve, "Eve", t.emails[1], password="eves password")
    assert sign_in(eve, t.emails[1], "eves password").status_code == 200  # "confirm first"
    assert eve.get(f"/games/{game_id}/lobby").status_code == 302  # to sign in
    # The owner signs up too and proves the address; Eve's attempt is void.
    owner = t.clients[1]
    signup(owner, "Bob", t.emails[1], password="bobs password")
    assert "Join seat 2" in owner.get(f"/games/{game_id}/lobby").text
    assert sign_in(eve, t.emails[1], "eves password").status_code == 400


def test_reset_link_works_once_and_not_after_the_password_changed(app):
    owner = app.test_client()
    signup(owner, "Ann", "ann@example.org", password="old password")
    stranger = app.test_client()
    page = stranger.get("/reset")
    known = stranger.post(
        "/reset", data={"csrf_token": csrf(page.text), "email": "ann@example.org"}
    )
    unknown = stranger.post(
        "/reset", data={"csrf_token": csrf(page.text), "email": "nobody@example.org"}
    )
    assert known.status_code == unknown.status_code == 200 and known.text == unknown.text
    assert kinds_to(app, "nobody@example.org") == ["reset_unknown"]
    link = queued_link(app, "ann@example.org", "/reset/")
    assert "Choose a new password" in stranger.get(link).text  # GET: nothing changes
    assert sign_in(app.test_client(), "ann@example.org", "old password").status_code == 302
    page = stranger.get(link)
    done = stranger.post(link, data={"csrf_token": csrf(page.text), "password": "new password"})
    assert done.status_code == 302 and is_signed_in(stranger)
    assert not is_signed_in(owner)  # everybody else is out
    assert stranger.get(link).status_code == 410  # used once
    assert sign_in(app.test_client(), "ann@example.org", "new password").status_code == 302
    assert sign_in(app.test_client(), "ann@example.org", "old password").status_code == 400


def test_a_reset_link_dies_when_the_password_changes_otherwise(app):
    client = app.test_client()
    signup(client, "Ann", "ann@example.org", password="old password")
    page = client.get("/reset")
    client.post("/reset", data={"csrf_token": csrf(page.text), "email": "ann@example.org"})
    link = queued_link(app, "ann@example.org", "/reset/")
    page = client.get("/account")
    post_form(
        client,
        form_for(page.text, "/account/password"),
        current="old password",
        password="other password",
    )
    assert app.test_client().get(link).status_code == 410


def test_change_password_name_and_address(app):
    client, other_device = app.test_client(), app.test_client()
    signup(client, "Ann", "ann@example.org", password="old password")
    assert sign_in(other_device, "ann@example.org", "old password").status_code == 302
    page = client.get("/account")
    wrong = post_form(
        client, form_for(page.text, "/account/password"), current="not it", password="new password"
    )
    assert wrong.status_code == 400 and "not right" in wrong.text
    page = post_form(
        client,
        form_for(page.text, "/account/password"),
        current="old password",
        password="new password",
    )
    assert "password is changed" in page.text and is_signed_in(client)
    assert not is_signed_in(other_device)
    blank = post_form(client, form_for(page.text, "/account/name"), name="   ")
    assert blank.status_code == 400 and "1 to 40 characters" in blank.text
    page = post_form(client, form_for(page.text, "/account/name"), name="Annie  B")
    assert account(app, "ann@example.org").name == "Annie B"
    page = post_form(
        client,
        form_for(page.text, "/account/address"),
        current="new password",
        email="ann@new.example.org",
    )
    assert "Check your mail" in page.text
    assert account(app, "ann@example.org") is not None  # not moved yet
    assert kinds_to(app, "ann@example.org")[-1] == "address_notice"  # the old one is told
    link = queued_link(app, "ann@new.example.org", "/account/address/")
    page = client.get(link)
    assert "ann@new.example.org" in page.text and account(app, "ann@new.example.org") is None
    moved = client.post(link, data={"csrf_token": csrf(page.text)}, follow_redirects=True)
    assert "now uses ann@new.example.org" in moved.text
    assert account(app, "ann@example.org") is None
    assert account(app, "ann@new.example.org").verified
    assert app.test_client().get(link).status_code == 410
    assert sign_in(app.test_client(), "ann@new.example.org", "new password").status_code == 302


def test_sign_out_everywhere_ends_copied_cookies(app):
    client = app.test_client()
    signup(client, "Ann", "ann@example.org")
    copy = app.test_client()
    copy.set_cookie("session", client.get_cookie("session").value)
    assert is_signed_in(copy)
    page = client.get("/account")
    post_form(client, form_for(page.text, "/logout-everywhere"))
    assert not is_signed_in(copy) and not is_signed_in(client)


def test_no_game_mail_to_an_unconfirmed_address(app, smtp, send_mail):
    """Anybody can type anybody's address; until its owner confirms, only the
    confirmation goes there (a moderator's replacement brings a seat link and
    the confirmation link, not turn mails)."""
    from moderation_helpers import in_db, service_game

    from server.services import moderation

    gid = service_game(app, "unconf")

    def give():
        mod = User.create(email="mod@example.org", name="Mod", password_hash="!", is_moderator=True)
        game = Seat.select().where(Seat.game == gid).first().game
        pending = game.to_move
        moderation.replace(
            gid,
            mod,
            game.seq,
            pending,
            "new@example.org",
            "New",
            "testing the rule",
            mailer=app.extensions["pbem_mailer"],
        )
        return pending

    in_db(app, give)
    assert set(kinds_to(app, "new@example.org")) == {"moderation_seat"}
    assert "/confirm/" in queued_link(app, "new@example.org", "/confirm/")
    newcomer = app.test_client()
    confirm(newcomer, queued_link(app, "new@example.org", "/confirm/"))
    assert account(app, "new@example.org").verified


def test_sign_in_takes_as_long_for_an_unknown_address(app):
    """Timing must not tell which addresses have accounts: a wrong password
    and an unknown address both cost one password hash check."""
    signup(app.test_client(), "Ann", "ann@example.org")

    def cost(email: str) -> float:
        client = app.test_client()
        page = client.get("/login")
        start = time.perf_counter()
        client.post(
            "/login",
            data={"csrf_token": csrf(page.text), "email": email, "password": "wrong password"},
        )
        return time.perf_counter() - start

    known = min(cost("ann@example.org") for _ in range(3))
    unknown = min(cost(f"x{i}@example.org") for i in range(3))
    # Without the dummy check the unknown address answered ~25 times faster.
    assert unknown > known / 3, (known, unknown)


def test_an_account_without_a_password_sets_one_without_a_current_one(app):
    """An account made for a player (a replacement, an
    invitation) has no password; the Account page asks for a new one only."""
    from server.services.accounts import NO_PASSWORD

    client = app.test_client()
    signup(client, "Made", "made@example.org")
    with app.app_context(), db.connection_context():
        User.update(password_hash=NO_PASSWORD).where(User.email == "made@example.org").execute()
    page = client.get("/account")
    assert page.status_code == 200 and "has no password yet" in page.text
    assert "Current password" not in page.text and "/account/address" not in page.text
    short = post_form(client, form_for(page.text, "/account/password"), password="short")
    assert short.status_code == 400
    done = post_form(client, form_for(page.text, "/account/password"), password="a fine password")
    assert "Your password is set" in done.text and "Current password" in done.text
    fresh = app.test_client()
    sign_in(fresh, "made@example.org", "a fine password")
    assert is_signed_in(fresh)

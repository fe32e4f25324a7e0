"""Signed links in mails: tampered, expired, revoked, scoped to one seat, and
a GET through them changes nothing."""

from __future__ import annotations

from conftest import make_app
from game_driver import current_turn, db_state
from web_helpers import move_form, seat_link

from server.db import db
from server.models import Seat


def test_tampered_link_is_refused(table):
    seat, client, page, mail = current_turn(table)
    link = seat_link(mail)
    fresh = table.app.test_client()
    for bad in (link[:-3] + "abc", link + "x", "/s/not-a-token"):
        resp = fresh.get(bad)
        assert resp.status_code == 404, bad
        assert "not valid" in resp.text
    assert fresh.get(f"/games/{table.game_id}").status_code == 302  # still signed out


def test_expired_link_is_refused(table, smtp, tmp_path):
    seat, client, page, mail = current_turn(table)
    strict = make_app(table.app.config["DATABASE_URL"], smtp, tmp_path, SEAT_LINK_MAX_AGE=-1)
    resp = strict.test_client().get(seat_link(mail))
    assert resp.status_code == 410
    assert "expired" in resp.text


def test_revoked_link_is_refused(table):
    seat, client, page, mail = current_turn(table)
    with table.app.app_context(), db.connection_context():
        Seat.update(link_version=Seat.link_version + 1).where(
            (Seat.game == table.game_id) & (Seat.index == seat)
        ).execute()
    resp = table.app.test_client().get(seat_link(mail))
    assert resp.status_code == 410
    assert "no longer valid" in resp.text


def test_link_opens_that_seat_and_not_the_account(table):
    """A seat link hands over the seat, not the account: a forwarded mail lets
    its reader play that seat, but not see the player's other pages."""
    seat, client, page, mail = current_turn(table)
    stranger = table.app.test_client()
    page = stranger.get(seat_link(mail), follow_redirects=True)
    assert f"You play seat {seat + 1}" in page.text
    assert move_form(page.text) is not None
    assert "Opened from a mail link" in page.text
    assert "Sign in" in stranger.get("/").text  # not signed in
    for private in ("/settings", "/account", "/games/new"):
        assert stranger.get(private).status_code == 302, private  # to the sign-in page
    assert stranger.post(f"/games/{table.game_id}/resign").status_code in (302, 400)


def test_new_link_ends_what_old_links_opened(table):
    """ "Email me a new link" ends every browser that opened an old link."""
    from web_helpers import form_for, post_form

    seat, client, page, mail = current_turn(table)
    stranger = table.app.test_client()
    assert move_form(stranger.get(seat_link(mail), follow_redirects=True).text) is not None
    post_form(client, form_for(page.text, "/new-link"))
    after = stranger.get(f"/games/{table.game_id}")
    assert after.status_code == 302 and "/login" in after.headers["Location"]


def test_following_links_changes_nothing(table):
    """Mail scanners open every link: GETs of every kind leave the data alone."""
    seat, client, page, mail = current_turn(table)
    before = db_state(table.app, table.game_id)
    scanner = table.app.test_client()
    for path in (
        seat_link(mail),
        f"/games/{table.game_id}",
        f"/games/{table.game_id}/lobby",
        f"/games/{table.game_id}/move",
        "/",
        "/games/new",
    ):
        resp = scanner.get(path, follow_redirects=True)
        assert resp.status_code < 500, path
    assert db_state(table.app, table.game_id) == before


def test_other_seats_link_cannot_act_for_this_seat(table):
    """Signed in as a seat that is not to move: no form, and a forged post
    is refused."""
    seat, client, page, mail = current_turn(table)
    form = move_form(page.text)
    other = (seat + 1) % 3
    other_client = table.clients[other]
    before = db_state(table.app, table.game_id)
    other_page = other_client.get(f"/games/{table.game_id}")
    assert move_form(other_page.text) is None
    from web_helpers import csrf

    resp = other_client.post(
        f"/games/{table.game_id}/move",
        data={
            "csrf_token": csrf(other_page.text),
            "seq": form["fields"]["seq"],
            "action": form["buttons"][0][1],
        },
    )
    assert resp.status_code == 409 and "not your turn" in resp.text
    assert db_state(table.app, table.game_id) == before


def test_invitation_link_signs_nobody_in(app, smtp, send_mail):
    """An invitation to an existing account leads to the join page; whoever
    holds the mail must still sign in to take a seat."""
    from game_driver import Table
    from web_helpers import form_for, links_in, post_form, signup

    t = Table(app, smtp, send_mail, 2, seed=5)
    signup(t.clients[1], "Bob", t.emails[1])
    host = t.clients[0]
    signup(host, "Ann", t.emails[0])
    page = host.get("/games/new")
    page = post_form(
        host,
        form_for(page.text, "/games/new"),
        name="g",
        seats="2",
        move_hours="1",
        reminder_hours="",
    )
    post_form(host, form_for(page.text, "/invite"), emails=t.emails[1])
    invite = t.new_mail(t.emails[1])[-1]
    assert not [u for u in links_in(invite) if "/l/" in u]
    link = next(u for u in links_in(invite) if "/j/" in u)
    fresh = app.test_client()
    page = fresh.get(link.replace("http://localhost", ""), follow_redirects=True)
    assert "sign up" in page.text and "Join seat" not in page.text
    assert "Bob" not in fresh.get("/", follow_redirects=True).text


def test_player_can_revoke_their_links(table):
    from web_helpers import form_for, post_form

    seat, client, page, mail = current_turn(table)
    page = post_form(client, form_for(page.text, "/new-link"))
    assert "old links no longer work" in page.text
    assert table.app.test_client().get(seat_link(mail)).status_code == 410
    (fresh,) = [
        m
        for m in table.new_mail(table.emails[seat])
        if "new link" in m.get_body(("plain",)).get_content()
    ]
    page = table.app.test_client().get(seat_link(fresh), follow_redirects=True)
    assert move_form(page.text) is not None

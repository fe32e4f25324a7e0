"""The online server's lobby commands by mail: /join N, /option
VALUE, /start, answering the invitation and the lobby's own mails."""

from __future__ import annotations

import pytest
from reply_helpers import body_of, inbound, reply_app, reply_to, send, write_reply
from web_helpers import form_for, post_form, signup

from server.db import db
from server.models import Game


@pytest.fixture
def rapp(db_url, smtp, tmp_path):
    return reply_app(db_url, smtp, tmp_path)


def fresh(smtp, send_mail, app, email, seen):
    send_mail(app)
    mails = smtp.to(email)
    new, seen[email] = mails[seen.get(email, 0) :], len(mails)
    return new


def open_game(app, smtp, send_mail, seen) -> int:
    host = app.test_client()
    signup(host, "Host", "host@example.org")
    page = host.get("/games/new?kind=puerto_rico")
    page = post_form(
        host,
        form_for(page.text, "/games/new"),
        name="By mail",
        kind="puerto_rico",
        seats="2",
        move_hours="48",
        reminder_hours="24",
    )
    game_id = int(page.request.path.split("/")[2])
    post_form(host, form_for(page.text, "/invite"), emails="guest@example.org")
    fresh(smtp, send_mail, app, "host@example.org", seen)
    return game_id


def test_join_option_and_start_by_mail(rapp, smtp, send_mail, receiver):
    seen = {}
    game_id = open_game(rapp, smtp, send_mail, seen)
    (invitation,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    assert reply_to(invitation).startswith("play+") and "/join N" in body_of(invitation)

    # Without an account the address is not taken, and not answered (issue
    # 24: the site mails confirmed account addresses only).
    send(receiver.port, write_reply(invitation, "guest@example.org", "/join 2"))
    assert fresh(smtp, send_mail, rapp, "guest@example.org", seen) == []

    signup(rapp.test_client(), "Guest", "guest@example.org")
    fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    send(receiver.port, write_reply(invitation, "guest@example.org", "/join 2", "de"))
    (answer,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    assert "You sit in seat 2." in body_of(answer) and "2. Guest" in body_of(answer)

    # A guest may not start the game; the host may, answering the mail that
    # told them the guest joined.
    send(receiver.port, write_reply(answer, "guest@example.org", "/start"))
    (refused,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    assert "Only the host of this game may do that." in body_of(refused)
    (news,) = fresh(smtp, send_mail, rapp, "host@example.org", seen)
    assert "Guest now sits in seat 2" in body_of(news) and reply_to(news)
    send(receiver.port, write_reply(news, "host@example.org", "/option jumbo"))
    (refused,) = fresh(smtp, send_mail, rapp, "host@example.org", seen)
    assert "no option takes 'jumbo'" in body_of(refused)
    send(receiver.port, write_reply(news, "host@example.org", "/option extension\n/start", "fr"))
    mails = fresh(smtp, send_mail, rapp, "host@example.org", seen)
    text = "\n".join(body_of(m) for m in mails)
    assert "Option buildings is now extended." in text and "The game has started." in text
    with rapp.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        assert game.status == "active" and game.options["buildings"] == "extended"
    statuses = [r.status for r in inbound(rapp)]
    assert statuses == ["ignored", "applied", "refused", "refused", "applied"]
    # Every seat now has its first mail; whoever is to move got the choices.
    mails = fresh(smtp, send_mail, rapp, "guest@example.org", seen) + mails
    assert any("It is your turn in" in body_of(m) and reply_to(m) for m in mails)


def test_leave_by_mail_and_the_host_hears_of_it(rapp, smtp, send_mail, receiver):
    """/leave gives the seat up; the host is told, as of a /join."""
    seen = {}
    game_id = open_game(rapp, smtp, send_mail, seen)
    (invitation,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    signup(rapp.test_client(), "Guest", "guest@example.org")
    fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    send(receiver.port, write_reply(invitation, "guest@example.org", "/join 2"))
    (answer,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    send(receiver.port, write_reply(answer, "guest@example.org", "/leave"))
    (left,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    assert "You left the game." in body_of(left) and "2. (free)" in body_of(left)
    news = [body_of(m) for m in fresh(smtp, send_mail, rapp, "host@example.org", seen)]
    assert any("Guest now sits in seat 2." in n for n in news), news
    assert any("Guest left the game." in n for n in news), news
    send(receiver.port, write_reply(answer, "guest@example.org", "/leave"))
    (refused,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    assert "You have no seat in this game." in body_of(refused)
    with rapp.app_context(), db.connection_context():
        assert Game.get_by_id(game_id).status == "open"


def test_a_forwarded_invitation_seats_nobody_but_the_invited(rapp, smtp, send_mail, receiver):
    """The lobby's reply address is shared by every copy of the invitation:
    at a table not listed among the open games, someone it was forwarded to
    is told to ask the host, and sits nowhere."""
    seen = {}
    game_id = open_game(rapp, smtp, send_mail, seen)
    (invitation,) = fresh(smtp, send_mail, rapp, "guest@example.org", seen)
    with rapp.app_context(), db.connection_context():  # not listed: invitations only
        Game.update(public=False).where(Game.id == game_id).execute()
    signup(rapp.test_client(), "Stranger", "stranger@example.org")
    fresh(smtp, send_mail, rapp, "stranger@example.org", seen)
    send(receiver.port, write_reply(invitation, "stranger@example.org", "/join 2"))
    (refused,) = fresh(smtp, send_mail, rapp, "stranger@example.org", seen)
    assert "ask the host to invite" in body_of(refused)
    assert fresh(smtp, send_mail, rapp, "host@example.org", seen) == []
    with rapp.app_context(), db.connection_context():
        from server.models import Seat

        assert not Seat.select().where((Seat.game == game_id) & (Seat.index == 1)).first().user_id

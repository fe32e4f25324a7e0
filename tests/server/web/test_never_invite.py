"""Every invitation carries a one-click "never invite me here".
Its GET only asks; the POST stops every invitation to the address, from any
host; the host is told only that it could not be invited."""

from __future__ import annotations

import re

from clock_helpers import outbox
from test_mail_limits import invite, open_lobby
from web_helpers import csrf

from server.db import db
from server.models import Invitation, NeverInvite


def never_link(app, address: str) -> str:
    (mail,) = outbox(app, "invite", address)
    (link,) = set(re.findall(r"https?://\S+/mail/never-invite/[\w.-]+", mail.body_text))
    assert link in mail.body_html
    return "/" + link.split("/", 3)[3]


def test_one_click_stops_every_invitation_to_the_address(app):
    host, game_id = open_lobby(app, "nvhost@example.org")
    invite(host, game_id, ["leave.me@example.org"])
    path = never_link(app, "leave.me@example.org")
    visitor = app.test_client()
    asked = visitor.get(path)
    assert asked.status_code == 200 and "Never invite me here" in asked.text
    with app.app_context(), db.connection_context():
        assert NeverInvite.select().count() == 0  # a GET changes nothing
    done = visitor.post(path, data={"csrf_token": csrf(asked.text)})
    assert done.status_code == 200 and "no invitation from this site" in done.text
    assert visitor.post(path).status_code == 200  # RFC 8058: no session, no token; once
    with app.app_context(), db.connection_context():
        assert NeverInvite.select().count() == 1
        assert "leave.me" not in NeverInvite.get().address_hash

    other, other_game = open_lobby(app, "nvother@example.org", "Other")
    page = invite(other, other_game, ["LEAVE.ME@example.org", "friend@example.org"])
    assert "Could not be invited: leave.me@example.org" in page.text
    assert "Sent 1 invitation." in page.text
    assert len(outbox(app, "invite", "leave.me@example.org")) == 1
    with app.app_context(), db.connection_context():
        assert (
            not Invitation.select()
            .where(Invitation.game == other_game)
            .where(Invitation.email == "leave.me@example.org")
            .exists()
        )


def test_a_forged_or_broken_link_is_a_clear_404(app):
    client = app.test_client()
    for path in ("/mail/never-invite/nonsense", "/mail/never-invite/" + "x" * 300):
        assert client.get(path).status_code == 404
        assert client.post(path).status_code == 404
    with app.app_context(), db.connection_context():
        assert NeverInvite.select().count() == 0

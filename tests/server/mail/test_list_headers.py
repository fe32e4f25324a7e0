"""The headers filters and clients read, on every kind of mail: one List-Id
for the site's stream; a one-click List-Unsubscribe only where one click
stops that kind of mail (optional mail; "never invite me" on invitations),
and its POST target takes a provider's POST with no session or CSRF token
but a signed token only, its GET changing nothing; Auto-Submitted says
auto-replied on an answer to the reader's own mail (RFC 3834)."""

from __future__ import annotations

from every_mail import queue_every_kind, site

from server.db import db
from server.mail.compose import INVITE_KINDS, OPTIONAL_KINDS
from server.models import NeverInvite, User

NO_ONE_CLICK = {"turn", "confirm", "reset", "reply_applied", "reply_refused", "reply_lobby"}
ANSWERS = {"reply_applied", "reply_refused", "reply_lobby", "reply_confirm"}
PRIVATE = {"confirm", "reset", "reset_unknown", "account_exists", "address_change",
           "address_notice", "erase_confirm", "export_ready"}  # fmt: skip


def test_list_headers_of_every_kind(tmp_path):
    app, ids = site(tmp_path, "de", MAIL_FROM="Spielserver <pbem@games.example.org>")
    mails = queue_every_kind(app, ids)
    kinds = {row.kind for row in mails}
    assert NO_ONE_CLICK | ANSWERS | {"invite", "reminder", "final", "talk"} <= kinds
    for row in mails:
        headers = row.headers or {}
        one_click = headers.get("List-Unsubscribe", "")
        if row.kind in OPTIONAL_KINDS:
            assert "/mail/unsubscribe/" in one_click, row.kind
        elif row.kind in INVITE_KINDS:  # held invitations come in one mail too
            assert "/mail/never-invite/" in one_click, row.kind
        else:
            assert one_click == "", row.kind
        assert ("List-Unsubscribe-Post" in headers) == bool(one_click), row.kind
        if one_click:
            assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        expected = "auto-replied" if row.kind in ANSWERS else None
        assert headers.get("Auto-Submitted") == expected, row.kind
        if row.kind in PRIVATE:
            assert "List-Id" not in headers, row.kind
        else:
            assert headers["List-Id"] == "Spielserver <games.pbem.localhost>", row.kind


def test_the_one_click_targets_want_a_signed_token_and_a_post(tmp_path):
    app, ids = site(tmp_path, "en")
    mails = queue_every_kind(app, ids)
    provider = app.test_client()  # a mail provider: no session, no CSRF token
    (invite,) = [row for row in mails if row.kind == "invite"]
    never = invite.headers["List-Unsubscribe"][1:-1].split("127.0.0.1:18010", 1)[1]
    assert provider.get(never).status_code == 200
    assert (
        provider.post(never[:-3] + "xyz", data={"List-Unsubscribe": "One-Click"}).status_code == 404
    )
    with app.app_context(), db.connection_context():
        assert NeverInvite.select().count() == 0  # a GET and a forged token: nothing
    done = provider.post(never, data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    with app.app_context(), db.connection_context():
        assert NeverInvite.select().count() == 1
    reminder = next(row for row in mails if row.kind == "reminder")
    stop = reminder.headers["List-Unsubscribe"][1:-1].split("127.0.0.1:18010", 1)[1]
    assert provider.get(stop).status_code == 200
    with app.app_context(), db.connection_context():
        assert User.get(User.email == reminder.to_addr).optional_mail
    assert provider.post(stop[:-3] + "xyz").status_code == 404
    assert provider.post(stop, data={"List-Unsubscribe": "One-Click"}).status_code == 200
    with app.app_context(), db.connection_context():
        assert not User.get(User.email == reminder.to_addr).optional_mail

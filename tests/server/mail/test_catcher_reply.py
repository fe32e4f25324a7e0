"""The built-in catcher's Reply form: on the embedded default a
caught turn mail can be answered from /dev/mail, as a real SMTP mail to the
reply receiver, so a game plays by replies without any mail client."""

from __future__ import annotations

import re

import pytest
from game_driver import Table
from reply_helpers import inbound, reply_app, start_receiver
from web_helpers import forms

from server.mail.catcher import start as start_catcher


@pytest.fixture
def setup(sqlite_url, smtp, send_mail, tmp_path):
    catcher_dir = tmp_path / "caught"
    catcher = start_catcher(catcher_dir)
    app = reply_app(sqlite_url, smtp, tmp_path, MAIL_CATCHER_DIR=str(catcher_dir))
    receiver = start_receiver(app)
    app.config["RECEIVER_PORT"] = receiver.port
    table = Table(app, smtp, send_mail, 2, seed=5)
    table.set_up()
    # From here on the server's mail goes to the catcher.
    app.config["SMTP_PORT"] = catcher.port
    yield app, table, send_mail
    receiver.stop()
    catcher.stop()


def newest_with_reply_form(client):
    """(path, form) of the newest caught mail that has a Reply form."""
    inbox = client.get("/dev/mail/").text
    for path in re.findall(r'href="(/dev/mail/[0-9a-f]{32}\.eml)"', inbox):
        page = client.get(path).text
        found = [f for f in forms(page) if f["action"].endswith("/reply")]
        if found:
            return path, page, found[0]
    raise AssertionError("no caught mail with a Reply form")


def test_replies_from_the_catcher_page_play_the_game(setup):
    app, table, send_mail = setup
    client = app.test_client()
    for turn in range(1, 4):
        send_mail(app)
        path, page, form = newest_with_reply_form(client)
        assert "answer this mail with the number" in page
        response = client.post(form["action"], data=dict(form["fields"], text="1"))
        assert response.status_code == 302
        assert table.game().seq == turn
    rows = inbound(app)
    assert [r.status for r in rows] == ["applied"] * 3
    send_mail(app)
    page = client.get("/dev/mail/").text
    assert page.count("Test table") >= 4  # subjects: "[pbem] Your turn: …, Test table"


def test_the_reply_form_needs_its_csrf_token(setup):
    app, table, send_mail = setup
    client = app.test_client()
    send_mail(app)
    path, page, form = newest_with_reply_form(client)
    response = client.post(form["action"], data={"text": "1"})
    assert response.status_code == 400
    assert table.game().seq == 0 and inbound(app) == []

"""A second sign-up with an address that is not yet confirmed never changes
that account's name or password; it only sends the confirmation mail again."""

from __future__ import annotations

from web_helpers import csrf
from werkzeug.security import check_password_hash

from server.db import db
from server.models import Outbox, User


def sign_up(client, name: str, password: str):
    page = client.get("/signup")
    answer = client.post(
        "/signup",
        data={
            "csrf_token": csrf(page.text),
            "name": name,
            "email": "owner@example.org",
            "password": password,
        },
    )
    assert "Check your mail" in answer.text, answer.text


def test_a_second_sign_up_leaves_an_unconfirmed_account_alone(app):
    sign_up(app.test_client(), "Owner", "first password here")
    with app.app_context(), db.connection_context():
        first = User.get(User.email == "owner@example.org")
    sign_up(app.test_client(), "Intruder", "second password here")
    with app.app_context(), db.connection_context():
        after = User.get(User.email == "owner@example.org")
        mails = Outbox.select().where(Outbox.to_addr == "owner@example.org").count()
    assert after.name == "Owner"
    assert after.password_hash == first.password_hash
    assert check_password_hash(after.password_hash, "first password here")
    assert after.session_token == first.session_token  # the first mail's link still works
    assert after.email_verified_at is None
    assert mails == 2  # the confirmation went again

"""An API token is a way into the account like a browser session: signing
out on every device, a new password and a new address end it too, and the
Settings page says so before the button."""

from __future__ import annotations

from api_helpers import bearer
from web_helpers import csrf, form_for, post_form
from werkzeug.security import generate_password_hash

from server.db import db
from server.models import User, utcnow
from server.services import accounts, api_tokens

PASSWORD = "old password 1"


def account_with_token(app) -> tuple[int, str]:
    with app.app_context(), db.connection_context():
        user = User.create(
            email="tok@example.org",
            name="Tok",
            password_hash=generate_password_hash(PASSWORD),
            email_verified_at=utcnow(),
        )
        _, token = api_tokens.create(user, "my bot", ["read", "play"], 30)
    return user.id, token


def signed_in(app):
    client = app.test_client()
    page = client.get("/login")
    client.post(
        "/login",
        data={"csrf_token": csrf(page.text), "email": "tok@example.org", "password": PASSWORD},
    )
    return client


def works(client, token: str) -> bool:
    return client.get("/api/v1/me", headers=bearer(token)).status_code == 200


def test_signing_out_on_every_device_ends_the_api_tokens(app):
    _, token = account_with_token(app)
    client = signed_in(app)
    assert works(client, token)
    page = client.get("/account")
    assert "also ends your API tokens" in page.text
    post_form(client, form_for(page.text, "/logout-everywhere"))
    assert not works(app.test_client(), token)


def test_a_new_password_ends_the_api_tokens(app):
    _, token = account_with_token(app)
    client = signed_in(app)
    page = client.get("/account")
    form = form_for(page.text, "/account/password")
    fields = {name: "new password 22" for name in form["fields"] if "password" in name}
    post_form(client, form, current=PASSWORD, **fields)
    with app.app_context(), db.connection_context():
        assert accounts.authenticate("tok@example.org", "new password 22") is not None
    assert not works(app.test_client(), token)


def test_a_new_address_ends_the_api_tokens_and_another_accounts_stay(app):
    user_id, token = account_with_token(app)
    with app.app_context(), db.connection_context():
        other = User.create(email="o@example.org", name="O", password_hash="!")
        _, others = api_tokens.create(other, "theirs", ["read"], 30)
        accounts.change_address(User.get_by_id(user_id), "new@example.org")
    client = app.test_client()
    assert not works(client, token)
    assert works(client, others)


def test_made_up_tokens_are_limited_per_client_without_a_row_each(sqlite_url, smtp, tmp_path):
    """Guessing tokens: the client is refused once over the limit, before any
    token is looked up (a good token from it too, until the window ends),
    and the guesses leave one count per client address, not one per token."""
    from conftest import make_app

    from server.models import RateCount

    app = make_app(sqlite_url, smtp, tmp_path, RATELIMIT_API_AUTH_FAILURES="5 per minute")
    _, good = account_with_token(app)
    client = app.test_client()
    answers = [
        client.get("/api/v1/me", headers=bearer(f"pbem_guess{i}")).status_code for i in range(40)
    ]
    assert answers[:5] == [401] * 5 and set(answers[5:]) == {429}
    refused = client.get("/api/v1/me", headers=bearer(good))
    assert refused.status_code == 429
    assert refused.content_type == "application/problem+json"
    assert "valid token" in refused.get_json()["detail"]
    other_client = client.get(
        "/api/v1/me", headers=bearer(good), environ_base={"REMOTE_ADDR": "10.1.2.3"}
    )
    assert other_client.status_code == 200
    with app.app_context(), db.connection_context():
        assert RateCount.select().count() <= 4  # per window and client, not per guess

"""Sign-in limits that a stranger cannot turn against the owner: failed attempts count per client, per client and address, and per
address only from browsers that never signed in to it; and the counts are
shared by every web worker by default (the site's database), with a warning
when a store counts per process."""

from __future__ import annotations

import logging
import os

from conftest import make_app
from test_rate_limits import login_once, two_workers
from web_helpers import csrf, signup

OWNER = "ann@example.org"


def client_at(app, address: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def attempt(client, password: str, email: str = OWNER):
    page = client.get("/login")
    return client.post(
        "/login", data={"csrf_token": csrf(page.text), "email": email, "password": password}
    )


def test_five_wrong_passwords_do_not_lock_the_owner_out(db_url, smtp, tmp_path):
    # The default figures, per hour rather than per minute: a slow machine
    # must not see a minute's window end halfway through.
    app = make_app(
        db_url,
        smtp,
        tmp_path,
        RATELIMIT_SIGNIN_PER_CLIENT="20 per hour",
        RATELIMIT_SIGNIN_PER_CLIENT_ADDRESS="5 per hour",
    )
    owner = client_at(app, "192.0.2.10")
    signup(owner, "Ann", OWNER)  # signed in: a known browser
    owner.post("/logout", data={"csrf_token": csrf(owner.get("/").text)})
    attacker = client_at(app, "203.0.113.66")
    assert [attempt(attacker, f"guess {i}").status_code for i in range(5)] == [400] * 5
    assert attempt(owner, "correct horse").status_code == 302
    # A browser of the owner's that never signed in gets in too.
    assert attempt(client_at(app, "192.0.2.10"), "correct horse").status_code == 302
    # The attacker's own client is held up after five for this address.
    assert attempt(attacker, "guess 6").status_code == 429


def test_many_clients_guessing_one_address_stop_but_the_owners_browser_does_not(
    sqlite_url, smtp, tmp_path
):
    app = make_app(sqlite_url, smtp, tmp_path, RATELIMIT_SIGNIN_PER_ADDRESS="3 per hour")
    owner = client_at(app, "192.0.2.10")
    signup(owner, "Ann", OWNER)
    owner.post("/logout", data={"csrf_token": csrf(owner.get("/").text)})
    codes = [attempt(client_at(app, f"203.0.113.{i}"), "guess").status_code for i in range(4)]
    assert codes == [400, 400, 400, 429]
    assert attempt(client_at(app, "198.51.100.1"), "correct horse").status_code == 429
    assert attempt(owner, "correct horse").status_code == 302


def test_signing_in_right_is_not_counted(sqlite_url, smtp, tmp_path):
    app = make_app(
        sqlite_url,
        smtp,
        tmp_path,
        RATELIMIT_SIGNIN_PER_CLIENT="2 per hour",
        RATELIMIT_SIGNIN_PER_CLIENT_ADDRESS="2 per hour",
        RATELIMIT_SIGNIN_PER_ADDRESS="2 per hour",
    )
    owner = client_at(app, "192.0.2.10")
    signup(owner, "Ann", OWNER)
    for _ in range(4):
        owner.post("/logout", data={"csrf_token": csrf(owner.get("/").text)})
        assert attempt(owner, "correct horse").status_code == 302


def test_a_forged_known_browser_cookie_counts_for_nothing(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path, RATELIMIT_SIGNIN_PER_ADDRESS="2 per hour")
    signup(app.test_client(), "Ann", OWNER)
    codes = []
    for i in range(3):
        client = client_at(app, f"203.0.113.{i}")
        client.set_cookie("pbem_known", "WyJhYmMiXQ.forged", domain="localhost")
        codes.append(attempt(client, "guess").status_code)
    assert codes == [400, 400, 429]


def test_a_per_process_store_is_announced(sqlite_url, smtp, tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="pbem.web"):
        make_app(sqlite_url, smtp, tmp_path, RATELIMIT_STORAGE_URI="memory://")
    assert "counts in each process apart" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="pbem.web"):
        make_app(sqlite_url, smtp, tmp_path / "b")
    assert "counts in each process apart" not in caplog.text


def test_two_workers_share_one_count_by_default(db_url, tmp_path):
    """gunicorn with two workers and no RATELIMIT_STORAGE_URI: the limit holds
    across both, counted in the site's database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATELIMIT_")}
    env.update(DATABASE_URL=db_url, RATELIMIT_SIGNIN_PER_ADDRESS="4 per hour")
    with two_workers(env, tmp_path) as base:
        codes = [login_once(base, OWNER) for _ in range(8)]
    assert codes == [400] * 4 + [429] * 4, codes

"""Once, every form failed over HTTPS.  Behind nginx over TLS the site
sent ``Referrer-Policy: no-referrer``, so Chromium sent no Referer, and
Flask-WTF's https check (WTF_CSRF_SSL_STRICT, kept on) refused every POST
with "This form is out of date".

Here the guide's deployment (docs/operators/deploy.md) runs for real (tests/server/https_site.py):
Debian's nginx with the shipped deploy/pbem-nginx.conf and a certificate
made for the test, in front of ``pbem web`` (gunicorn) and ``pbem sender``
with deploy/env.example's settings.  Chromium signs up (confirming from
the mail), signs in, moves, and a moderator pauses the game, all over
https.  Then the CSRF check is shown still to refuse a cross-origin POST,
and the forwarded headers a client forges to be ignored."""

from __future__ import annotations

import gzip
import re
import ssl
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from browser_helpers import fill_sign_up, shows
from conftest import Inbox, free_port
from https_site import DEPLOY, PBEM, https_site

from server import envfile

pytestmark = pytest.mark.browser
PASSWORD = "correct horse battery"
OUT_OF_DATE = "This form is out of date"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    folder = tmp_path_factory.mktemp("https")
    try:
        # A low limit, so that forged client addresses show (the last test).
        with https_site(folder, controller.port, RATELIMIT_SIGNIN_PER_CLIENT="6 per minute") as (
            base,
            env,
        ):
            yield base, env, inbox
    finally:
        controller.stop()


def mail_link(inbox: Inbox, email: str, part: str, seconds: float = 30) -> str:
    """The newest link containing ``part`` in a mail to ``email``, once the
    sender process has delivered it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        links = [
            link
            for msg in inbox.to(email)
            for link in re.findall(r"https://\S+", msg.get_body(("plain",)).get_content())
            if part in link
        ]
        if links:
            return links[-1]
        time.sleep(0.2)
    raise AssertionError(f"no mail with {part} for {email}")


def confirm(page, inbox: Inbox, email: str) -> None:
    page.goto(mail_link(inbox, email, "/confirm/"))
    page.get_by_role("button", name="Yes, confirm and sign in").click()
    shows(page, "Your address is confirmed")


def test_sign_up_sign_in_move_and_moderate_over_https(site, browser):
    base, env, inbox = site
    ann = browser.new_context(ignore_https_errors=True).new_page()
    ann.goto(f"{base}/signup")
    fill_sign_up(ann, "Ann", "ann@example.org", PASSWORD)
    confirm(ann, inbox, "ann@example.org")
    ann.get_by_role("link", name="New game").click()
    ann.fill("#name", "Over https")
    ann.fill("#seats", "2")
    ann.get_by_role("button", name="Create the game").click()
    game_id = re.search(r"/games/(\d+)", ann.url).group(1)
    ann.fill("#emails", "bob@example.org")
    ann.get_by_role("button", name="Send invitations").click()
    shows(ann, "Sent 1 invitation")

    bob_context = browser.new_context(ignore_https_errors=True)
    bob = bob_context.new_page()
    bob.goto(mail_link(inbox, "bob@example.org", "/j/"))
    bob.get_by_role("link", name="sign up", exact=True).click()
    fill_sign_up(bob, "Bob", "bob@example.org", PASSWORD)
    confirm(bob, inbox, "bob@example.org")
    bob.get_by_role("button", name="Join seat 2").click()
    shows(bob, "You sit in seat 2")
    bob.get_by_role("button", name="Sign out").click()
    bob.goto(f"{base}/login")
    bob.fill("#email", "bob@example.org")
    bob.fill("#password", PASSWORD)
    bob.get_by_role("button", name="Sign in").click()
    shows(bob, "Bob")

    ann.reload()
    ann.get_by_role("button", name="Start the game").click()
    shows(ann, "The game has started")
    pages = [ann, bob]
    for page in pages:
        page.goto(f"{base}/games/{game_id}")
    (mover,) = [page for page in pages if page.locator("#move button").count()]
    mover.locator("#move button").first.click()
    shows(mover, "What happened")

    made = subprocess.run(
        [str(PBEM), "make-moderator", "ann@example.org"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    ann.goto(f"{base}/moderation/games/{game_id}")
    ann.fill("#pause-reason", "A break over https")
    ann.get_by_role("button", name="Pause the game").click()
    shows(ann, "The game is paused")
    assert OUT_OF_DATE not in ann.content() + bob.content()


class Client:
    """Cookies and forms over https (the test's own certificate)."""

    def __init__(self, base: str):
        self.base = base
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=context),
            urllib.request.HTTPCookieProcessor(CookieJar()),
        )

    def token(self) -> str:
        with self.opener.open(f"{self.base}/login", timeout=20) as resp:
            assert resp.headers["Referrer-Policy"] == "same-origin"
            return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', resp.read().decode()).group(
                1
            )

    def sign_in(self, email: str, headers: dict) -> tuple[int, str]:
        data = urllib.parse.urlencode(
            {"csrf_token": self.token(), "email": email, "password": "wrong"}
        ).encode()
        request = urllib.request.Request(f"{self.base}/login", data=data, headers=headers)
        try:
            with self.opener.open(request, timeout=20) as resp:
                return resp.status, resp.read().decode()
        except urllib.error.HTTPError as exc:
            with exc:
                return exc.code, exc.read().decode(errors="replace")


def test_csrf_still_refuses_a_post_from_another_origin(site):
    base, _, _ = site
    client = Client(base)
    # The same origin: the form is read (the password is wrong, but no
    # "out of date").
    status, page = client.sign_in("carol@example.org", {"Referer": f"{base}/login"})
    assert status == 400 and OUT_OF_DATE not in page and "wrong" in page.lower()
    refused = {
        "no Referer": {},
        "another site": {"Referer": "https://evil.example/login"},
        # Not trusted, and nginx drops it: the app's idea of its host stays.
        "another site, its own host forwarded": {
            "Referer": "https://evil.example/login",
            "X-Forwarded-Host": "evil.example",
        },
        # nginx writes the scheme anew: the app still knows it is https
        # (on http it would not ask for a Referer at all).
        "no Referer, claiming http": {"X-Forwarded-Proto": "http"},
    }
    for what, headers in refused.items():
        status, page = client.sign_in("carol@example.org", headers)
        assert status == 400 and OUT_OF_DATE in page, what


def test_the_shipped_proxy_sets_exactly_the_forwarded_headers_the_app_trusts():
    trusted = {
        name.removeprefix("PROXY_FIX_X_")
        for name, value in envfile.read(DEPLOY / "env.example").items()
        if name.startswith("PROXY_FIX_X_") and value != "0"
    }
    site = Path(DEPLOY / "pbem-nginx.conf").read_text()
    written = {
        m.group(1).upper()
        for m in re.finditer(r"proxy_set_header\s+X-Forwarded-(\w+)\s+\$\w+;", site)
    }
    dropped = {
        m.group(1).upper() for m in re.finditer(r'proxy_set_header\s+X-Forwarded-(\w+)\s+"";', site)
    }
    assert trusted == written == {"FOR", "PROTO"}
    assert {"HOST", "PORT", "PREFIX"} <= dropped


def test_a_forged_client_address_does_not_escape_the_rate_limit(site):
    """The sign-in limit (6 a minute here) counts the address nginx saw,
    whatever X-Forwarded-For the client sends."""
    base, _, _ = site
    codes = [
        Client(base).sign_in(
            f"forger{n}@example.org",
            {"Referer": f"{base}/login", "X-Forwarded-For": f"203.0.113.{n}"},
        )[0]
        for n in range(8)
    ]
    assert 429 in codes, codes


def test_answers_come_compressed_through_nginx_but_not_those_that_echo_input(site):
    """pbem compresses (gzip here) and nginx passes it on; a page that may
    echo a visitor's input beside the form token stays plain, though
    nginx's gzip is on at the http level as on Debian (BREACH)."""
    base, _, _ = site
    client = Client(base)
    token = re.compile(r'name="csrf_token"[^>]*value="[^"]*"')

    def get(path: str, encoding: str | None):
        headers = {"Accept-Encoding": encoding} if encoding else {}
        request = urllib.request.Request(base + path, headers=headers)
        with client.opener.open(request, timeout=20) as resp:
            return resp.headers, resp.read()

    for path in ("/login", "/static/pbem.css"):
        _, plain = get(path, None)
        headers, packed = get(path, "gzip")
        assert headers["Content-Encoding"] == "gzip", path
        body = gzip.decompress(packed).decode()
        assert token.sub("", body) == token.sub("", plain.decode()), path
    headers, _ = get("/login?next=/guess", "gzip")
    assert "Content-Encoding" not in headers


def test_static_files_keep_their_cache_rules_through_nginx(site):
    """The stylesheet's hashed address is kept a year, the bare one asked
    again: nginx passes pbem's Cache-Control as it is (web/static_files.py)."""
    base, _, _ = site
    client = Client(base)
    with client.opener.open(base + "/login", timeout=20) as resp:
        page = resp.read().decode()
    hashed = re.search(r'href="(/static/pbem\.css\?v=[0-9a-f]+)"', page)
    assert hashed, "no hashed stylesheet link"
    with client.opener.open(base + hashed[1], timeout=20) as resp:
        assert resp.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert "Expires" not in resp.headers
    with client.opener.open(base + "/static/pbem.css", timeout=20) as resp:
        assert resp.headers["Cache-Control"] == "no-cache"

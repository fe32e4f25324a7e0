"""Transport and headers: cookies are Secure exactly when
PUBLIC_BASE_URL is https, every response carries a CSP without inline script
or style and the other protective headers, a body over MAX_CONTENT_LENGTH is
a 413 without being read, and ProxyFix trusts X-Forwarded-* only when told."""

from __future__ import annotations

import io
import re
import socket
import threading
import uuid
from email.message import EmailMessage
from pathlib import Path

import pytest
from browser_helpers import shows
from conftest import make_app
from flask import request
from web_helpers import csrf
from werkzeug.serving import make_server

from server import create_app
from server.db import migrate
from server.web.protection import CSP

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = [
    *(ROOT / "server/web/templates").rglob("*.html"),
    *(ROOT / "server/mail/templates").rglob("*.html"),
]
# A script element is allowed only empty, loading a file of this site
# (static/timezone.js): the CSP allows 'self' and nothing inline.
OWN_SCRIPT = (
    r""" src="(?:/static/|\{\{ url_for\('static', filename=')[\w.]+"""
    r"""(?:'\) \}\})?" defer></script>"""
)
INLINE = re.compile(
    r"<script(?!" + OWN_SCRIPT + r")|<style|\sstyle\s*=|\son[a-z]+\s*=|javascript:", re.IGNORECASE
)
EXPECTED = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}


def bare_app(tmp_path, sqlite_url, **config):
    app = create_app(
        {
            "DATABASE_URL": sqlite_url,
            "INSTANCE_PATH": str(tmp_path / "i"),
            "SECRET_KEY": "x",
            **config,
        }
    )
    migrate()
    return app


def assert_protected(resp):
    for name, value in EXPECTED.items():
        assert resp.headers.get(name) == value, (resp.request.path, name)


# -- headers ------------------------------------------------------------------------
def test_the_policy_allows_only_own_script_files_and_no_framing():
    """The site's own script files (the sign-up form's time zone),
    never inline script."""
    parts = dict(p.strip().split(" ", 1) for p in CSP.split(";"))
    assert parts == {
        "default-src": "'none'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data:",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
        "base-uri": "'none'",
    }


def test_every_kind_of_response_carries_the_headers(table):
    client, signed_out = table.clients[0], table.app.test_client()
    responses = [
        client.get("/"),
        client.get(f"/games/{table.game_id}"),
        client.get("/settings"),
        client.get("/moderation"),
        client.get("/nowhere"),
        client.get("/s/garbage"),
        client.post("/logout", data={}),  # CSRF refused: 400
        client.get("/static/pbem.css"),
        signed_out.get("/"),
        signed_out.get("/login"),
        signed_out.get(f"/games/{table.game_id}"),  # redirect to sign in
        signed_out.post("/login", data="x" * 70_000, content_type="text/plain"),
    ]
    assert {r.status_code for r in responses} >= {200, 302, 400, 404, 413}
    for resp in responses:
        assert_protected(resp)
        resp.close()  # the stylesheet is a file, streamed


def test_an_unexpected_error_page_carries_the_headers(tmp_path, sqlite_url):
    app = bare_app(tmp_path, sqlite_url)

    def boom():
        raise RuntimeError("boom")

    app.add_url_rule("/boom", view_func=boom)
    resp = app.test_client().get("/boom")
    assert resp.status_code == 500
    assert_protected(resp)


def test_the_stylesheet_is_served_from_this_site(sqlite_app):
    client = sqlite_app.test_client()
    page = client.get("/login").text
    assert re.search(r'<link rel="stylesheet" href="/static/pbem\.css\?v=[0-9a-f]+">', page)
    with client.get("/static/pbem.css") as css:
        assert css.status_code == 200 and css.mimetype == "text/css"
        assert ".choices button" in css.text and ".mail-html" in css.text


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_has_inline_script_or_style(path):
    """The CSP would block them: the pages must need none."""
    assert not INLINE.search(path.read_text()), INLINE.search(path.read_text()).group(0)


def test_rendered_pages_have_no_inline_script_or_style(table):
    client = table.clients[0]
    for path in (
        "/",
        f"/games/{table.game_id}",
        "/settings",
        f"/moderation/games/{table.game_id}",
        "/moderation",
        "/games/new",
        "/account",
    ):
        resp = client.get(path)
        assert resp.status_code == 200, path
        assert not INLINE.search(resp.text), (path, INLINE.search(resp.text).group(0))


# -- cookies ---------------------------------------------------------------------------
def session_cookie(app, base_url: str) -> str:
    """The cookie the sign-in page sets (it keeps the form's CSRF token)."""
    return app.test_client().get("/login", base_url=base_url).headers["Set-Cookie"]


@pytest.mark.parametrize("base", ["https://pbem.example.org", "HTTPS://pbem.example.org:8443/"])
def test_cookies_are_secure_whenever_the_public_address_is_https(tmp_path, sqlite_url, base):
    # Even when told otherwise: https means Secure, always.
    app = bare_app(
        tmp_path,
        sqlite_url,
        PUBLIC_BASE_URL=base,
        SESSION_COOKIE_SECURE=False,
        REMEMBER_COOKIE_SECURE=False,
    )
    assert app.config["SESSION_COOKIE_SECURE"] and app.config["REMEMBER_COOKIE_SECURE"]
    cookie = session_cookie(app, "https://pbem.example.org")
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_cookies_are_not_secure_on_plain_http(tmp_path, sqlite_url):
    """The loopback setup (serve.sh) is plain http: a Secure cookie would never
    come back, so signing in would silently not stick."""
    app = bare_app(tmp_path, sqlite_url, PUBLIC_BASE_URL="http://127.0.0.1:5000")
    assert not app.config["SESSION_COOKIE_SECURE"] and not app.config["REMEMBER_COOKIE_SECURE"]
    cookie = session_cookie(app, "http://127.0.0.1:5000")
    assert "Secure" not in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_serve_no_longer_sets_cookie_security_itself():
    text = (ROOT / "server/processes/serve.py").read_text()
    assert "COOKIE_SECURE" not in text


# -- body size ------------------------------------------------------------------------
class CountingStream(io.RawIOBase):
    """A request body of ``size`` bytes that counts how much of it is read
    (seekable only because the test client measures it that way)."""

    def __init__(self, size: int):
        self.size, self.pos, self.read_bytes = size, 0, 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.pos

    def seek(self, offset, whence=io.SEEK_SET):
        self.pos = {io.SEEK_SET: 0, io.SEEK_CUR: self.pos, io.SEEK_END: self.size}[whence] + offset
        return self.pos

    def readinto(self, buffer):
        n = min(len(buffer), self.size - self.pos)
        buffer[:n] = b"a" * n
        self.pos += n
        self.read_bytes += n
        return n


FIFTY_MB = 50 * 1024 * 1024


@pytest.mark.parametrize(
    "content_type",
    ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"],
)
def test_a_50_mb_body_is_refused_unread(table, content_type):
    assert table.app.config["MAX_CONTENT_LENGTH"] == 64 * 1024
    for client, path in (
        (table.app.test_client(), "/login"),
        (table.clients[0], f"/games/{table.game_id}/move"),
    ):
        body = CountingStream(FIFTY_MB)
        resp = client.post(path, input_stream=body, content_type=content_type)
        assert resp.request.content_length == FIFTY_MB
        assert resp.status_code == 413, resp.text
        assert "Too large" in resp.text and "it was not read" in resp.text
        assert body.read_bytes == 0


def test_a_form_under_the_limit_is_read(sqlite_app):
    client = sqlite_app.test_client()
    page = client.get("/login")
    resp = client.post(
        "/login",
        data={
            "csrf_token": csrf(page.text),
            "email": "a@example.org",
            "password": "wrong",
            "junk": "j" * 60_000,
        },
    )
    assert resp.status_code == 400 and "Too large" not in resp.text


@pytest.fixture
def served(sqlite_url, smtp, tmp_path):
    """The app on a real HTTP server in a thread; yields (app, port)."""
    server = make_server("127.0.0.1", 0, None, threaded=True)
    app = make_app(
        sqlite_url,
        smtp,
        tmp_path,
        TESTING=False,
        PUBLIC_BASE_URL=f"http://127.0.0.1:{server.server_port}",
    )
    server.app = app
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, server.server_port
    server.shutdown()
    thread.join(5)


def test_a_real_socket_gets_413_before_sending_its_body(served):
    """Over a socket: announce 50 MB, send 1 KB, and the answer comes without
    the server waiting for the rest."""
    _app, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            f"POST /login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {FIFTY_MB}\r\n\r\n".encode()
            + b"a" * 1024
        )
        answer = b""
        while b"</html>" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"Too large" in answer


# -- reverse proxy -----------------------------------------------------------------------
def probe(app):
    app.add_url_rule(
        "/_probe", view_func=lambda: f"{request.scheme} {request.host} {request.remote_addr}"
    )
    return (
        app.test_client()
        .get(
            "/_probe",
            headers={
                "X-Forwarded-For": "203.0.113.9",
                "X-Forwarded-Proto": "https",
                "X-Forwarded-Host": "pbem.example.org",
            },
        )
        .text
    )


def test_forwarded_headers_are_ignored_by_default(tmp_path, sqlite_url):
    assert probe(bare_app(tmp_path, sqlite_url)) == "http localhost 127.0.0.1"


def test_proxy_fix_trusts_the_configured_headers(tmp_path, sqlite_url):
    app = bare_app(tmp_path, sqlite_url, PROXY_FIX_X_FOR=1, PROXY_FIX_X_PROTO=1, PROXY_FIX_X_HOST=1)
    assert probe(app) == "https pbem.example.org 203.0.113.9"


def test_proxy_fix_one_header_at_a_time(tmp_path, sqlite_url):
    assert probe(bare_app(tmp_path, sqlite_url, PROXY_FIX_X_PROTO=1)) == "https localhost 127.0.0.1"


# -- in a real browser ---------------------------------------------------------------------
HTML_MAIL = """<!doctype html><html><head><style>.big { font-size: 40px; }</style></head>
<body style="font-family: sans-serif"><p id="hello" class="big" style="color: rgb(200, 0, 0)">
Hello from the mail</p></body></html>"""


def caught_mail(folder: Path) -> str:
    msg = EmailMessage()
    msg["To"], msg["From"], msg["Subject"] = "ann@example.org", "pbem@localhost", "Styled"
    msg.set_content("Plain words")
    msg.add_alternative(HTML_MAIL, subtype="html")
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{uuid.uuid4().hex}.eml"
    (folder / name).write_bytes(msg.as_bytes())
    return name


@pytest.mark.browser
def test_chromium_shows_styled_pages_and_caught_mail_without_csp_violations(
    sqlite_url, smtp, tmp_path, browser
):
    server = make_server("127.0.0.1", 0, None, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    server.app = app = make_app(
        sqlite_url, smtp, tmp_path, TESTING=False, PUBLIC_BASE_URL=base, MAIL_CATCHER_DIR="caught"
    )
    name = caught_mail(Path(app.instance_path) / "caught")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        page = browser.new_page()
        violations = []
        page.on(
            "console",
            lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
        )
        page.goto(f"{base}/login")
        assert page.evaluate("getComputedStyle(document.body).maxWidth") != "none"
        page.fill("#email", "nobody@example.org")
        page.fill("#password", "wrong password")
        page.get_by_role("button", name="Sign in").click()  # a form post under the CSP
        shows(page, "wrong password")
        page.goto(f"{base}/dev/mail/{name}")
        shows(page, "Plain words")
        hello = page.frame_locator("iframe.mail-html").locator("#hello")
        assert hello.inner_text().strip() == "Hello from the mail"
        assert hello.evaluate("e => getComputedStyle(e).color") == "rgb(200, 0, 0)"
        assert hello.evaluate("e => getComputedStyle(e).fontSize") == "40px"
        assert violations == []
    finally:
        server.shutdown()
        thread.join(5)

"""Hostile headers: any Host header a client sends gets
a page or a 400, never a 500, checked on a real HTTP server (werkzeug's test
client builds its own Host and hides the crash); HSTS on an https site,
unless turned off; /dev/mail exists only where the built-in catcher runs and
answers only this machine."""

from __future__ import annotations

import random
import socket

import pytest
from conftest import make_app, serving

HOSTILE = [
    "a" * 300,
    "a..b",
    "a..b:80",
    ".",
    "..",
    "-a.example",
    "a-.example",
    "a" * 64 + ".example",
    "x:99999",
    "x:0",
    "x:-1",
    "x:abc",
    "x:",
    ":80",
    "é.example",
    "bad host",
    "a/b",
    "xn--a.example",
    "[::1",
    "[::1]x",
    "[nope]:80",
    "x:80:80",
    "a\tb",
    "a" * 250 + ".example.org",
]
GOOD = [
    "localhost",
    "127.0.0.1",
    "127.0.0.1:5000",
    "pbem.example.org",
    "[::1]:8080",
    "pbem.example.org.",
    "xn--bcher-kva.example",
]
PATHS = [
    ("GET", "/"),
    ("GET", "/login"),
    ("GET", "/account"),
    ("GET", "/games/1"),
    ("GET", "/s/not-a-token"),
    ("GET", "/static/pbem.css"),
    ("POST", "/login"),
]


def status(port: int, method: str, path: str, host: bytes) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            f"{method} {path} HTTP/1.1\r\n".encode()
            + b"Host: "
            + host
            + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1])


@pytest.fixture
def served(sqlite_url, smtp, tmp_path):
    with serving(
        lambda base: make_app(sqlite_url, smtp, tmp_path, PUBLIC_BASE_URL=base, TESTING=False)
    ) as (app, base):
        yield app, int(base.rsplit(":", 1)[1])


def test_hostile_hosts_get_400_on_a_real_server(served):
    app, port = served
    for host in HOSTILE:
        for method, path in PATHS:
            assert status(port, method, path, host.encode()) == 400, (host, path)
    assert status(port, "GET", "/", "ü.example".encode("latin-1")) == 400
    assert status(port, "GET", "/", b"") == 400
    for host in GOOD:
        assert status(port, "GET", "/", host.encode()) == 200, host
        assert status(port, "GET", "/account", host.encode()) == 302, host


def test_fuzzed_hosts_never_get_a_500(served):
    from server.web.transport import is_good_host

    app, port = served
    rnd = random.Random(24)
    alphabet = "ab-_.:[]19" + "é/ \x7f"
    for _ in range(300):
        host = "".join(rnd.choice(alphabet) for _ in range(rnd.choice([1, 5, 70, 300])))
        code = status(
            port, rnd.choice(["GET", "POST"]), rnd.choice(PATHS)[1], host.encode("latin-1")
        )
        # The server drops the whitespace around a header value, as HTTP says.
        assert code < 500 and (code == 400 or is_good_host(host.strip(" \t"))), (host, code)


def test_a_forwarded_host_is_checked_too(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path, PROXY_FIX_X_HOST=1)
    client = app.test_client()
    assert client.get("/", headers={"X-Forwarded-Host": "a..b"}).status_code == 400
    assert client.get("/", headers={"X-Forwarded-Host": "pbem.example.org"}).status_code == 200


@pytest.mark.parametrize(
    "settings,expected",
    [
        ({"PUBLIC_BASE_URL": "https://pbem.example.org"}, "max-age=31536000"),
        (
            {"PUBLIC_BASE_URL": "https://pbem.example.org", "HSTS_INCLUDE_SUBDOMAINS": True},
            "max-age=31536000; includeSubDomains",
        ),
        ({"PUBLIC_BASE_URL": "https://pbem.example.org", "HSTS_MAX_AGE": 0}, None),
        ({"PUBLIC_BASE_URL": "http://localhost"}, None),
    ],
)
def test_hsts_follows_the_public_address(sqlite_url, smtp, tmp_path, settings, expected):
    app = make_app(sqlite_url, smtp, tmp_path, **settings)
    response = app.test_client().get("/login", base_url="https://pbem.example.org")
    assert response.headers.get("Strict-Transport-Security") == expected


def dev_mail(app, remote: str = "127.0.0.1", **headers) -> int:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = remote
    return client.get("/dev/mail/", headers=headers).status_code


def test_dev_mail_answers_only_this_machine_where_the_catcher_runs(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path, MAIL_CATCHER_DIR="caught")
    assert dev_mail(app) == 200
    assert dev_mail(app, "::1") == 200
    assert dev_mail(app, "203.0.113.5") == 404
    assert dev_mail(app, **{"X-Forwarded-For": "203.0.113.5"}) == 404
    elsewhere = make_app(
        sqlite_url, smtp, tmp_path / "b", MAIL_CATCHER_DIR="caught", SMTP_HOST="smtp.example.org"
    )
    assert dev_mail(elsewhere) == 404
    assert dev_mail(make_app(sqlite_url, smtp, tmp_path / "c")) == 404

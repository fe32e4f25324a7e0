"""After signing in (or confirming an address) the server goes to ``next``
only when it is a path on this site; anything doubtful goes home, and none of
it ends in a 500 after the sign-in already happened."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from web_helpers import csrf, queued_link, signup

from server.mail.links import safe_next

# Each would leave the site in some browser, or break the Location header.
BYPASSES = [
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "\\/evil.example",
    "https://evil.example",
    "https:evil.example",
    "http:/evil.example",
    "javascript:alert(1)",
    "evil.example",
    "games/3",
    "",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    " //evil.example",
    "/ /evil.example",
    "/games/1\r\nSet-Cookie: x=1",
    "/games\r\n",
    "/\x00/evil.example",
    "/\x7f/evil.example",
    "/\x0b/evil.example",
    "/\x0c/evil.example",
    "/\uff0fevil.example",
    "/\u2215evil.example",
    "/\u2044evil.example",
    "/\uff3cevil.example",
    "/\u29f8evil.example",
    "\u3000//evil.example",
    "/\u00a0/evil.example",
    "/\u2028/evil.example",
    "/caf\u00e9",
    "/%2F/evil.example",
    "/%2f%2fevil.example",
    "/%5Cevil.example",
    "/%5c/evil.example",
    "/%09/evil.example",
    "/%0a/evil.example",
    "/%0D%0A/evil.example",
    "/%00",
    "/%20/evil.example",
    "/%EF%BC%8Fevil.example",
    "/%C0%AF/evil.example",
    "/%E2%88%95evil.example",
    "%2F%2Fevil.example",
    "%2Fgames",
    "/" + "a" * 2000,
    None,
    42,
    ["/games"],
    b"/games",
]
NORMAL = [
    "/",
    "/games/3",
    "/games/3?since=4#result",
    "/games/3/lobby",
    "/settings",
    "/games/new?kind=puerto_rico&seats=3",
    "/moderation?sort=idle&order=asc",
    "/games/3?since=4&x=a%2Bb",
    "/s/eyJnIjoxfQ.abc-_.def",
    "/" + "a" * 1999,
]


@pytest.mark.parametrize("target", BYPASSES, ids=repr)
def test_known_bypasses_stay_on_site(target):
    assert safe_next(target) == "/"


@pytest.mark.parametrize("target", NORMAL)
def test_normal_paths_keep_working(target):
    assert safe_next(target) == target


def sign_in(client, next_path: str):
    page = client.get("/login")
    return client.post(
        f"/login?next={quote(next_path, safe='')}",
        data={
            "csrf_token": csrf(page.text),
            "email": "ann@example.org",
            "password": "correct horse",
        },
    )


@pytest.fixture
def signed_out(sqlite_app):
    client = sqlite_app.test_client()
    page = signup(client, "Ann", "ann@example.org")
    client.post("/logout", data={"csrf_token": csrf(page.text)})
    return client


@pytest.mark.parametrize(
    ("target", "location"),
    [
        ("/games/1\r\nSet-Cookie: evil=1", "/"),
        ("/\r\n", "/"),
        ("/\t/evil.example", "/"),
        ("//evil.example", "/"),
        ("/\\evil.example", "/"),
        ("/settings?x=1#y", "/settings?x=1#y"),
    ],
)
def test_sign_in_goes_only_to_a_path_on_this_site(signed_out, target, location):
    """A CR/LF in next made redirect() raise after the user was signed in: a
    500 page saying nothing changed, while the sign-in had happened."""
    resp = sign_in(signed_out, target)
    assert resp.status_code == 302, resp.text
    assert resp.headers["Location"] == location
    assert "evil" not in str(resp.headers)
    assert "Your games" in signed_out.get("/").text


def test_signup_with_a_crlf_next_confirms_and_lands_home(sqlite_app):
    """The next of a sign-up travels in the confirmation link; the link's
    redirect made a 500 after the account was confirmed."""
    client = sqlite_app.test_client()
    page = client.get("/signup")
    resp = client.post(
        "/signup?next=" + quote("/games/1\r\nSet-Cookie: evil=1", safe=""),
        data={
            "csrf_token": csrf(page.text),
            "name": "Bo",
            "email": "bo@example.org",
            "password": "correct horse",
        },
    )
    assert resp.status_code == 200 and "Check your mail" in resp.text
    link = queued_link(sqlite_app, "bo@example.org", "/confirm/")
    resp = client.post(link, data={"csrf_token": csrf(client.get(link).text)})
    assert resp.status_code == 302 and resp.headers["Location"] == "/"
    assert "evil" not in str(resp.headers)

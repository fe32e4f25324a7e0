"""Compressed answers (server/web/compression.py): a browser that accepts
gzip or brotli gets every text answer compressed, and the page it unpacks
is the one sent plain; an HTML answer that could echo a visitor's input
beside the CSRF token (a query string, a posted form) stays plain (BREACH)."""

from __future__ import annotations

import gzip
import re

import brotli
import pytest
from test_security_headers import bare_app

TOKEN = re.compile(r'name="csrf_token"[^>]*value="[^"]*"')


def plain_and_packed(client, path: str, encoding: str):
    plain = client.get(path)
    plain.get_data()
    plain.close()  # a static file is sent as a stream: done with it
    packed = client.get(path, headers={"Accept-Encoding": encoding})
    packed.get_data()
    packed.close()
    assert "Content-Encoding" not in plain.headers
    return plain, packed


@pytest.mark.parametrize("encoding, unpack", [("gzip", gzip.decompress), ("br", brotli.decompress)])
@pytest.mark.parametrize("path", ["/login", "/static/pbem.css", "/api/v1/openapi.json"])
def test_text_answers_are_compressed_and_unpack_to_the_plain_one(
    tmp_path, sqlite_url, path, encoding, unpack
):
    client = bare_app(tmp_path, sqlite_url).test_client()
    plain, packed = plain_and_packed(client, path, encoding)
    assert plain.status_code == packed.status_code == 200, path
    assert packed.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in packed.headers["Vary"]
    body = unpack(packed.get_data())
    assert len(packed.get_data()) < len(body) * 0.7
    # A page's CSRF token is signed anew each second: compare around it.
    assert TOKEN.sub("", body.decode()) == TOKEN.sub("", plain.get_data(as_text=True))


def test_pages_that_may_echo_input_beside_the_token_stay_plain(tmp_path, sqlite_url):
    client = bare_app(tmp_path, sqlite_url).test_client()
    gz = {"Accept-Encoding": "gzip"}
    echoed = client.get("/login?next=/guess-the-token", headers=gz)
    assert echoed.status_code == 200 and "Content-Encoding" not in echoed.headers
    assert "Accept-Encoding" in echoed.headers["Vary"]
    page = client.get("/login", headers=gz)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]*)"', gzip.decompress(page.data).decode())
    posted = client.post(
        "/login",
        data={"csrf_token": token.group(1), "email": "guess@example.org", "password": "x"},
        headers=gz,
    )
    assert posted.mimetype == "text/html" and "Content-Encoding" not in posted.headers

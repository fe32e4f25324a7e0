"""Static files under content-hashed addresses (server/web/static_files.py):
the page links /static/pbem.css?v=<hash>, that address is cached for a year
as immutable, the bare or a stale address answers no-cache, and a changed
file gets a new address without a restart."""

from __future__ import annotations

import hashlib
import re
import shutil

from test_security_headers import bare_app

from server.web.static_files import HASH_LENGTH, IMMUTABLE

LINK = re.compile(r'href="(/static/pbem\.css\?v=([0-9a-f]+))"')


def read(client, path: str):
    response = client.get(path)
    body = response.get_data()
    response.close()  # a static file is sent as a stream
    return response, body


def test_the_page_links_the_stylesheet_by_its_hash_and_that_address_is_kept_a_year(
    tmp_path, sqlite_url
):
    app = bare_app(tmp_path, sqlite_url)
    client = app.test_client()
    page = client.get("/login").get_data(as_text=True)
    found = LINK.search(page)
    assert found, "no hashed stylesheet link"
    css = (app.root_path + "/web/static/pbem.css").replace("//", "/")
    with open(css, "rb") as f:
        plain = f.read()
    assert found[2] == hashlib.sha256(plain).hexdigest()[:HASH_LENGTH]
    hashed, body = read(client, found[1])
    assert hashed.status_code == 200 and body == plain
    assert hashed.headers["Cache-Control"] == IMMUTABLE
    assert "max-age=31536000" in IMMUTABLE and "immutable" in IMMUTABLE
    assert "Expires" not in hashed.headers


def test_the_bare_and_a_stale_address_still_answer_but_are_asked_again(tmp_path, sqlite_url):
    client = bare_app(tmp_path, sqlite_url).test_client()
    for path in ("/static/pbem.css", "/static/pbem.css?v=000000000000"):
        response, body = read(client, path)
        assert response.status_code == 200 and b"body" in body, path
        assert response.headers["Cache-Control"] == "no-cache", path


def test_a_changed_file_gets_a_new_address(tmp_path, sqlite_url):
    app = bare_app(tmp_path, sqlite_url)
    static = tmp_path / "static"
    shutil.copytree(app.static_folder, static)
    app.static_folder = str(static)
    client = app.test_client()
    before = LINK.search(client.get("/login").get_data(as_text=True))[1]
    with open(static / "pbem.css", "a") as f:
        f.write("\n.changed { color: red; }\n")
    after = LINK.search(client.get("/login").get_data(as_text=True))[1]
    assert after != before
    fresh, body = read(client, after)
    assert fresh.headers["Cache-Control"] == IMMUTABLE and b".changed" in body
    # The old address now names content that is gone: served, never kept.
    stale, _ = read(client, before)
    assert stale.headers["Cache-Control"] == "no-cache"


def test_an_unknown_static_file_is_a_plain_404(tmp_path, sqlite_url):
    client = bare_app(tmp_path, sqlite_url).test_client()
    response, _ = read(client, "/static/no-such.css?v=abc")
    assert response.status_code == 404
    response, _ = read(client, "/static/../pbem.css")
    assert response.status_code == 404


def test_addresses_a_visitor_spells_are_not_remembered(tmp_path, sqlite_url):
    """Only the app's own links are remembered: a visitor's many spellings
    of one file must not grow the server's memory."""
    from server.web import static_files

    app = bare_app(tmp_path, sqlite_url)
    client = app.test_client()
    client.get("/login")  # the page's own links
    before = dict(static_files._linked)
    for n in range(1, 30):
        response, _ = read(client, "/static/" + "./" * n + "pbem.css")
        assert response.status_code in (200, 404)
    assert static_files._linked == before

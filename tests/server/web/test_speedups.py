"""The web's speed-ups (server/web/speedups.py) change how fast a page is
made, never what it says: two apps on one database, one with
PBEM_SPEEDUPS=0, serve every page of a game in play byte for byte alike
(but for each form's token, the page's script nonce and links signed at
the second they were made)."""

from __future__ import annotations

import random
import re

from clock_helpers import random_move, sign_in, started_game
from conftest import make_app
from flask import Flask

from server.web import speedups

PER_REQUEST = re.compile(r'(name="[^"]*csrf_token"[^>]*?value|nonce)="[^"]+"')
# A signed link made now (itsdangerous: payload.time.signature) differs by the second.
SIGNED_NOW = re.compile(r"[\w-]+\.[\w-]{6}\.[\w-]{27}")


def same_words(html: str) -> str:
    return SIGNED_NOW.sub("signed", PER_REQUEST.sub(r'\1="…"', html))


def test_every_page_is_the_same_with_the_speedups_off(sqlite_url, smtp, tmp_path):
    fast = make_app(sqlite_url, smtp, tmp_path / "on")
    slow = make_app(sqlite_url, smtp, tmp_path / "off", PBEM_SPEEDUPS=False)
    assert isinstance(fast, speedups.App) and type(slow) is Flask
    assert fast.session_interface is not slow.session_interface
    game = started_game(fast, players=3)
    rnd = random.Random(4)
    for _ in range(9):
        random_move(fast, game.id, rnd)
    paths = [
        "/",
        f"/games/{game.id}",
        f"/games/{game.id}/log",
        f"/games/{game.id}/at/3",
        "/games/open",
        "/games/new",
        "/settings",
        "/account",
        "/archive",
        "/clubs",
        "/leagues",
    ]
    compared, pages = 0, {}
    for email in ("g0@example.org", "g1@example.org"):
        on, off = sign_in(fast, email), sign_in(slow, email)
        for path in paths:
            made, plain = on.get(path), off.get(path)
            assert made.status_code == plain.status_code == 200, path
            assert same_words(made.text) == same_words(plain.text), path
            pages[path] = made.text
            compared += 1
    assert compared == 2 * len(paths)
    # The log links each line to its position: by text with the speed-ups,
    # by the router without, the same links.
    assert f'href="/games/{game.id}/at/' in pages[f"/games/{game.id}/log"]


def test_the_switch_off_leaves_flasks_own_ways(sqlite_url, smtp, tmp_path):
    slow = make_app(sqlite_url, smtp, tmp_path, PBEM_SPEEDUPS=False)
    assert slow.jinja_env.globals["url_for"] is not speedups.page_url_for
    with slow.test_request_context("/"):
        link = speedups.link_maker("records.position", "seq", game_id=4)
        assert link(7) == "/games/4/at/7"

"""Each language's typography on pages, as in mails (server/typography.py,
applied where the catalogs are loaded; English's catalog is its msgids,
polished the same way): no straight "quotes" in what a reader sees, in
English no straight apostrophe in a word (don’t), in French a narrow
no-break space before : ; ! ?.  Every page every_mail.py's site shows
(a game under way, its log and positions, a lobby, a finished game, the
settings, the clubs, leagues and leaderboards, the moderator's pages) is
rendered in each language."""

from __future__ import annotations

import re

import pytest
from clock_helpers import sign_in
from every_mail import site
from pseudo_locale import visible

from server.db import db
from server.models import Game, League, Seat, User

NARROW = "\u202f"
STRAIGHT = re.compile(r'"[^"\n<>]*"')
APOSTROPHE = re.compile(r"[A-Za-z]'[A-Za-z]")
FRENCH_WRONG = re.compile(r"\w[ \u00a0]?[:;!?](?=\s|$)")
# What a page shows as it is, not as text written in a language: addresses,
# a record's plain text (a file to download), times (10:30).
URL = re.compile(r"https?://\S+")


def slips(text: str, code: str) -> list[str]:
    """What in ``text`` (a page's visible words) breaks ``code``'s typography."""
    text = URL.sub(" ", text)
    found = STRAIGHT.findall(text)
    if code == "en":
        found += APOSTROPHE.findall(text)
    if code == "fr":
        found += [m for m in FRENCH_WRONG.findall(text) if NARROW not in m]
    return found


def every_page(app, ids) -> list[tuple[object, str]]:
    """(client, path) for each page of every_mail.py's site, as the people
    who may see it."""
    game_id, lobby_id, ships_id, over_id = ids
    with app.app_context(), db.connection_context():
        to_move = Game.get_by_id(game_id).to_move
        ships_to_move = Game.get_by_id(ships_id).to_move
        league = League.get().id
        host = User.get(User.email == "p0@example.org").id
        lobby_seat = Seat.get((Seat.game == lobby_id) & (Seat.user.is_null(False))).user.email
    player = sign_in(app, f"p{to_move}@example.org")
    visitor = app.test_client()
    moderator = sign_in(app, "mod@example.org")
    return (
        [(visitor, p) for p in ("/", "/login", "/signup", "/reset", "/privacy", "/clubs")]
        + [
            (player, p)
            for p in (
                "/",
                "/games/new",
                "/games/new?kind=new_found_land",
                f"/games/{game_id}",
                f"/games/{game_id}/log",
                f"/games/{game_id}/at/1",
                "/settings",
                "/account",
                "/clubs",
                "/clubs/new",
                "/leagues",
                f"/leagues/{league}",
                "/leaderboard?kind=puerto_rico",
                f"/players/{host}",
                "/archive",
            )
        ]
        + [
            (sign_in(app, lobby_seat), f"/games/{lobby_id}/lobby"),
            (sign_in(app, f"p{ships_to_move}@example.org"), f"/games/{ships_id}"),
            (sign_in(app, "p0@example.org"), f"/games/{over_id}"),
        ]
        + [
            (moderator, p)
            for p in (
                "/moderation",
                f"/moderation/games/{game_id}",
                f"/moderation/games/{over_id}",
                "/moderation/moderators",
            )
        ]
    )


@pytest.fixture(scope="module", params=["en", "fr", "de", "nl"])
def pages(request, tmp_path_factory):
    code = request.param
    app, ids = site(tmp_path_factory.mktemp(f"page-typo-{code}"), code)
    shown = []
    for client, path in every_page(app, ids):
        page = client.get(path, headers={"Accept-Language": code})
        assert page.status_code == 200, (code, path, page.status_code)
        shown.append((path, visible(page.text)))
    return code, shown


def test_every_page_follows_its_languages_typography(pages):
    code, shown = pages
    wrong = {path: sorted(set(found)) for path, text in shown if (found := slips(text, code))}
    assert not wrong, (code, wrong)


def test_the_check_sees_what_it_looks_for():
    assert slips('Press "Start" now', "en") == ['"Start"']
    assert slips("You don't", "en") == ["n't"]
    assert slips("You don’t, “Start” https://x.org/a'b", "en") == []
    assert slips("Tour : 1", "fr") == ["r :"]
    assert slips(f"Tour{NARROW}: 10:30", "fr") == []

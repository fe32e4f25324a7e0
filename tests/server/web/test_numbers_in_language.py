"""Numbers as each language writes them: a profile's ratings, ranks and
signed rating changes, the scores of a finished game and the leaderboard
go through Babel, so a French or German page says "+1,5" and never "1.5"
beside "1,5"."""

from __future__ import annotations

import re

import pytest
from clock_helpers import sign_in, started_game, user
from moderation_helpers import in_db
from test_people_pages import user_id, visible
from test_ratings import play_to_the_end

from server.i18n import ordinal
from server.models import PlayerRating, RatingChange, User
from server.typography import number

# A decimal point between digits, as English writes it: not a date
# ("29.11.2026" in German) and not the footer's version ("pbem 0.2.dev3").
POINT = re.compile(r"(?<![\d.])[+\-−]?\d+\.\d+(?![\d.])")
VERSION = re.compile(r"\bpbem \d\S*")
DECIMAL_COMMA = re.compile(r"\d,\d")
SIGNED_COMMA = re.compile(r"[+\-−]\d+,\d")


def english_decimals(html: str) -> list[str]:
    return POINT.findall(VERSION.sub(" ", visible(html)))


@pytest.fixture
def finished(app):
    game = started_game(app, players=2, kind="new_found_land", tag="nb")
    play_to_the_end(app, game.id, 4)
    assert in_db(app, lambda: RatingChange.select().where(RatingChange.game == game.id).count())
    return game


@pytest.mark.parametrize("code", ["fr", "de"])
def test_profile_scores_and_leaderboard_write_numbers_in_the_readers_language(app, finished, code):
    reader = sign_in(app, "nb0@example.org")
    heard = {"Accept-Language": code}
    profile = reader.get(f"/players/{user_id(app, 'nb0@example.org')}", headers=heard).text
    scores = reader.get(f"/games/{finished.id}", headers=heard).text
    board = reader.get("/leaderboard?kind=new_found_land", headers=heard).text
    assert 'id="scores"' in scores
    for where, page in (("profile", profile), ("scores", scores), ("leaderboard", board)):
        assert not english_decimals(page), (code, where, english_decimals(page))
    # What is checked is there: a rating with its decimal comma, a signed change.
    assert DECIMAL_COMMA.search(visible(profile)) and SIGNED_COMMA.search(visible(profile))
    assert DECIMAL_COMMA.search(visible(board))
    # The place in the game, an ordinal: "1er au classement", "2. Rang".
    placed = {
        "fr": r"\b(1er|2e) au classement, cote [+\-−]\d",
        "de": r"\b[12]\. Rang, Wertung [+\-−]\d",
    }
    assert re.search(placed[code], visible(profile)), visible(profile)


def test_the_check_sees_an_english_decimal():
    assert english_decimals("<td>cote +1.5</td> 29.11.2026 pbem 0.2.dev3") == ["+1.5"]
    assert english_decimals("<td>cote +1,5</td> 10:30") == []


def test_scores_in_a_mail_are_written_as_the_language_writes_numbers():
    assert number(1234.5, "de") == "1.234,5" and number(1234.5, "en") == "1,234.5"
    assert number(2, "fr") == "2" and number("—", "fr") == "—"


# CLDR's ordinal categories (babel's Locale.ordinal_form) pick each form:
# English one 1, 21, 101; two 2, 22; few 3, 23; other 4, 11, 12, 13, 111;
# French one 1, other the rest; German and Dutch other only.
PLACES = (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 1000)
ORDINALS = {
    "en": "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 23rd 101st 111th 1,000th",
    "fr": "1er 2e 3e 4e 11e 12e 13e 21e 22e 23e 101e 111e 1\u202f000e",
    "de": "1. 2. 3. 4. 11. 12. 13. 21. 22. 23. 101. 111. 1.000.",
    "nl": "1e 2e 3e 4e 11e 12e 13e 21e 22e 23e 101e 111e 1.000e",
}


@pytest.mark.parametrize("code", list(ORDINALS))
def test_a_place_is_written_as_its_language_writes_ordinals(code):
    assert [ordinal(n, code) for n in PLACES] == ORDINALS[code].split(" ")
    assert ordinal(None, code) is None  # no place yet: nothing to write


@pytest.mark.parametrize(
    "code, first, second, line",
    [
        ("en", "1st", "2nd", "1st: Bo Berg, 10.5 points"),
        ("fr", "1er", "2e", "1er\u202f: Bo Berg, 10,5 points"),
        ("de", "1.", "2.", "1. Bo Berg, 10,5 Punkte"),
        ("nl", "1e", "2e", "1e: Bo Berg, 10,5 punten"),
    ],
)
def test_the_leaderboard_and_a_league_mail_write_places_as_ordinals(app, code, first, second, line):
    def rate():
        for i, (mu, sigma) in enumerate(((30, 3), (28, 3))):
            rated = user(f"o{i}-{code}@example.org", f"O{i}", language=code)
            PlayerRating.create(user=rated, kind="puerto_rico", mu=mu, sigma=sigma, games=12)

    in_db(app, rate)
    board = sign_in(app, f"o0-{code}@example.org").get("/leaderboard?kind=puerto_rico").text
    assert f"<td>{first}</td>" in board and f"<td>{second}</td>" in board, visible(board)
    mailer = app.extensions["pbem_mailer"]

    def mail():
        reader = User.get(User.email == f"o0-{code}@example.org")
        standings = [
            {"place": 1, "name": "Bo Berg", "points": 10.5, "dropped": False},
            {"place": 2, "name": "Cy Cole", "points": 4.0, "dropped": False},
        ]
        context = {"name": reader.name, "league": "L", "title": "Puerto Rico", "number": 1,
                   "rounds": 2, "what": "ended", "final": True, "table": [], "game_url": "",
                   "standings": standings, "league_url": "http://x/leagues/1"}  # fmt: skip
        return mailer.queue("league_round", reader.email, "League", context, None, reader)

    sent = in_db(app, mail)
    assert line in sent.body_text and f"<li>{line}</li>" in sent.body_html, sent.body_text
    assert f"{second}" in sent.body_text

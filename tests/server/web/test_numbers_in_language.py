"""Numbers as each language writes them: a profile's ratings, ranks and
signed rating changes, the scores of a finished game and the leaderboard
go through Babel, so a French or German page says "+1,5" and never "1.5"
beside "1,5"."""

from __future__ import annotations

import re

import pytest
from clock_helpers import sign_in, started_game
from moderation_helpers import in_db
from test_people_pages import user_id, visible
from test_ratings import play_to_the_end

from server.models import RatingChange
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


def test_the_check_sees_an_english_decimal():
    assert english_decimals("<td>cote +1.5</td> 29.11.2026 pbem 0.2.dev3") == ["+1.5"]
    assert english_decimals("<td>cote +1,5</td> 10:30") == []


def test_scores_in_a_mail_are_written_as_the_language_writes_numbers():
    assert number(1234.5, "de") == "1.234,5" and number(1234.5, "en") == "1,234.5"
    assert number(2, "fr") == "2" and number("—", "fr") == "—"

"""Profiles, the archive of finished games, leaderboards.
A profile shows what its player chose; a game in progress shows by name,
kind and players only; a private game is in no archive and closed to
outsiders; bad input gets 400 or 404.  SQLite and PostgreSQL."""

from __future__ import annotations

import random
import re

from clock_helpers import game_row, random_move, sign_in, started_game, user
from moderation_helpers import in_db
from test_ratings import play_to_the_end
from web_helpers import form_for, post_form

from server.models import Game, PlayerRating, User
from server.services import moderation


def visible(html: str) -> str:
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def user_id(app, email: str) -> int:
    return in_db(app, lambda: User.get(User.email == email).id)


def test_profiles_archive_and_privacy(app):
    # A public finished game, a private abandoned one, a game in progress.
    done = started_game(app, players=2, kind="new_found_land", tag="pd")
    play_to_the_end(app, done.id, 4)
    hidden = started_game(app, players=2, tag="pp")
    mod = in_db(app, lambda: user("mod-pp@example.org", is_moderator=True))
    in_db(app, lambda: Game.update(private=True).where(Game.id == hidden.id).execute())
    seq = game_row(app, hidden.id).seq
    in_db(
        app,
        lambda: moderation.abandon(
            hidden.id, mod, seq, "stop", mailer=app.extensions["pbem_mailer"]
        ),
    )
    going = started_game(app, players=3, tag="pg")
    rnd = random.Random(2)
    for _ in range(6):
        random_move(app, going.id, rnd)
    in_db(app, lambda: user("outsider@example.org", "Olga"))
    olga = sign_in(app, "outsider@example.org")

    archive = olga.get("/archive")
    assert archive.status_code == 200
    assert f'/games/{done.id}"' in archive.text and f'/games/{hidden.id}"' not in archive.text
    assert "PD 1" in archive.text and "PD 2" in archive.text
    assert "(winner)" in archive.text and f"/games/{done.id}/record.txt" in archive.text
    assert "Rated." in archive.text
    assert (
        "Telt mee voor de rating." in olga.get("/archive", headers={"Accept-Language": "nl"}).text
    )
    # The private game's pages are not there for an outsider, but are for its players.
    for path in (
        f"/games/{hidden.id}",
        f"/games/{hidden.id}/record.json",
        f"/games/{hidden.id}/log",
    ):
        assert olga.get(path).status_code == 404, path
        assert sign_in(app, "pp1@example.org").get(path).status_code == 200, path
    # Filters: kind, player, dates.
    assert f'/games/{done.id}"' not in olga.get("/archive?kind=puerto_rico").text
    assert f'/games/{done.id}"' in olga.get("/archive?kind=new_found_land&player=pd 2").text
    assert f'/games/{done.id}"' not in olga.get("/archive?player=nobody").text
    assert f'/games/{done.id}"' not in olga.get("/archive?since=2000-01-01&until=2000-01-02").text

    # Profiles: the finished game with its result, the game in progress by
    # name and players only: nothing of its position.
    page = olga.get(f"/players/{user_id(app, 'pg0@example.org')}")
    assert page.status_code == 200 and "Game pg" in page.text
    words = visible(page.text)
    assert "PG 1, PG 2, PG 3" in words
    state = game_row(app, going.id)
    assert state.prompt not in words and "doubloon" not in words.lower()
    assert "Deadline" not in words and "seat" not in words.lower()
    winner = olga.get(f"/players/{user_id(app, 'pd0@example.org')}").text
    assert f'/games/{done.id}"' in winner and "Ratings" in winner and "provisional" in winner
    # A private game is on its own players' profiles only.
    assert (
        f'/games/{hidden.id}"' not in olga.get(f"/players/{user_id(app, 'pp0@example.org')}").text
    )
    assert (
        f'/games/{hidden.id}"'
        in sign_in(app, "pp0@example.org").get(f"/players/{user_id(app, 'pp0@example.org')}").text
    )

    # The player hides everything: others see only the name.
    pd0 = sign_in(app, "pd0@example.org")
    settings = pd0.get("/settings")
    form = form_for(settings.text, "/settings/profile")
    form["fields"] = {k: v for k, v in form["fields"].items() if not k.startswith("show_")}
    saved = post_form(pd0, form, languages="nl")
    assert saved.status_code == 200 and "Your profile choices are saved" in saved.text
    profile = olga.get(f"/players/{user_id(app, 'pd0@example.org')}").text
    assert f'/games/{done.id}"' not in profile and "Ratings" not in profile
    assert "Nederlands" not in profile and "shows nothing more" in profile
    assert "PD 1" not in visible(olga.get("/leaderboard?kind=new_found_land").text)
    assert f'/games/{done.id}"' not in olga.get("/archive?player=PD 1").text
    own = pd0.get(f"/players/{user_id(app, 'pd0@example.org')}").text
    assert f'/games/{done.id}"' in own and "Ratings" in own and "This is your profile" in own
    # Shown again, with the language.
    form = form_for(pd0.get("/settings").text, "/settings/profile")
    form["fields"] = {k: v for k, v in form["fields"].items() if not k.startswith("show_")}
    post_form(pd0, form, languages="nl", show_languages="y", show_finished="y")
    profile = olga.get(f"/players/{user_id(app, 'pd0@example.org')}").text
    assert "Nederlands" in profile and f'/games/{done.id}"' in profile
    assert "Ratings" not in profile
    # Player names on a game page lead to the profiles.
    assert f'/players/{user_id(app, "pg1@example.org")}"' in olga.get(f"/games/{going.id}").text


def test_the_leaderboard_marks_provisional_ratings(app):
    def rate():
        sure = user("sure@example.org", "Sure")
        new = user("new@example.org", "Newcomer")
        PlayerRating.create(user=sure, kind="puerto_rico", mu=30, sigma=3, games=12)
        PlayerRating.create(user=new, kind="puerto_rico", mu=40, sigma=7.5, games=2)

    in_db(app, rate)
    page = sign_in(app, "sure@example.org").get("/leaderboard?kind=puerto_rico")
    rows = re.findall(
        r"<tr( class=\"provisional\")?><td>(\d+\w*)</td><td><a [^>]*>([^<]+)</a>"
        r"</td><td>([\d.-]+)",
        page.text,
    )
    # Shown: mu - 3 sigma, so the surer player stands first.
    assert [(bool(p), place, name, shown) for p, place, name, shown in rows] == [
        (False, "1st", "Sure", "21.0"),
        (True, "2nd", "Newcomer", "17.5"),
    ]
    assert page.text.count("(provisional)") == 1


def test_bad_input_gets_a_clean_answer(app):
    in_db(app, lambda: user("bad@example.org"))
    client = sign_in(app, "bad@example.org")
    me = user_id(app, "bad@example.org")
    for path, status in [
        ("/players/0", 404),
        (f"/players/{2**63}", 404),
        (f"/players/{10**30}", 404),
        ("/players/abc", 404),
        (f"/players/{me}?page=0", 400),
        (f"/players/{me}?page=9999", 404),
        (f"/players/{me}?page=1²", 400),
        ("/archive?page=" + "9" * 40, 400),
        ("/archive?page=9999", 404),
        ("/archive?kind=../../etc", 400),
        ("/archive?since=2024-13-45", 400),
        ("/archive?until=99999-01-01", 400),
        ("/archive?since=0001-01-01", 400),
        ("/archive?player=%00x", 400),
        ("/archive?player=" + "x" * 41, 400),
        ("/archive?player=%25_%27;--", 200),
        ("/leaderboard?kind=chess", 404),
        ("/leaderboard?page=-1", 400),
        ("/leaderboard?page=50", 404),
    ]:
        assert client.get(path).status_code == status, path
    # Signed out: to the sign-in page.
    assert app.test_client().get("/archive").status_code == 302
    nl = client.get("/archive?kind=nope", headers={"Accept-Language": "nl"})
    assert nl.status_code == 400 and "There is no such game" not in nl.text


def test_the_new_game_form_makes_a_private_game(app):
    in_db(app, lambda: user("host@example.org"))
    host = sign_in(app, "host@example.org")
    made = post_form(
        host,
        form_for(host.get("/games/new").text, "/games/new"),
        name="Quiet one",
        seats="3",
        move_hours="24",
        reminder_hours="",
        visibility="private",
    )
    game_id = int(re.search(r"/games/(\d+)/lobby", made.request.path).group(1))
    assert game_row(app, game_id).private

"""Finding a game.  The open games list shows the open
public lobbies with a free seat (game, options, seats, clock, the table's
language) and joins one with a click; the host hears by mail who joined or
left through the page, and may call off a lobby that has not started (the
players are told, and it leaves the list)."""

from __future__ import annotations

import re

from clock_helpers import sign_in, user
from web_helpers import form_for, post_form, text_of

from server.db import db
from server.models import Game, Seat
from server.services import games


def lobby(app, host, name: str, seats: int = 3, public: bool = True, **extra) -> int:
    with app.app_context(), db.connection_context():
        game = games.create_game(
            host,
            "puerto_rico",
            name,
            seats,
            {},
            48,
            [24],
            app.extensions["pbem_mailer"],
            public=public,
            **extra,
        )
        return game.id


def visible(html: str) -> str:
    """An HTML part's words, one space between them."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def listed(page: str) -> set[str]:
    return set(re.findall(r'id="open-(\d+)"', page))


def test_the_list_joins_and_the_host_hears_of_comings_and_goings(app, smtp, send_mail):
    with app.app_context(), db.connection_context():
        host, ann, bob = (
            user("host@example.org", "Hosta"),
            user("ann@example.org", "Ann"),
            user("bob@example.org", "Bob"),
        )
    # The host makes one through the form: listed, its table speaking Dutch.
    client = sign_in(app, "host@example.org")
    made = post_form(
        client,
        form_for(client.get("/games/new").text, "/games/new"),
        name="Suiker",
        seats="3",
        move_hours="36",
        reminder_hours="",
        public="y",
        language="nl",
    )
    listed_id = int(re.search(r"/games/(\d+)/lobby", made.request.path).group(1))
    assert "Language of the table: Dutch" in made.text
    private = lobby(app, host, "Friends only", public=False)
    full = lobby(app, host, "Full", seats=2)
    started = lobby(app, host, "Running", seats=2)
    with app.app_context(), db.connection_context():
        games.join(full, bob, 1)
        games.join(started, bob, 1)
        games.start(started, host, app.extensions["pbem_mailer"])

    page = app.test_client().get("/games/open")  # anybody may look
    assert page.status_code == 200 and listed(page.text) == {str(listed_id)}
    assert "Suiker" in page.text and "Dutch" in page.text and "Hours per move: 36" in page.text
    assert "2 seats free" in page.text and "Building set: <b>base</b>" in page.text, page.text
    assert "/take-seat" not in page.text  # joining needs an account

    ann_client = sign_in(app, "ann@example.org")
    page = ann_client.get("/games/open")
    joined = post_form(ann_client, form_for(page.text, f"/games/{listed_id}/take-seat"))
    assert "You sit in seat 2." in joined.text and joined.request.path.endswith("/lobby")
    again = post_form(ann_client, form_for(page.text, f"/games/{listed_id}/take-seat"))
    assert "You sit in this game already (seat 2)." in again.text
    left = post_form(ann_client, form_for(joined.text, f"/games/{listed_id}/leave"))
    assert left.status_code == 200
    send_mail(app)
    news = [text_of(m) for m in smtp.to("host@example.org")]
    assert any("Ann now sits in seat 2." in t for t in news), news
    assert any("Ann left the game." in t for t in news), news
    assert "Ann" not in " ".join(text_of(m) for m in smtp.to("bob@example.org"))

    # Refusals say why, and change nothing.
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    for game_id, words in (
        (private, "not among the open games"),
        (full, "Every seat"),
        (started, "already started"),
        (99999, "no such game"),
    ):
        refused = ann_client.post(f"/games/{game_id}/take-seat", data={"csrf_token": token})
        assert refused.status_code in (400, 404) and words in refused.text, game_id
    assert ann_client.post(f"/games/{listed_id}/take-seat").status_code == 400  # no CSRF
    with app.app_context(), db.connection_context():
        assert not Seat.select().where(Seat.user == ann.id).exists()


def test_the_host_calls_off_a_lobby_and_the_players_are_told(app, smtp, send_mail):
    with app.app_context(), db.connection_context():
        host, ann = user("h@example.org", "Hosta"), user("a@example.org", "Ann")
    game_id = lobby(app, host, "Short lived")
    with app.app_context(), db.connection_context():
        games.join(game_id, ann, 1)
    ann_client = sign_in(app, "a@example.org")
    page = ann_client.get(f"/games/{game_id}/lobby")
    assert f"/games/{game_id}/cancel" not in page.text  # the host's only
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    refused = ann_client.post(f"/games/{game_id}/cancel", data={"csrf_token": token})
    assert refused.status_code == 400 and "Only the host" in refused.text

    host_client = sign_in(app, "h@example.org")
    page = host_client.get(f"/games/{game_id}/lobby")
    done = post_form(host_client, form_for(page.text, f"/games/{game_id}/cancel"))
    assert "The game is called off" in done.text
    with app.app_context(), db.connection_context():
        assert Game.get_by_id(game_id).status == "closed"
    assert str(game_id) not in listed(app.test_client().get("/games/open").text)
    send_mail(app)
    (told,) = [m for m in smtp.to("a@example.org")]
    assert "Hosta called off the game \u201cShort lived\u201d" in text_of(told)
    assert smtp.to("h@example.org") == []
    host_token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    again = host_client.post(f"/games/{game_id}/cancel", data={"csrf_token": host_token})
    assert again.status_code == 400 and "closed before it started" in again.text


def test_joining_and_leaving_over_and_over_does_not_flood_the_host(app):
    from clock_helpers import outbox

    from server.services import open_games

    app.config["ANSWERS_PER_ADDRESS_PER_HOUR"] = 3
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        host, pest = user("fh@example.org"), user("pest@example.org")
    game_id = lobby(app, host, "Busy")
    with app.app_context(), db.connection_context():
        for _ in range(4):
            open_games.join_listed(game_id, pest, mailer)
            open_games.leave(game_id, pest, mailer)
    news = outbox(app, "lobby_news", "fh@example.org")
    assert len(news) == 3 and all(m.author_id == pest.id for m in news)


def test_the_list_shows_the_tables_ratings_and_narrows_by_game_and_language(app):
    """The open games list shows game, options, players wanted, clock,
    language and rating range; a newcomer narrows the list to a game and a language."""
    from server.models import PlayerRating

    with app.app_context(), db.connection_context():
        host, rated, fresh = (
            user("rh@example.org", "Rhoda", language="de"),
            user("rr@example.org", "Rory"),
            user("rf@example.org", "Rafe"),
        )
        PlayerRating.create(user=host, kind="puerto_rico", mu=30.0, sigma=3.0, games=12)
        PlayerRating.create(user=rated, kind="puerto_rico", mu=25.0, sigma=5.0, games=8)
        PlayerRating.create(user=rated, kind="new_found_land", mu=40.0, sigma=1.0, games=9)
    german = lobby(app, host, "Zucker", seats=4, language="de")
    dutch = lobby(app, rated, "Suiker", seats=3, language="nl")
    with app.app_context(), db.connection_context():
        games.join(german, rated, 1)
        games.join(german, fresh, 2)
    page = app.test_client().get("/games/open").text
    item = visible(page.split(f'id="open-{german}"')[1].split("</li>")[0])
    # shown = mu - 3 sigma: Rory 10.0, Rhoda 21.0; Rafe has none yet.
    assert "Ratings at the table: 10.0 to 21.0 (and 1 player not rated yet)" in item, item
    item = visible(page.split(f'id="open-{dutch}"')[1].split("</li>")[0])
    assert "Rating at the table: 10.0" in item, item  # his Puerto Rico rating only
    client = app.test_client()
    assert listed(client.get("/games/open?language=de").text) == {str(german)}
    assert listed(client.get("/games/open?language=nl&kind=puerto_rico").text) == {str(dutch)}
    none = client.get("/games/open?kind=new_found_land").text
    assert listed(none) == set() and "No game like that" in none
    for hostile in ("?kind=../../x", "?language=zz-<b>", "?kind=" + "x" * 1000):
        answer = client.get("/games/open" + hostile)
        assert answer.status_code == 200, hostile
        assert {str(german), str(dutch)} <= listed(answer.text), hostile
    assert client.get("/games/open?language=%00").status_code == 400  # the site's guard
    dutch_reader = client.get("/games/open", headers={"Accept-Language": "nl"}).text
    assert "Ratings aan tafel: 10,0 tot 21,0" in dutch_reader  # Babel: a decimal comma

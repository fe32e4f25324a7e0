"""Clubs, through the web client on SQLite and PostgreSQL.
Founding (a name unique whatever its case), joining by invitation link, by
request and directly, roles, leaving and removal on the record, the club's
games, leaderboard and deadlines, its lobbies first in the open games; bad
input gets a clear page and changes nothing."""

from __future__ import annotations

import re

from clock_helpers import sign_in, started_game, user
from moderation_helpers import in_db
from test_people_pages import visible
from web_helpers import csrf, form_for, path_of

from server.models import Club, ClubMember, ClubRecord, ClubRequest, Game, PlayerRating, Seat, User
from server.services import games


def found_club(client, name="Chess Friends", access="public", **extra):
    page = client.get("/clubs/new")
    assert page.status_code == 200
    data = {
        "csrf_token": csrf(page.text),
        "name": name,
        "description": "We play.",
        "access": access,
    }
    data.update(extra)
    return client.post("/clubs/new", data=data)


def counts(app):
    return in_db(
        app,
        lambda: (Club.select().count(), ClubMember.select().count(), ClubRecord.select().count()),
    )


def press(client, page_html: str, action_part: str, **fields):
    """Send the page's form for ``action_part`` (the redirect not followed)."""
    form = form_for(page_html, action_part)
    return client.post(form["action"], data=dict(form["fields"], **fields))


def invitation_link(client, slug: str) -> str:
    page = client.get(f"/clubs/{slug}")
    made = press(client, page.text, f"/clubs/{slug}/invitation")
    assert made.status_code == 200, made.text
    return path_of(re.search(r'id="link"[^>]*value="([^"]+)"', made.text).group(1))


def test_found_invite_join_roles_and_record(app):
    for email, name in (
        ("ann@example.org", "Ann"),
        ("bob@example.org", "Bob"),
        ("cid@example.org", "Cid"),
    ):
        in_db(app, lambda e=email, n=name: user(e, n))
    ann, bob, cid = (sign_in(app, f"{n}@example.org") for n in ("ann", "bob", "cid"))

    founded = found_club(ann, "Chess Friends", "invite", languages=["nl", "en"])
    assert founded.status_code == 302 and founded.location.endswith("/clubs/chess-friends")
    page = ann.get("/clubs/chess-friends")
    assert "Your club is founded" in page.text and "(admin)" in page.text
    assert "Ann founded the club." in visible(page.text)
    # The same name in other case and spacing is refused, nothing changes.
    before = counts(app)
    again = found_club(bob, "  chess   FRIENDS ")
    assert again.status_code == 400 and "A club of that name exists already" in again.text
    for bad, words in (("", "at least 2"), ("x" * 61, "at most 60")):
        refused = found_club(bob, bad)
        assert refused.status_code == 400 and words in refused.text
    assert found_club(bob, "Ok", languages=["xx"]).status_code == 400
    assert counts(app) == before

    # An invite-only club shows outsiders its name and description only.
    outside = bob.get("/clubs/chess-friends")
    assert outside.status_code == 200 and "We play." in outside.text
    assert "Members" not in outside.text and "Record" not in outside.text
    assert (
        bob.post("/clubs/chess-friends/join", data={"csrf_token": csrf(outside.text)}).status_code
        == 400
    )

    # Invitation link: a GET shows the club and joins nobody; the POST joins.
    link = invitation_link(ann, "chess-friends")
    shown = bob.get(link)
    assert shown.status_code == 200 and "You are invited to Chess Friends" in shown.text
    assert counts(app) == before
    assert bob.post(link, data={}).status_code == 400  # no CSRF token
    joined = press(bob, shown.text, "/clubs/join/")
    assert joined.status_code == 302
    assert "Bob joined by invitation link." in visible(bob.get("/clubs/chess-friends").text)
    twice = bob.post(link, data={"csrf_token": csrf(shown.text)})
    assert twice.status_code == 400 and "member of this club already" in twice.text
    assert ann.get(link[:-3] + "abc").status_code == 404

    # A request that an admin accepts; a second request is refused.
    asked = press(cid, cid.get("/clubs/chess-friends").text, "/clubs/chess-friends/ask")
    assert asked.status_code == 302
    again = cid.post("/clubs/chess-friends/ask", data={"csrf_token": csrf(cid.get("/clubs").text)})
    assert again.status_code == 400 and "asked already" in again.text
    # A member who is not an admin may not answer it, nor remove anybody.
    bob_page = bob.get("/clubs/chess-friends").text
    request_id = in_db(app, lambda: ClubRequest.get().id)
    cid_id = in_db(app, lambda: User.get(User.email == "cid@example.org").id)
    bob_id = in_db(app, lambda: User.get(User.email == "bob@example.org").id)
    ann_id = in_db(app, lambda: User.get(User.email == "ann@example.org").id)
    token = csrf(bob_page)
    for path in (
        f"/clubs/chess-friends/requests/{request_id}/accept",
        f"/clubs/chess-friends/members/{ann_id}/remove",
        f"/clubs/chess-friends/members/{bob_id}/admin",
    ):
        refused = bob.post(path, data={"csrf_token": token})
        assert refused.status_code == 400 and "Only an admin" in refused.text, path
    accepted = press(ann, ann.get("/clubs/chess-friends").text, f"/requests/{request_id}/accept")
    assert accepted.status_code == 302
    words = visible(ann.get("/clubs/chess-friends").text)
    assert "Cid joined; Ann accepted the request." in words

    # Roles: the last admin cannot leave; Ann makes Bob admin, then leaves.
    page = ann.get("/clubs/chess-friends").text
    stuck = press(ann, page, "/clubs/chess-friends/leave")
    assert stuck.status_code == 400 and "make another member admin first" in stuck.text
    assert press(ann, page, f"/members/{bob_id}/admin").status_code == 302
    assert press(ann, page, "/clubs/chess-friends/leave").status_code == 302
    # Bob removes Cid; removing a non-member, or a huge id, is refused.
    page = bob.get("/clubs/chess-friends").text
    assert press(bob, page, f"/members/{cid_id}/remove").status_code == 302
    for path in (f"/members/{cid_id}/remove", f"/members/{2**70}/remove"):
        refused = bob.post("/clubs/chess-friends" + path, data={"csrf_token": csrf(page)})
        assert refused.status_code in (400, 404) and "Server error" not in refused.text
    words = visible(bob.get("/clubs/chess-friends").text)
    for said in ("Ann made Bob an admin.", "Ann left the club.", "Bob removed Cid from the club."):
        assert said in words, said
    assert in_db(app, lambda: [m.user_id for m in ClubMember.select()]) == [bob_id]
    # Revoked links stop working.
    link = invitation_link(bob, "chess-friends")
    press(bob, bob.get("/clubs/chess-friends").text, "/revoke-links")
    assert cid.get(link).status_code == 410
    # Dutch.
    dutch = bob.get("/clubs/chess-friends", headers={"Accept-Language": "nl"})
    assert "Leden" in dutch.text


def test_public_club_page_games_leaderboard_and_open_games(app):
    going = started_game(app, players=2, tag="cg")
    in_db(app, lambda: user("out@example.org", "Outsider"))
    host, other, out = (
        sign_in(app, e) for e in ("cg0@example.org", "cg1@example.org", "out@example.org")
    )
    assert found_club(host, "Café Club").status_code == 302
    page = other.get("/clubs/cafe-club")
    assert "Join this club" in page.text
    assert press(other, page.text, "/clubs/cafe-club/join").status_code == 302
    listed = out.get("/clubs")
    assert "Café Club" in listed.text and "2 members" in listed.text
    # A game made for the club, through the new game form; a lobby too.
    in_db(app, lambda: Game.update(club=Club.get().id).where(Game.id == going.id).execute())
    club_id = in_db(app, lambda: Club.get().id)
    made = press(
        host, host.get("/games/new").text, "/games/new", name="Club lobby", club=str(club_id)
    )
    assert made.status_code == 302, made.text
    lobby_id = in_db(app, lambda: Game.get(Game.name == "Club lobby").id)
    assert in_db(app, lambda: Game.get_by_id(lobby_id).club_id) == club_id
    # An outsider cannot make a game for the club.
    refused = press(out, out.get("/games/new").text, "/games/new", name="Sneaky", club=str(club_id))
    assert (
        refused.status_code == 400
        and in_db(app, lambda: Game.select().where(Game.name == "Sneaky").count()) == 0
    )
    # A newer public lobby not for the club: still after the club's for members.
    in_db(
        app,
        lambda: games.create_game(
            User.get(User.email == "out@example.org"),
            "puerto_rico",
            "Stranger table",
            3,
            {},
            48,
            [24],
            app.extensions["pbem_mailer"],
            public=True,
        ),
    )
    mine = other.get("/games/open").text
    assert mine.index("Club lobby") < mine.index("Stranger table")
    assert "For your club Café Club" in mine
    theirs = out.get("/games/open").text
    assert theirs.index("Stranger table") < theirs.index("Club lobby")

    in_db(
        app,
        lambda: [
            PlayerRating.create(
                user=User.get(User.email == e), kind="puerto_rico", mu=mu, sigma=3, games=4
            )
            for e, mu in (("cg0@example.org", 20), ("cg1@example.org", 30), ("out@example.org", 50))
        ],
    )
    page = other.get("/clubs/cafe-club")
    words = visible(page.text)
    assert "Game cg" in words and "Club lobby" in words
    board = words[words.index("Leaderboards") :]
    assert board.index("CG 2") < board.index("CG 1") and "Outsider" not in board
    deadline = in_db(app, lambda: Seat.select().where(Seat.deadline.is_null(False)).count())
    assert deadline and "Next deadlines" in words
    # An outsider sees a public club's page but not the members' deadlines.
    assert "Next deadlines" not in visible(out.get("/clubs/cafe-club").text)
    assert out.get("/clubs/no-such-club").status_code == 404
    assert out.get("/clubs/" + "x" * 500).status_code == 404


def test_founding_and_invitation_links_are_rate_limited(db_url, smtp, tmp_path):
    from conftest import make_app

    app = make_app(
        db_url,
        smtp,
        tmp_path,
        RATELIMIT_CLUB_FOUND_PER_USER="2 per hour",
        RATELIMIT_CLUB_INVITE_PER_USER="2 per hour",
    )
    in_db(app, lambda: user("lim@example.org", "Lim"))
    lim = sign_in(app, "lim@example.org")
    assert found_club(lim, "").status_code == 400  # a refused name does not count
    assert found_club(lim, "One").status_code == 302
    assert found_club(lim, "Two").status_code == 302
    third = found_club(lim, "Three")
    assert third.status_code == 429 and "Too many attempts" in third.text
    assert in_db(app, lambda: Club.select().count()) == 2
    page = lim.get("/clubs/one").text
    for _ in range(2):
        assert press(lim, page, "/clubs/one/invitation").status_code == 200
    assert press(lim, page, "/clubs/one/invitation").status_code == 429

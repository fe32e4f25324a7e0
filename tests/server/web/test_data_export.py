"""A player's right to their data: "Download my data".  Settings queues an archive, the
scheduler builds it and mails a signed link; the archive holds what was
seeded for the account (and no secret); the link works for its owner only,
for 24 hours; the API gives the same archive with a read scope."""

from __future__ import annotations

import datetime as dt
import io
import json
import random
import time
import zipfile

import itsdangerous.timed
from api_helpers import bearer
from clock_helpers import random_move, sign_in, started_game
from moderation_helpers import in_db, seat_row
from web_helpers import form_for, post_form

from server.models import (
    ApiToken,
    Club,
    ClubMember,
    DataExport,
    Event,
    InboundMail,
    League,
    LeagueMember,
    Outbox,
    SignUpAttempt,
    User,
    utcnow,
)
from server.services import api_tokens, data_export, table_talk

FILES = {
    "account.json",
    "seats.json",
    "moves.json",
    "talk.json",
    "ratings.json",
    "sessions.json",
    "api_tokens.json",
    "clubs.json",
    "leagues.json",
    "requests.json",
    "mail.mbox",
}


def seeded(app):
    """g1 in a game with moves, talk, an inbound mail and a token."""
    game = started_game(app, players=3, tag="g")
    rnd = random.Random(3)
    for _ in range(6):
        random_move(app, game.id, rnd)
    seat = seat_row(app, game.id, 1)
    mailer = app.extensions["pbem_mailer"]

    def run():
        table_talk.post(game.id, seat, "From the start: I build.", mailer)
        InboundMail.create(
            message_id="<in-9@example.org>",
            raw="From: g1@example.org\nSubject: Re: your turn\n\nbuild 3",
            from_addr="g1@example.org",
            user=seat.user_id,
        )
        token = api_tokens.create(User.get_by_id(seat.user_id), "my script", ["read"], 30)[1]
        belongs(seat.user_id)
        return token

    return game, seat.user_id, in_db(app, run)


def belongs(user_id: int) -> None:
    """A club and a league they joined, a sign-up waiting for its link."""
    club = Club.create(name="Tuesday Club", name_key="tuesday club", slug="tuesday-club")
    ClubMember.create(club=club, user=user_id, role="admin")
    league = League.create(
        name="Winter League",
        name_key="winter league",
        kind="puerto_rico",
        move_hours=48,
        rounds=3,
        max_players=12,
        table_min=3,
        table_max=4,
        starts_at=utcnow(),
        seed=7,
    )
    LeagueMember.create(league=league, user=user_id)
    SignUpAttempt.create(user=user_id, name="Another Name", password_hash="attempt-hash-xyz")


def ask_and_build(app, client) -> str:
    page = client.get("/account")
    answer = post_form(client, form_for(page.text, "/account/data"))
    assert answer.status_code == 200
    built = in_db(app, lambda: data_export.build_due(app.extensions["pbem_mailer"]))
    assert built == 1
    mail = in_db(app, lambda: Outbox.get(Outbox.kind == "export_ready"))
    link = next(w for w in mail.body_text.split() if "/account/data/" in w)
    return link.removeprefix("http://localhost")


def test_the_archive_holds_the_accounts_data(app):
    game, user_id, token = seeded(app)
    owner = sign_in(app, "g1@example.org")
    path = ask_and_build(app, owner)
    got = owner.get(path)
    assert got.status_code == 200 and got.mimetype == "application/zip"
    zipped = zipfile.ZipFile(io.BytesIO(got.data))
    assert set(zipped.namelist()) == FILES
    read = lambda name: json.loads(zipped.read(name))  # noqa: E731

    account = read("account.json")
    assert (account["id"], account["email"], account["name"]) == (user_id, "g1@example.org", "G 2")
    seats = read("seats.json")
    assert [(s["game"], s["seat"]) for s in seats] == [(game.id, 2)]
    played = in_db(
        app,
        lambda: Event.select().where((Event.game == game.id) & (Event.seat == 1)).count(),
    )
    moves = read("moves.json")
    assert len(moves) == played > 0 and {m["game_name"] for m in moves} == {"Game g"}
    assert [t["text"] for t in read("talk.json")] == ["From the start: I build."]
    assert [t["name"] for t in read("api_tokens.json")] == ["my script"]
    assert len(read("sessions.json")) == 1
    assert read("clubs.json")["memberships"][0]["club"] == "Tuesday Club"
    assert read("leagues.json")["memberships"][0]["league"] == "Winter League"
    assert account["sign_ups_waiting"][0]["name"] == "Another Name"
    assert read("requests.json") == {"takebacks": [], "proposals": [], "rematches": []}
    mbox = zipped.read("mail.mbox")
    # The game's mails share its thread's subject; the news is their first line.
    assert b"build 3" in mbox and f"Subject: [pbem] Game g (#{game.id})".encode() in mbox
    assert b"The game has started" in mbox
    assert mbox.startswith(b"From ") and b"\nFrom g1@example.org " in mbox
    everything = b"".join(zipped.read(name) for name in FILES)
    secret = in_db(app, lambda: User.get_by_id(user_id))
    for hidden in (secret.password_hash, secret.session_token, token, "attempt-hash-xyz"):
        assert hidden.encode() not in everything
    token_hash = in_db(app, lambda: ApiToken.get(ApiToken.user == user_id).token_hash)
    assert token_hash.encode() not in everything

    # Another account's browser: the same link gives nothing.
    other = sign_in(app, "g2@example.org")
    assert other.get(path).status_code == 404
    tampered = path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB")
    assert owner.get(tampered).status_code in (404, 410)
    # The API gives the same files with a read token.
    api = app.test_client().get("/api/v1/me/data", headers=bearer(token))
    assert api.status_code == 200
    assert set(zipfile.ZipFile(io.BytesIO(api.data)).namelist()) == FILES


def test_the_link_expires_after_a_day(app, monkeypatch):
    seeded(app)
    owner = sign_in(app, "g1@example.org")
    path = ask_and_build(app, owner)
    later = int(time.time()) + 25 * 3600
    monkeypatch.setattr(itsdangerous.timed.TimestampSigner, "get_timestamp", lambda self: later)
    assert owner.get(path).status_code == 410
    monkeypatch.undo()
    # And the archive itself is dropped on the next round after a day.
    in_db(
        app,
        lambda: data_export.build_due(
            app.extensions["pbem_mailer"], utcnow() + dt.timedelta(hours=25)
        ),
    )
    assert in_db(app, lambda: DataExport.select().count()) == 0
    assert owner.get(path).status_code == 404


def test_signed_out_the_link_asks_to_sign_in(app):
    seeded(app)
    path = ask_and_build(app, sign_in(app, "g1@example.org"))
    assert app.test_client().get(path).status_code == 302

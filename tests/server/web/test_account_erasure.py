"""A player deletes their account in the middle of a game
(SQLite and PostgreSQL).  The game goes on with a bot in the seat, the
records read "Former player N" in each reader's language, the old ways in
answer 404/410 (never 500), the mail stops, and the address signs up anew."""

from __future__ import annotations

import random

import pytest
from clock_helpers import random_move, sign_in, started_game
from moderation_helpers import game_row, in_db, notes, seat_row
from web_helpers import csrf, form_for, post_form, signup

from server.models import (
    ApiToken,
    BrowserSession,
    Event,
    Game,
    InboundMail,
    NotifyChannel,
    Outbox,
    TableMessage,
    User,
    utcnow,
)
from server.services import api_tokens, proposals, table_talk
from server.services.clock.sweep import run_bots
from server.services.erasure import NOT_SENT, erase, erased_address

PSEUDONYM = {
    "en": "Former player %s",
    "nl": "Voormalige speler %s",
    "de": "Ehemaliger Spieler %s",
    "fr": "Ancien joueur %s",
}


def seed(app, game_id: int):
    """The leaving player (seat 2) has talked, mailed a move, a queued mail
    and an API token; seat 1 talked too (what others wrote must stay)."""
    mailer = app.extensions["pbem_mailer"]

    leaving, other = seat_row(app, game_id, 1), seat_row(app, game_id, 0)

    def run():
        table_talk.post(game_id, leaving, "good luck all", mailer)
        table_talk.post(game_id, other, "thanks, g1!", mailer)
        InboundMail.create(
            message_id="<in-1@example.org>",
            raw="From: g1@example.org\n\nbuild 3\n-- my signature",
            from_addr="g1@example.org",
            user=leaving.user_id,
        )
        queued = Outbox.create(
            kind="talk",
            to_addr="g1@example.org",
            subject="s",
            body_text="secret body",
            body_html="<p>secret body</p>",
            message_id="<q-1@pbem>",
        )
        _, token = api_tokens.create(User.get_by_id(leaving.user_id), "bot", ["read"], 30)
        return leaving.user_id, queued.id, token

    return in_db(app, run)


def erase_by_page(client, password="password1"):
    page = client.get("/account")
    assert page.status_code == 200
    form = form_for(page.text, "/account/delete")
    return post_form(client, form, current=password)


def test_a_player_deleted_mid_game(app):
    game = started_game(app, players=3, tag="g")
    rnd = random.Random(5)
    for _ in range(4):
        random_move(app, game.id, rnd)
    user_id, queued_id, token = seed(app, game.id)
    leaving = sign_in(app, "g1@example.org")
    seat = seat_row(app, game.id, 1)
    seat_link = in_db(app, lambda: app.extensions["pbem_mailer"].links.seat_url(seat))

    wrong = erase_by_page(leaving, "not my password")
    assert (
        wrong.status_code == 400 and in_db(app, lambda: User.get_by_id(user_id).erased_at) is None
    )
    done = erase_by_page(leaving)
    assert done.status_code == 200 and "Your account is deleted" in done.text

    person = in_db(app, lambda: User.get_by_id(user_id))
    assert person.erased_at is not None and person.email == erased_address(user_id)
    assert str(person.name) == f"Former player {user_id}"
    assert person.password_hash == "!"
    assert (
        in_db(app, lambda: BrowserSession.select().where(BrowserSession.user == user_id).count())
        == 0
    )
    assert in_db(app, lambda: ApiToken.get(ApiToken.user == user_id).revoked_at) is not None
    assert (
        in_db(app, lambda: NotifyChannel.select().where(NotifyChannel.user == user_id).count()) == 0
    )
    queued = in_db(app, lambda: Outbox.get_by_id(queued_id))
    assert (queued.status, queued.permanent, queued.last_error) == ("failed", True, NOT_SENT)
    assert queued.body_text == queued.body_html == ""
    assert (
        in_db(app, lambda: Outbox.select().where(Outbox.to_addr == "g1@example.org").count()) == 0
    )
    assert in_db(app, lambda: InboundMail.select().count()) == 0
    # What the others wrote stays, word for word; theirs too.
    talk = in_db(app, lambda: [m.text for m in TableMessage.select().order_by(TableMessage.id)])
    assert talk == ["good luck all", "thanks, g1!"]

    seat = seat_row(app, game.id, 1)
    assert seat.withdrawn and seat.bot == "heuristic"
    assert notes(app, game.id)[-1].action == {"note": "erase", "seat": 1, "bot": "heuristic"}

    # The game goes on: the bot plays the seat, the others play theirs.
    before = game_row(app, game.id).seq
    for _ in range(12):
        if game_row(app, game.id).to_move == 1:
            in_db(app, lambda: run_bots(app.config, app.extensions["pbem_mailer"], utcnow()))
        else:
            random_move(app, game.id, rnd)
    assert game_row(app, game.id).seq > before + 6
    assert in_db(app, lambda: Event.select().where(Event.actor == "bot").count()) > 0

    # The records read right in each reader's language.
    host = sign_in(app, "g0@example.org")
    for code, pseudonym in PSEUDONYM.items():
        in_db(
            app,
            lambda code=code: (
                User.update(language=code).where(User.email == "g0@example.org").execute()
            ),
        )
        for path in (f"/games/{game.id}", f"/games/{game.id}/log"):
            page = host.get(path)
            assert page.status_code == 200, (code, path)
            assert pseudonym % user_id in page.text, (code, path)
            assert "g1@example.org" not in page.text and "G 2" not in page.text

    # Old links and ways in: 404/410, never a 500.
    stranger = app.test_client()
    assert stranger.get(seat_link.removeprefix("http://localhost")).status_code in (403, 404, 410)
    assert host.get(f"/players/{user_id}").status_code == 410
    api = stranger.get(f"/api/v1/games/{game.id}", headers={"Authorization": f"Bearer {token}"})
    assert api.status_code in (401, 404, 410)
    assert leaving.get("/account").status_code == 302  # signed out

    # The address signs up again, as somebody new.
    newcomer = app.test_client()
    signup(newcomer, "Back again", "g1@example.org")
    fresh = in_db(app, lambda: User.get(User.email == "g1@example.org"))
    assert fresh.id != user_id and fresh.erased_at is None


def test_without_password_a_mailed_link_confirms(app):
    started_game(app, players=2, tag="n")
    client = sign_in(app, "n1@example.org")
    # An account made for a player has no password (signed in by a link).
    in_db(
        app, lambda: User.update(password_hash="!").where(User.email == "n1@example.org").execute()
    )
    user = in_db(app, lambda: User.get(User.email == "n1@example.org"))
    page = client.get("/account")
    asked = post_form(client, form_for(page.text, "/account/delete"))
    assert asked.status_code == 200
    mail = in_db(app, lambda: Outbox.get(Outbox.kind == "erase_confirm"))
    link = next(w for w in mail.body_text.split() if "/account/delete/" in w)
    path = link.removeprefix("http://localhost")

    looked = app.test_client().get(path)  # a link scanner: shows, changes nothing
    assert looked.status_code == 200
    assert in_db(app, lambda: User.get_by_id(user.id).erased_at) is None
    pressed = app.test_client()
    page = pressed.get(path)
    assert pressed.post(path, data={"csrf_token": csrf(page.text)}).status_code == 302
    assert in_db(app, lambda: User.get_by_id(user.id).erased_at) is not None
    assert app.test_client().get(path).status_code == 410  # used: gone


def test_operators_command(app):
    started_game(app, players=2, tag="c")
    result = app.test_cli_runner().invoke(args=["erase-account", "C1@example.org", "--yes"])
    assert result.exit_code == 0, result.output
    assert in_db(app, lambda: User.select().where(User.email == "c1@example.org").count()) == 0
    unknown = app.test_cli_runner().invoke(args=["erase-account", "nobody@example.org", "--yes"])
    assert unknown.exit_code != 0 and "no account" in unknown.output


@pytest.mark.parametrize("name", ["Former player 3", "  Former   player 12 "])
def test_the_pseudonym_is_not_a_name_to_take(app, name):
    started_game(app, players=2, tag="p")
    client = sign_in(app, "p1@example.org")
    page = client.get("/account")
    answer = post_form(client, form_for(page.text, "/account/name"), name=name)
    assert answer.status_code == 400


def test_the_notes_name_the_pseudonym_and_the_seat_passes_when_the_host_chose_so(app):
    """Records carry no trace of the name: a note written while the player
    was still themselves (they refused a proposal) reads the pseudonym after;
    a host who chose "their seat passes" gets no bot in the seat."""
    game = started_game(app, players=3, tag="q")
    in_db(app, lambda: Game.update(departed_seat="passes").where(Game.id == game.id).execute())
    mailer = app.extensions["pbem_mailer"]
    host = in_db(app, lambda: User.get(User.email == "q0@example.org"))
    leaving = in_db(app, lambda: User.get(User.email == "q1@example.org"))
    seq = game_row(app, game.id).seq
    in_db(
        app,
        lambda: proposals.propose(game.id, host, seq, "pause", {}, "Holidays", mailer=mailer),
    )
    proposal = in_db(app, lambda: proposals.open_proposal(Game.get_by_id(game.id)))
    in_db(app, lambda: proposals.answer(game.id, leaving, proposal.id, False, mailer=mailer))
    assert leaving.name in str(notes(app, game.id)[-1].events)

    in_db(app, lambda: erase(User.get_by_id(leaving.id), mailer))

    seat = seat_row(app, game.id, 1)
    assert seat.withdrawn and seat.bot is None
    assert notes(app, game.id)[-1].action == {"note": "erase", "seat": 1, "bot": None}
    records = str([(n.action, n.events) for n in notes(app, game.id)])
    assert leaving.name not in records and f"Former player {leaving.id}" in records
    reader = sign_in(app, "q2@example.org")
    log = reader.get(f"/games/{game.id}/log")
    assert log.status_code == 200 and leaving.name not in log.text
    assert "it passes on each turn from now on" in log.text


def test_the_host_chooses_bot_or_pass_on_the_new_game_page(app):
    client = app.test_client()
    signup(client, "Host", "host@example.org")
    page = client.get("/games/new")
    assert "If a player deletes their account" in page.text
    form = form_for(page.text, "/games/new")
    made = post_form(client, form, name="Passing table", departed_seat="passes")
    assert made.status_code == 200 and "/lobby" in made.request.path
    chosen = in_db(app, lambda: Game.get(Game.name == "Passing table").departed_seat)
    assert chosen == "passes"
    bad = post_form(
        client,
        form_for(client.get("/games/new").text, "/games/new"),
        name="Bad",
        departed_seat="drop",
    )
    assert bad.status_code == 400
    assert in_db(app, lambda: Game.select().where(Game.name == "Bad").count()) == 0

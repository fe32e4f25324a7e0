"""Mail you can trust: no mail on an attacker's behalf.

Measured before: 12 invitation posts of 20 addresses sent 240 invitations
carrying the attacker's text (game name), table talk likewise, and 20
forged mails got 20 answers with the attacker's game name as subject.  Now
invitations, table talk and answers are limited per user and per address,
counted from the database; an address no confirmed account uses gets at most
one invitation a day, whoever sends it, with no user-written text in its
subject and no link but the invitation's own.  SQLite and PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from clock_helpers import user
from game_driver import db_state
from reply_helpers import reply_app
from web_helpers import form_for, post_form, signup

from server.db import db
from server.models import Game, Invitation, Outbox, Seat, TableMessage, User, utcnow
from server.services import games, replies, reply_menu

SPAM_GAME = "Cheap pills at http://spam.example now"
SPAM_HOST = "Win big www.evil.example"


def in_db(app, fn):
    with app.app_context(), db.connection_context():
        return fn()


def open_lobby(app, email: str, host_name: str = "Host", game_name: str = "Friendly"):
    """A signed-in host with an open two-seat game: (client, game id)."""
    client = app.test_client()
    signup(client, host_name, email)
    page = client.get("/games/new?kind=puerto_rico")
    page = post_form(
        client,
        form_for(page.text, "/games/new"),
        name=game_name,
        kind="puerto_rico",
        seats="2",
        move_hours="48",
        reminder_hours="24",
    )
    return client, int(page.request.path.split("/")[2])


def invite(client, game_id: int, emails: list[str]):
    page = client.get(f"/games/{game_id}/lobby")
    return post_form(client, form_for(page.text, "/invite"), emails="\n".join(emails))


def invitations_to(app, email: str) -> list[Outbox]:
    return in_db(
        app,
        lambda: list(
            Outbox.select()
            .where((Outbox.kind == "invite") & (Outbox.to_addr == email))
            .order_by(Outbox.id)
        ),
    )


def invited(app, game_id: int) -> list[str]:
    return in_db(
        app, lambda: sorted(i.email for i in Invitation.select().where(Invitation.game == game_id))
    )


def test_one_user_sends_at_most_a_days_worth_of_invitations(app):
    host, game_id = open_lobby(app, "host@example.org")
    first = [f"a{i}@example.org" for i in range(20)]
    assert invite(host, game_id, first).status_code == 200
    refused = invite(host, game_id, [f"b{i}@example.org" for i in range(20)])
    assert refused.status_code == 429
    assert "Nothing was sent" in refused.text and "you have 10 left" in refused.text
    assert invited(app, game_id) == sorted(first)  # nothing changed
    assert in_db(app, lambda: Outbox.select().where(Outbox.kind == "invite").count()) == 20
    assert invite(host, game_id, [f"c{i}@example.org" for i in range(10)]).status_code == 200
    assert invite(host, game_id, ["d@example.org"]).status_code == 429
    assert in_db(app, lambda: Outbox.select().where(Outbox.kind == "invite").count()) == 30


def test_an_address_gets_one_invitation_a_day_whoever_sends_it(app):
    one, first = open_lobby(app, "one@example.org")
    two, second = open_lobby(app, "two@example.org")
    assert invite(one, first, ["stranger@example.org"]).status_code == 200
    held = invite(two, second, ["other@example.org", "stranger@example.org"])
    assert held.status_code == 200
    assert "Held back for now (the page says until when): stranger@example.org" in held.text
    assert invited(app, second) == ["other@example.org", "stranger@example.org"]
    # The second invitation is held (test_held_invitations.py), not mailed.
    assert len(invitations_to(app, "stranger@example.org")) == 1
    assert len(invitations_to(app, "other@example.org")) == 1

    # A day later (nothing held for it) the address may be invited again.
    def a_day_ago():
        for row in Outbox.select().where(Outbox.kind == "invite"):
            Outbox.update(created_at=row.created_at - dt.timedelta(hours=25)).where(
                Outbox.id == row.id
            ).execute()
        Invitation.update(held_settled_at=utcnow()).execute()

    in_db(app, a_day_ago)
    assert invite(one, first, ["stranger@example.org"]).status_code == 200
    assert len(invitations_to(app, "stranger@example.org")) == 2


def test_the_refusal_is_translated(app):
    host, game_id = open_lobby(app, "host@example.org")
    app.config["INVITES_PER_USER_PER_DAY"] = 0
    in_db(app, lambda: User.update(language="de").execute())
    page = host.get(f"/games/{game_id}/lobby")
    refused = host.post(
        f"/games/{game_id}/invite",
        data=dict(form_for(page.text, "/invite")["fields"], emails="x@example.org"),
    )
    assert refused.status_code == 429 and "Nichts wurde gesendet" in refused.text


def test_mail_to_an_unconfirmed_address_carries_no_user_text_and_only_the_join_link(
    app, smtp, send_mail
):
    host, game_id = open_lobby(app, "host@example.org", SPAM_HOST, SPAM_GAME)
    member = app.test_client()
    signup(member, "Member", "member@example.org")
    assert invite(host, game_id, ["stranger@example.org", "member@example.org"]).status_code == 200
    send_mail(app)
    (mail,) = smtp.to("stranger@example.org")
    (row,) = invitations_to(app, "stranger@example.org")
    text = mail.get_body(("plain",)).get_content()
    html = mail.get_body(("html",)).get_content()
    for part in (str(mail["Subject"]), text, html):
        assert "spam" not in part and "evil" not in part and "Cheap" not in part
    assert str(mail["Subject"]) == "[pbem] An invitation to a game of Puerto Rico"
    join = re.search(r"http://localhost/j/\S+", text).group(0)
    # Besides the join link, only the mail's own "never invite me here".
    never = re.search(r"http://localhost/mail/never-invite/\S+", text).group(0)
    assert re.findall(r"https?://\S+", text) == [join, never]
    assert re.findall(r'href="([^"]+)"', html) == [join, never]
    assert row.author_id is not None
    # A confirmed member's invitation names the game and its host, as before.
    (known,) = smtp.to("member@example.org")[-1:]
    assert SPAM_GAME in str(known["Subject"])


def test_one_player_posts_so_many_table_talk_messages_an_hour(table):
    app, gid = table.app, table.game_id
    app.config["TALK_PER_USER_PER_HOUR"] = 3
    say = __import__("test_table_talk").say
    for n in range(3):
        assert say(table.clients[0], gid, f"message {n}").status_code == 200
    before = db_state(app, gid)
    refused = say(table.clients[0], gid, "one too many")
    assert refused.status_code == 429 and "Not posted" in refused.text
    assert db_state(app, gid) == before
    assert in_db(app, lambda: TableMessage.select().count()) == 3
    assert say(table.clients[1], gid, "my own hour").status_code == 200


def test_an_address_gets_so_many_table_talk_mails_the_rest_rides_along(table):
    app, gid = table.app, table.game_id
    app.config["TALK_MAILS_PER_ADDRESS_PER_HOUR"] = 2
    say = __import__("test_table_talk").say
    for n in range(3):
        assert say(table.clients[0], gid, f"news {n}").status_code == 200
    for email in table.emails[1:]:
        rows = in_db(
            app,
            lambda: list(
                Outbox.select().where((Outbox.kind == "talk") & (Outbox.to_addr == email))
            ),
        )
        assert len(rows) == 2 and all(r.author_id is not None for r in rows)
    messages = in_db(app, lambda: [m.id for m in TableMessage.select().order_by(TableMessage.id)])
    seen = in_db(app, lambda: Seat.get((Seat.game == gid) & (Seat.index == 1)).talk_seen_id)
    assert seen == messages[1]  # the third comes with this seat's next turn mail


@pytest.fixture
def rapp(db_url, smtp, tmp_path):
    return reply_app(db_url, smtp, tmp_path)


def forged(to_addr: str, n: int) -> bytes:
    mail = EmailMessage()
    mail["From"] = "victim@example.org"
    mail["To"] = to_addr
    mail["Subject"] = "Re: join"
    mail["Message-ID"] = make_msgid(domain=f"forger{n}.example")
    mail.set_content("/join 2")
    return bytes(mail)


def test_twenty_forged_mails_get_one_answer_without_the_game_name(rapp):
    app, mailer = rapp, rapp.extensions["pbem_mailer"]

    def setup():
        host = user("host@example.org", SPAM_HOST)
        game = games.create_game(host, "puerto_rico", SPAM_GAME, 2, {}, 48, [24], mailer)
        return reply_menu.lobby_address(app.config, game)

    lobby = in_db(app, setup)
    for n in range(20):
        in_db(app, lambda: replies.receive(forged(lobby, n), mailer))
    answers = in_db(
        app, lambda: list(Outbox.select().where(Outbox.to_addr == "victim@example.org"))
    )
    # An address without a confirmed account gets no answer at all (the
    # lobby's answers go to confirmed accounts only: README "Who sent a reply").
    assert answers == []
    # A player with a confirmed address is asked to confirm, up to the hour's limit.
    in_db(app, lambda: user("player@example.org", "Player"))
    app.config["ANSWERS_PER_ADDRESS_PER_HOUR"] = 5
    for n in range(8):
        raw = forged(lobby, 100 + n).replace(b"victim@", b"player@")
        in_db(app, lambda: replies.receive(raw, mailer))
    assert (
        in_db(app, lambda: Outbox.select().where(Outbox.to_addr == "player@example.org").count())
        == 5
    )


def test_two_hosts_at_once_send_one_invitation_to_an_address(app):
    """Two web workers at the same moment: the count is the database's, read
    under a lock, so exactly one of them sends."""
    mailer = app.extensions["pbem_mailer"]

    def setup():
        hosts = [user(f"h{i}@example.org") for i in range(2)]
        return [
            (h, games.create_game(h, "puerto_rico", f"G{i}", 2, {}, 48, [24], mailer).id)
            for i, h in enumerate(hosts)
        ]

    lobbies = in_db(app, setup)
    barrier, outcomes = threading.Barrier(2), []

    def worker(host: User, game_id: int):
        with app.app_context(), db.connection_context():
            barrier.wait()
            outcomes.append(games.invite(game_id, host, ["both@example.org"], mailer))

    threads = [threading.Thread(target=worker, args=lobby) for lobby in lobbies]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == [0, 1]  # the other one held
    assert len(invitations_to(app, "both@example.org")) == 1
    held = in_db(app, lambda: Invitation.select().where(Invitation.held_until.is_null(False)))
    assert len(list(held)) == 1
    assert in_db(app, lambda: Game.select().count()) == 2

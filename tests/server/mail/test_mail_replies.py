"""Moves by mail reply: the turn mail lists the choices, numbered,
with a signed Reply-To; a reply with a number, words or "pass" plays it,
through the real receiver over SMTP, and every reply gets an answer."""

from __future__ import annotations

import time

import pytest
from game_driver import Table, db_state
from reply_helpers import (
    AUTHSERV,
    DOMAIN,
    body_of,
    choices_in,
    game_row,
    inbound,
    reply_app,
    reply_to,
    send,
    start_receiver,
    write_reply,
)

from server.db import db
from server.mail.reply_address import ReplyAddresses
from server.models import User


@pytest.fixture
def rapp(db_url, smtp, tmp_path):
    return reply_app(db_url, smtp, tmp_path)


def turn_mail(table: Table):
    """(email, mail) of the one seat whose turn mail is waiting."""
    found = []
    for email in table.emails:
        found += [(email, m) for m in table.new_mail(email) if "It is your turn in" in body_of(m)]
    assert len(found) == 1, [e for e, _ in found]
    return found[0]


def answer_for(table: Table, email: str):
    mails = table.new_mail(email)
    return mails


def test_turn_mail_lists_numbered_choices_holdings_and_a_signed_reply_to(duo, rapp):
    email, mail = turn_mail(duo)
    address = reply_to(mail)
    local, domain = address.split("@")
    assert domain == DOMAIN and local.startswith("play+") and len(local) < 64
    assert local == local.lower()
    target = ReplyAddresses("test-secret", DOMAIN).read(address)
    assert (target.game_id, target.seat, target.seq) == (duo.game_id, duo.seat_of(email), 0)
    assert choices_in(mail)[:2] == ["Settler", "Mayor"]
    assert "Your holdings" in body_of(mail) and "Doubloons" in body_of(mail)


def test_a_reply_with_a_number_is_played_and_confirmed(duo, rapp, receiver):
    email, mail = turn_mail(duo)
    label = choices_in(mail)[1]
    send(receiver.port, write_reply(mail, email, "2"))
    (answer,) = duo.new_mail(email)
    assert f"- {label}" in body_of(answer) and "Your reply was played" in body_of(answer)
    game = duo.game()
    assert game.seq >= 1
    (row,) = inbound(rapp)
    assert row.status == "applied" and label in row.outcome and row.via == "smtp"


def test_lmtp_receiver_plays_a_reply(duo, rapp):
    controller = start_receiver(rapp, protocol="lmtp")
    try:
        email, mail = turn_mail(duo)
        send(controller.port, write_reply(mail, email, "Mayor"), lmtp=True)
    finally:
        controller.stop()
    assert inbound(rapp)[0].status == "applied" and duo.game().seq == 1


def test_receiver_refuses_other_recipients(receiver):
    import smtplib
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@example.org", "someone@elsewhere.test", "x"
    msg.set_content("hi")
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        send(receiver.port, msg)


def play_by_replies(table: Table, port: int, rng, max_replies: int = 3000) -> int:
    """Answer every mail that lists choices with a random number of them, until
    the final-score mails come; returns how many replies were sent."""
    sent = 0
    waiting = {email: None for email in table.emails}
    while sent < max_replies:
        finals = False
        for email in table.emails:
            for mail in table.new_mail(email):
                finals |= "is over" in body_of(mail)
                # A turn mail (lobby news lists the seats, numbered too).
                if choices_in(mail) and reply_to(mail) and "of your choice" in body_of(mail):
                    waiting[email] = mail
        if finals:
            return sent
        ready = [(e, m) for e, m in waiting.items() if m is not None]
        assert len(ready) == 1, f"expected one mail to answer, got {len(ready)}"
        email, mail = ready[0]
        waiting[email] = None
        number = rng.randrange(len(choices_in(mail))) + 1
        lang = rng.choice(["en", "de", "fr", "nl", "nl-outlook"])
        send(port, write_reply(mail, email, str(number), lang))
        sent += 1
    raise AssertionError("the game did not end")


def test_a_whole_two_player_game_by_replies_alone(sqlite_url, smtp, send_mail, tmp_path):
    import random

    app = reply_app(sqlite_url, smtp, tmp_path)
    table = Table(app, smtp, send_mail, 2, seed=8)
    table.set_up()
    controller = start_receiver(app)
    started = time.monotonic()
    try:
        replies = play_by_replies(table, controller.port, random.Random(3))
    finally:
        controller.stop()
    game = table.game()
    assert game.status == "finished"
    rows = inbound(app)
    assert len(rows) == replies and {r.status for r in rows} == {"applied"}
    with app.app_context(), db.connection_context():
        from server.models import Event

        moves = Event.select().where(Event.game == game.id, Event.kind == "move")
        assert {e.actor for e in moves} == {"player"} and moves.count() == replies
    print(f"{replies} replies in {time.monotonic() - started:.1f}s")


def test_several_decisions_in_one_reply_are_played_in_order(duo, rapp, receiver):
    """Choosing the Settler asks the same seat for a plantation next: one
    reply carries both, one a line."""
    email, mail = turn_mail(duo)
    send(receiver.port, write_reply(mail, email, "Settler\npass"))
    (answer,) = duo.new_mail(email)
    text = body_of(answer)
    assert "- Settler" in text and "- Take no plantation" in text
    assert duo.game().seq == 2
    assert inbound(rapp)[0].status == "applied"


def test_a_reply_stops_at_the_first_line_that_fails(duo, rapp, receiver):
    email, mail = turn_mail(duo)
    send(receiver.port, write_reply(mail, email, "1\n42\n1"))
    (answer,) = duo.new_mail(email)
    text = body_of(answer)
    assert (
        "- Settler" in text
        and "Line 2 (\u201c42\u201d) was not played: there is no choice 42" in text
    )
    assert "It is still your turn" in text and choices_in(answer)
    assert duo.game().seq == 1
    # The answer carries a fresh address: replying to it plays on.
    send(receiver.port, write_reply(answer, email, "1"))
    assert duo.game().seq == 2


def test_a_duplicate_delivery_is_applied_once(duo, rapp, receiver):
    email, mail = turn_mail(duo)
    reply = write_reply(mail, email, "2")
    send(receiver.port, reply)
    send(receiver.port, reply)
    assert duo.game().seq == 1
    assert len(inbound(rapp)) == 1
    assert len(duo.new_mail(email)) == 1


def without_outbox(state: tuple) -> tuple:
    return state[:6] + state[7:]


@pytest.mark.parametrize(
    "case",
    [
        "wrong sender",
        "stranger",
        "stale",
        "illegal",
        "unreadable",
        "empty",
        "finished",
        "revoked",
        "resigned",
        "removed, a bot plays it",
    ],
)
def test_a_refused_reply_is_answered_and_changes_nothing(duo, rapp, receiver, case):
    """Every authenticated reply from an account is answered; one from an
    address with no account is kept and changes nothing, unanswered."""
    email, mail = turn_mail(duo)
    other = next(e for e in duo.emails if e != email)
    sender, text = email, "1"
    if case == "stale":
        # Settler: the same seat goes on with a plantation, a newer position.
        send(receiver.port, write_reply(mail, email, "Settler"))
        duo.new_mail(email)
    elif case == "finished":
        with rapp.app_context(), db.connection_context():
            from server.models import Game

            Game.update(status="finished").where(Game.id == duo.game_id).execute()
    elif case == "revoked":
        with rapp.app_context(), db.connection_context():
            from server.models import Seat

            Seat.update(link_version=Seat.link_version + 1).where(
                Seat.game == duo.game_id
            ).execute()
    elif case in ("resigned", "removed, a bot plays it"):
        # Who may act (services/acting.py): as the page and the API refuse it.
        bot = "heuristic" if "bot" in case else None
        with rapp.app_context(), db.connection_context():
            from server.models import Seat

            Seat.update(withdrawn=True, bot=bot).where(
                (Seat.game == duo.game_id) & (Seat.index == duo.seat_of(email))
            ).execute()
    sender = {"wrong sender": other, "stranger": "stranger@example.org"}.get(case, sender)
    text = {"illegal": "9", "unreadable": "Shall we play golf?", "empty": ""}.get(case, text)
    before = db_state(rapp, duo.game_id)
    send(receiver.port, write_reply(mail, sender, text))
    assert without_outbox(db_state(rapp, duo.game_id)) == without_outbox(before)
    row = inbound(rapp)[-1]
    if case == "stranger":
        # A sender without an account gets no mail at all, even
        # an authenticated one: nobody may make the site mail an address.
        assert row.status == "ignored" and "no confirmed account" in row.outcome
        duo.send_mail(rapp)
        assert not [m for rcpt, m in duo.smtp.messages if sender in rcpt]
        return
    assert row.status == "refused"
    duo.send_mail(rapp)
    (answer,) = [m for rcpt, m in duo.smtp.messages if sender in rcpt][-1:]
    body = body_of(answer)
    assert "changed nothing" in body
    reason = body.split("changed nothing. ", 1)[1].split("\n\n")[0]
    assert reason.count(". ") == 0 and reason.endswith((".", ":")) or "choose 1 to" in reason
    expected = {
        "wrong sender": "only from its player\u2019s own confirmed address",
        "stranger": "only from its player\u2019s own confirmed address",
        "stale": "The game has moved on",
        "illegal": "there is no choice 9",
        "unreadable": "it is none of your choices",
        "empty": "No choice was found",
        "finished": "This game is over",
        "revoked": "replaced by a newer one",
        "resigned": "no longer takes moves by mail",
        "removed, a bot plays it": "no longer takes moves by mail",
    }[case]
    assert expected in body
    if case in ("wrong sender", "stranger", "resigned", "removed, a bot plays it"):
        # Nothing about the seat goes to somebody else's address.
        assert not choices_in(answer) and "holdings" not in body
    elif case in ("illegal", "unreadable", "empty", "stale", "revoked"):
        assert choices_in(answer), body


@pytest.mark.parametrize("lang", ["en", "de", "fr", "nl", "nl-outlook"])
def test_quoted_replies_in_four_languages(sqlite_url, smtp, send_mail, tmp_path, lang):
    app = reply_app(sqlite_url, smtp, tmp_path)
    table = Table(app, smtp, send_mail, 2, seed=5)
    table.set_up()
    controller = start_receiver(app)
    try:
        email, mail = turn_mail(table)
        # The quoted mail lists "1. Settler": only the reply on top may count.
        send(controller.port, write_reply(mail, email, "Mayor\n-- \nJan de Vries", lang))
    finally:
        controller.stop()
    assert inbound(app)[0].status == "applied" and "Mayor" in inbound(app)[0].outcome


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto_Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"List_Id": "<x.lists.test>"},
        {"X_Autoreply": "yes"},
    ],
)
def test_machine_mail_is_kept_but_neither_played_nor_answered(duo, rapp, receiver, headers):
    email, mail = turn_mail(duo)
    before = db_state(rapp, duo.game_id)
    send(receiver.port, write_reply(mail, email, "1", **headers))
    assert db_state(rapp, duo.game_id) == before
    (row,) = inbound(rapp)
    assert row.status == "ignored" and row.raw.startswith(
        ("Authentication-Results:", "From:", "Return-Path", "Received")
    )


def test_a_bounce_is_ignored(duo, rapp, receiver):
    import smtplib

    email, mail = turn_mail(duo)
    before = db_state(rapp, duo.game_id)
    reply = write_reply(mail, "MAILER-DAEMON@example.org", "1")
    with smtplib.SMTP("127.0.0.1", receiver.port) as client:
        client.send_message(reply, from_addr="<>")
    assert db_state(rapp, duo.game_id) == before
    assert inbound(rapp)[0].status == "ignored"


def test_site_moderators_read_every_inbound_mail_and_what_became_of_it(duo, rapp, receiver):
    """Kept raw with what became of it, for site moderators only: a reply
    quotes its seat's hidden holdings, which a host who plays must not read."""
    from moderation_helpers import site_moderator

    email, mail = turn_mail(duo)
    send(receiver.port, write_reply(mail, email, "1"))
    (row,) = inbound(rapp)
    moderator = site_moderator(rapp)
    page = moderator.get("/moderation/inbound")
    assert page.status_code == 200 and email in page.text and "applied" in page.text
    raw = moderator.get(f"/moderation/inbound/{row.id}")
    assert raw.status_code == 200 and row.message_id.strip("<>") in raw.text
    assert moderator.get("/moderation/inbound?status=refused").text.count(email) == 0
    host = duo.clients[0]  # hosts this game, not a moderator
    assert host.get("/moderation/inbound").status_code == 403
    assert host.get(f"/moderation/inbound/{row.id}").status_code == 403


def test_a_moderator_reads_what_became_of_each_mail_in_their_own_language(duo, rapp, receiver):
    """No word outside the reader's language: the outcomes are
    kept as words, so a German moderator reads them in German."""
    from moderation_helpers import site_moderator

    from server.db import db
    from server.models import User

    email, mail = turn_mail(duo)
    send(receiver.port, write_reply(mail, email, "1"))
    send(receiver.port, write_reply(mail, email, "1"))  # the game has moved on
    moderator = site_moderator(rapp)
    with rapp.app_context(), db.connection_context():
        User.update(language="de").where(User.email == "mod@example.org").execute()
    page = moderator.get("/moderation/inbound").text
    assert "Gespielt: " in page and "Das Spiel ist seit der beantworteten Mail" in page, page
    assert "Played: " not in page and "moved on" not in page
    rows = inbound(rapp)
    assert "Played: " in rows[0].outcome and "moved on" in rows[1].outcome  # and in English
    one = moderator.get(f"/moderation/inbound/{rows[1].id}").text
    assert "Das Spiel ist seit der beantworteten Mail" in one


def test_a_receiver_killed_mid_mail_loses_nothing_and_plays_once(
    sqlite_url, smtp, send_mail, tmp_path
):
    """kill -9 the receiver process in the middle of a mail: the mail server
    got no 250, so it delivers again to the restarted receiver; the move is
    played once, and a further duplicate delivery changes nothing."""
    import os
    import signal
    import smtplib
    import subprocess
    import sys
    from pathlib import Path

    from conftest import free_port

    app = reply_app(sqlite_url, smtp, tmp_path)
    table = Table(app, smtp, send_mail, 2, seed=5)
    table.set_up()
    email, mail = turn_mail(table)
    reply = write_reply(mail, email, "1")
    port = free_port()
    env = dict(
        os.environ,
        DATABASE_URL=app.config["DATABASE_URL"],
        SECRET_KEY="test-secret",
        PBEM_INSTANCE=app.config["INSTANCE_PATH"],
        REPLY_DOMAIN=DOMAIN,
        MAIL_AUTH_SERVERS=AUTHSERV,
        RECEIVER_HOST="127.0.0.1",
        RECEIVER_PORT=str(port),
        SMTP_PORT=str(smtp.port),
    )
    root = Path(__file__).resolve().parents[3]

    def start():
        proc = subprocess.Popen(
            [sys.executable, "-m", "server.processes.receiver"],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                smtplib.SMTP("127.0.0.1", port, timeout=2).quit()
                return proc
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the receiver did not start")

    seq = game_row(app, table.game_id).seq
    victim = start()
    client = smtplib.SMTP("127.0.0.1", port, timeout=10)
    client.ehlo()
    client.mail(email)
    client.rcpt(reply["To"])
    victim.send_signal(signal.SIGKILL)  # before the mail's data arrived
    victim.wait(timeout=10)
    with pytest.raises((smtplib.SMTPException, OSError)):
        client.data(reply.as_bytes())
    assert game_row(app, table.game_id).seq == seq and inbound(app) == []
    survivor = start()
    try:
        send(port, reply)  # the mail server tries again
        send(port, reply)  # and once more, as they do
    finally:
        survivor.terminate()
        survivor.wait(timeout=10)
    rows = inbound(app)
    assert [r.status for r in rows] == ["applied"]
    assert game_row(app, table.game_id).seq > seq


def test_the_answer_to_a_reply_speaks_the_players_language(duo, rapp, receiver):
    """A Dutch player's refused line is explained in Dutch (the menu's
    numbers stay the same in every language)."""
    email, mail = turn_mail(duo)
    with rapp.app_context(), db.connection_context():
        User.update(language="nl").where(User.email == email).execute()
    send(receiver.port, write_reply(mail, email, "42"))
    (answer,) = duo.new_mail(email)
    # Dutch quotes “so” (server/typography.py).
    assert "Regel 1 (“42”) is niet gespeeld: er is geen keuze 42; kies 1 tot" in body_of(answer)

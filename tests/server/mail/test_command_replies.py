"""Commands by mail about no game: /league join, /league standings and
/club join, sent to the account's own commands address (the Reply-To of
league mails), acted on only for an authenticated mail from that account."""

from __future__ import annotations

import datetime as dt
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from clock_helpers import user
from reply_helpers import AUTHSERV, authenticated_by, reply_app

from server.db import db
from server.models import ClubMember, LeagueMember, Outbox, utcnow
from server.services import clubs, command_replies, leagues, replies


@pytest.fixture
def app(sqlite_url, smtp, tmp_path):
    return reply_app(sqlite_url, smtp, tmp_path)


def mail(to: str, sender: str, text: str, authenticated: bool = True) -> bytes:
    message = EmailMessage()
    if authenticated:
        message["Authentication-Results"] = authenticated_by(AUTHSERV, sender)
    message["From"], message["To"], message["Subject"] = sender, to, "commands"
    message["Message-ID"] = make_msgid(domain="client.example")
    message.set_content(text + "\n")
    return bytes(message)


def answers(email: str) -> list[str]:
    return [
        m.body_text
        for m in Outbox.select().where(
            (Outbox.kind == "reply_commands") & (Outbox.to_addr == email)
        )
    ]


def test_league_and_club_commands_by_mail(app):
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        host, player = user("h@example.org", "Hal"), user("p@example.org", "Pia")
        league = leagues.create(
            host, "Winter League", "puerto_rico", starts_at=utcnow() + dt.timedelta(days=1)
        )
        clubs.found(host, "Open Club", "", [], invite_only=False)
        closed = clubs.found(host, "Closed Club", "", [], invite_only=True)
        code = clubs.invitation_token(closed, app.config["SECRET_KEY"])
        to = command_replies.address(app.config, player)
        assert to.endswith("@reply.test")
        text = (
            "/league join winter  league\n/league standings Winter League\n"
            f"/club join Open Club\n/club join Closed Club {code}\n/league join Nowhere"
        )
        row = replies.receive(mail(to, "p@example.org", text), mailer)
        assert row.status == "applied"
        assert LeagueMember.get(LeagueMember.league == league.id).user_id == player.id
        assert {m.club.name for m in ClubMember.select().where(ClubMember.user == player.id)} == {
            "Open Club",
            "Closed Club",
        }
        (answer,) = answers("p@example.org")
        assert "You are in the league Winter League." in answer
        assert "1st: Pia, 0 points" in answer
        assert "Welcome: you are a member of Closed Club." in answer
        assert "There is no league named Nowhere." in answer

        again = replies.receive(mail(to, "p@example.org", "/league join Winter League"), mailer)
        assert again.status == "applied"
        assert "in this league already" in answers("p@example.org")[-1]
        assert LeagueMember.select().count() == 1


def test_a_wrong_sender_or_an_unproven_mail_changes_nothing(app):
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        host, player = user("h@example.org", "Hal"), user("p@example.org", "Pia")
        user("x@example.org", "Xan")
        leagues.create(
            host, "Winter League", "puerto_rico", starts_at=utcnow() + dt.timedelta(days=1)
        )
        to = command_replies.address(app.config, player)
        other = replies.receive(mail(to, "x@example.org", "/league join Winter League"), mailer)
        unproven = replies.receive(
            mail(to, "p@example.org", "/league join Winter League", authenticated=False), mailer
        )
        assert (other.status, unproven.status) == ("ignored", "ignored")
        assert "Not authenticated" in str(unproven.outcome)
        assert LeagueMember.select().count() == 0
        assert answers("p@example.org") == [] and answers("x@example.org") == []


def test_league_mails_are_answered_at_the_commands_address(app):
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        people = [user(f"r{i}@example.org") for i in range(3)]
        league = leagues.create(
            people[0], "Winter League", "puerto_rico", starts_at=utcnow() + dt.timedelta(hours=1)
        )
        for person in people:
            leagues.join(league, person)
        leagues.sweep(mailer, league.starts_at)
        started = Outbox.get((Outbox.kind == "league_round") & (Outbox.to_addr == "r1@example.org"))
        assert started.headers["Reply-To"] == command_replies.address(app.config, people[1])

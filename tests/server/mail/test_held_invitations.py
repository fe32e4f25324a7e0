"""Invitations held back by an address's daily limit: not refused, kept;
the host's page says in words what waits and until when (the host's time
zone and language); one mail a day later lists every one still open, with
the never-invite link; a started lobby's invitation and an address that
asked never to be invited get nothing; a second run, or two schedulers at
once, write the mail once.  SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import re
import threading

from babel.dates import format_date, format_time
from clock_helpers import user
from test_mail_limits import in_db, invitations_to, invite, open_lobby

from server.db import db
from server.mail import limits
from server.models import Invitation, NeverInvite, Outbox, User
from server.processes.scheduler import Scheduler
from server.services import games, held_invitations
from server.services.clock.deadlines import zone

STRANGER = "stranger@example.org"


def held_mails(app, to: str = STRANGER) -> list[Outbox]:
    return in_db(
        app,
        lambda: list(
            Outbox.select()
            .where((Outbox.kind == "invite_held") & (Outbox.to_addr == to))
            .order_by(Outbox.id)
        ),
    )


def a_day_later(app) -> None:
    """Every mail and hold moved 25 hours into the past: the limit has room."""

    def move():
        back = dt.timedelta(hours=25)
        for mail in Outbox.select():
            Outbox.update(created_at=mail.created_at - back).where(Outbox.id == mail.id).execute()
        for held in Invitation.select().where(Invitation.held_until.is_null(False)):
            Invitation.update(held_until=held.held_until - back).where(
                Invitation.id == held.id
            ).execute()

    in_db(app, move)


def joins(app, body: str) -> list[int]:
    """The games of the join links in a mail's body, in order."""
    links = app.extensions["pbem_mailer"].links
    urls = re.findall(r"http://localhost/j/[\w.-]+", body)
    return in_db(app, lambda: [links.read_join(url.rsplit("/", 1)[1]).id for url in urls])


def run_job(app) -> int:
    """The scheduler's own job (its sweep runs it): the mails it wrote."""
    work = Scheduler(app.config, db.obj)
    before = len(held_mails(app))
    in_db(app, work.held_invitations)
    return len(held_mails(app)) - before


def service_lobby(app, host_email: str, name: str) -> tuple[User, int]:
    mailer = app.extensions["pbem_mailer"]

    def make():
        host = User.get_or_none(User.email == host_email) or user(host_email)
        return host, games.create_game(host, "puerto_rico", name, 2, {}, 48, [24], mailer).id

    return in_db(app, make)


def invite_by(app, host: User, game_id: int, emails: list[str]):
    mailer = app.extensions["pbem_mailer"]
    return in_db(app, lambda: games.invite_all(game_id, host, emails, mailer))


def test_a_second_hosts_invitation_is_held_said_on_the_page_and_mailed_a_day_later(app):
    one, first = open_lobby(app, "one@example.org", "Una")
    two, second = open_lobby(app, "two@example.org", "Tove", game_name="Second table")
    in_db(
        app,
        lambda: (
            User.update(language="nl", timezone="Asia/Tokyo")
            .where(User.email == "two@example.org")
            .execute()
        ),
    )
    assert invite(one, first, [STRANGER]).status_code == 200
    page = invite(two, second, [STRANGER])
    assert page.status_code == 200
    assert len(invitations_to(app, STRANGER)) == 1  # one mail now
    (mailed,) = invitations_to(app, STRANGER)
    held = in_db(app, lambda: Invitation.get(Invitation.game == second))
    assert held.held_until == mailed.created_at + dt.timedelta(days=1)
    # The host's page says it in words, in Dutch, at Tokyo's time.
    local = held.held_until.replace(tzinfo=dt.UTC).astimezone(zone("Asia/Tokyo"))
    lobby = two.get(f"/games/{second}/lobby").text
    line = lobby.split('<ul id="held">')[1].split("</ul>")[0]
    assert STRANGER in line
    assert format_date(local, "full", locale="nl") in line
    assert format_time(local, "HH:mm", locale="nl") in line and "Asia/Tokyo" in line
    # The first host's page holds nothing.
    assert '<ul id="held">' not in one.get(f"/games/{first}/lobby").text

    assert run_job(app) == 0  # not due yet
    a_day_later(app)
    assert run_job(app) == 1
    assert run_job(app) == 0  # written once
    (mail,) = held_mails(app)
    assert joins(app, mail.body_text) == joins(app, mail.body_html) == [second]
    assert "Second table" not in mail.body_text  # a stranger reads no user's text
    assert mail.headers["List-Unsubscribe"].startswith("<http://localhost/mail/never-invite/")
    assert mail.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    lobby = two.get(f"/games/{second}/lobby").text
    assert '<ul id="held">' not in lobby and STRANGER in lobby  # among the invited now
    # It counts as the address's invitation of the day.
    assert not in_db(app, lambda: limits.allows(app.config, "invite", STRANGER, stranger=True))


def test_one_mail_lists_every_open_held_game_and_drops_a_started_one(app):
    first_host, first = service_lobby(app, "a@example.org", "A")
    assert invite_by(app, first_host, first, [STRANGER]).sent == [STRANGER]
    lobbies = [service_lobby(app, f"{n}@example.org", n) for n in ("b", "c", "d")]
    for host, game_id in lobbies:
        assert invite_by(app, host, game_id, [STRANGER]).held == [STRANGER]
    # The lobby of b starts (its seat filled by somebody else) before the mail goes.
    mailer = app.extensions["pbem_mailer"]
    b_host, b_game = lobbies[0]

    def start_b():
        games.join(b_game, user("friend@example.org"), 1)
        games.start(b_game, b_host, mailer)

    in_db(app, start_b)
    a_day_later(app)
    assert run_job(app) == 1
    (mail,) = held_mails(app)
    assert joins(app, mail.body_text) == [game_id for _, game_id in lobbies[1:]]
    assert in_db(app, lambda: held_invitations.waiting(STRANGER).count()) == 0
    assert run_job(app) == 0 and len(held_mails(app)) == 1


def test_an_address_that_asked_never_to_be_invited_gets_no_held_mail(app):
    a_host, a_game = service_lobby(app, "a@example.org", "A")
    b_host, b_game = service_lobby(app, "b@example.org", "B")
    invite_by(app, a_host, a_game, [STRANGER])
    assert invite_by(app, b_host, b_game, [STRANGER]).held == [STRANGER]
    in_db(app, lambda: NeverInvite.create(address_hash=limits.address_hash(STRANGER)))
    a_day_later(app)
    assert run_job(app) == 0
    assert held_mails(app) == []
    assert in_db(app, lambda: held_invitations.waiting(STRANGER).count()) == 0


def test_two_schedulers_at_once_write_the_mail_once(app):
    a_host, a_game = service_lobby(app, "a@example.org", "A")
    b_host, b_game = service_lobby(app, "b@example.org", "B")
    invite_by(app, a_host, a_game, [STRANGER])
    invite_by(app, b_host, b_game, [STRANGER])
    a_day_later(app)
    mailer = app.extensions["pbem_mailer"]
    barrier, written = threading.Barrier(2), []

    def scheduler():
        with app.app_context(), db.connection_context():
            barrier.wait()
            written.append(held_invitations.send_due(app.config, mailer))

    threads = [threading.Thread(target=scheduler) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(written) == [0, 1]
    assert len(held_mails(app)) == 1


def test_a_held_mail_waits_again_when_another_invitation_took_the_room(app):
    a_host, a_game = service_lobby(app, "a@example.org", "A")
    b_host, b_game = service_lobby(app, "b@example.org", "B")
    invite_by(app, a_host, a_game, [STRANGER])
    invite_by(app, b_host, b_game, [STRANGER])
    a_day_later(app)
    # Meanwhile a mail of the limit's kinds went to the address (as an
    # invitation from a host it agreed to hear from does).
    in_db(
        app,
        lambda: app.extensions["pbem_mailer"].invitation(
            games.Game.get_by_id(a_game), "Puerto Rico", a_host, "other@example.org"
        ),
    )
    in_db(
        app,
        lambda: (
            Outbox.update(to_addr=STRANGER).where(Outbox.to_addr == "other@example.org").execute()
        ),
    )
    assert run_job(app) == 0
    (waiting,) = in_db(app, lambda: list(held_invitations.waiting(STRANGER)))
    assert waiting.held_until > dt.datetime.now(dt.UTC).replace(tzinfo=None) + dt.timedelta(
        hours=23
    )


def test_a_held_invitation_counts_against_the_inviters_own_limit(app):
    a_host, a_game = service_lobby(app, "a@example.org", "A")
    b_host, b_game = service_lobby(app, "b@example.org", "B")
    app.config["INVITES_PER_USER_PER_DAY"] = 1
    invite_by(app, a_host, a_game, [STRANGER])
    assert invite_by(app, b_host, b_game, [STRANGER]).held == [STRANGER]
    mailer = app.extensions["pbem_mailer"]

    def one_more():
        try:
            games.invite_all(b_game, b_host, ["friend@example.org"], mailer)
        except games.TooManyInvitations as refused:
            return str(refused.args[0])
        return "sent"

    assert "you have 0 left" in in_db(app, one_more)
    assert invitations_to(app, "friend@example.org") == []

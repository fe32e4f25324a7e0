"""A player who plays by mail only (here an account without a password, as
a moderator's replacement account is) answers a takeback and a rematch by
replying yes or no, through the real receiver; the answer mail says what
happened.  SQLite and PostgreSQL."""

from __future__ import annotations

import random

import pytest
from clock_helpers import started_game
from moderation_helpers import in_db
from reply_helpers import body_of, reply_app, reply_to, send, start_receiver, write_reply
from test_rematches import finished_game
from test_takebacks import until_another_seat

from server.models import Game, InboundMail, Rematch, Seat, Takeback, User
from server.services import question_links, rematches, takebacks
from server.services.accounts import NO_PASSWORD


@pytest.fixture
def mail_app(db_url, smtp, tmp_path):
    return reply_app(db_url, smtp, tmp_path)


def mailer(app):
    return app.extensions["pbem_mailer"]


def mail_only(app, email: str) -> None:
    in_db(
        app,
        lambda: User.update(password_hash=NO_PASSWORD).where(User.email == email).execute(),
    )


def last_mail(smtp, email: str, words: str):
    found = [m for m in smtp.to(email) if words in body_of(m)]
    assert found, f"no mail with {words!r} to {email}"
    return found[-1]


def replies_by_mail(app, *mails) -> None:
    controller = start_receiver(app)
    try:
        for mail in mails:
            send(controller.port, mail)
    finally:
        controller.stop()


def test_a_mail_only_player_agrees_to_a_takeback_by_reply(mail_app, smtp, send_mail):
    app = mail_app
    game = started_game(app, players=2, tag="mt")
    seat, seq = until_another_seat(app, game.id, random.Random(3))
    asker = in_db(
        app, lambda: User.get_by_id(Seat.get((Seat.game == game.id) & (Seat.index == seat)).user)
    )
    other = f"mt{1 - seat}@example.org"
    mail_only(app, other)
    current = in_db(app, lambda: Game.get_by_id(game.id).seq)
    in_db(app, lambda: takebacks.ask(game.id, asker, current, seq, mailer=mailer(app)))
    send_mail(app)
    request = last_mail(smtp, other, "asks to take back")
    assert reply_to(request).startswith("play+")
    assert "/answer/" in body_of(request)

    # A reply that is no answer changes nothing and says why.
    replies_by_mail(app, write_reply(request, other, "What do you mean?"))
    assert in_db(app, lambda: Takeback.get(Takeback.game == game.id).status) == "open"
    replies_by_mail(app, write_reply(request, other, "Yes, go ahead.", lang="nl"))
    held = in_db(app, lambda: Takeback.get(Takeback.game == game.id))
    assert held.status == "done"
    rows = in_db(app, lambda: list(InboundMail.select().order_by(InboundMail.id)))
    assert [r.status for r in rows] == ["refused", "applied"]
    send_mail(app)
    answered = last_mail(smtp, other, "We got your answer by mail")
    assert "Everybody agreed: the move is taken back." in body_of(answered)
    refused = last_mail(smtp, other, "changed nothing")
    assert "Answer with yes or no" in body_of(refused)


def test_mail_only_players_answer_a_rematch_by_reply(mail_app, smtp, send_mail):
    app = mail_app
    old = finished_game(app, "mr")
    for index in (0, 2):
        mail_only(app, f"mr{index}@example.org")
    proposer = in_db(app, lambda: User.get(User.email == "mr1@example.org"))
    in_db(app, lambda: rematches.propose(old.id, proposer, mailer(app)))
    send_mail(app)
    first = last_mail(smtp, "mr0@example.org", "proposes a rematch")
    second = last_mail(smtp, "mr2@example.org", "proposes a rematch")
    # A reply from another address than the asked account's answers nothing.
    replies_by_mail(app, write_reply(first, "mr2@example.org", "yes"))
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).agreed) == []
    replies_by_mail(
        app,
        write_reply(first, "mr0@example.org", "Ja!", lang="de"),
        write_reply(second, "mr2@example.org", "oui, avec plaisir", lang="fr"),
    )
    rematch = in_db(app, lambda: Rematch.get(Rematch.game == old.id))
    assert rematch.status == "started" and rematch.new_game_id is not None
    send_mail(app)
    answered = last_mail(smtp, "mr2@example.org", "We got your answer by mail")
    assert "the new game has started" in body_of(answered)


def test_no_in_any_language_refuses_and_a_second_answer_changes_nothing(mail_app, smtp, send_mail):
    app = mail_app
    old = finished_game(app, "mn")
    proposer = in_db(app, lambda: User.get(User.email == "mn0@example.org"))
    in_db(app, lambda: rematches.propose(old.id, proposer, mailer(app)))
    send_mail(app)
    request = last_mail(smtp, "mn1@example.org", "proposes a rematch")
    replies_by_mail(app, write_reply(request, "mn1@example.org", "Nein, danke.", lang="de"))
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).status) == "refused"
    other = last_mail(smtp, "mn2@example.org", "proposes a rematch")
    replies_by_mail(app, write_reply(other, "mn2@example.org", "yes"))
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).status) == "refused"
    send_mail(app)
    late = last_mail(smtp, "mn2@example.org", "changed nothing")
    assert "no longer holds" in body_of(late)


def test_an_unproven_answer_waits_for_the_players_confirmation(mail_app, smtp, send_mail):
    app = mail_app
    old = finished_game(app, "mc")
    proposer = in_db(app, lambda: User.get(User.email == "mc0@example.org"))
    in_db(app, lambda: rematches.propose(old.id, proposer, mailer(app)))
    send_mail(app)
    request = last_mail(smtp, "mc1@example.org", "proposes a rematch")
    replies_by_mail(app, write_reply(request, "mc1@example.org", "no", authenticated=False))
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).status) == "open"
    assert [r.status for r in in_db(app, lambda: list(InboundMail.select()))] == ["held"]
    send_mail(app)
    confirm = last_mail(smtp, "mc1@example.org", "We got this answer by mail to a question")
    replies_by_mail(app, write_reply(confirm, "mc1@example.org", "yes", authenticated=False))
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).status) == "refused"


def test_the_words_that_answer():
    says = question_links.says
    assert [says([w]) for w in ("Yes.", "ja", "OUI!", "no", "Nee", "nein,", "non")] == [
        True,
        True,
        True,
        False,
        False,
        False,
        False,
    ]
    assert says(["", "  yes please"]) is True
    assert says(["I am away until Monday"]) is None and says([]) is None

"""The link in a takeback, proposal or rematch mail works for an account
without a password: its GET shows the question with yes and no and changes
nothing, signs nobody in; its POST (CSRF token, bound to the link) answers.
A replayed, expired or tampered link gets a clear 4xx page, never a 500.
SQLite and PostgreSQL."""

from __future__ import annotations

import random
import re
import time

from clock_helpers import started_game
from moderation_helpers import in_db
from test_rematches import finished_game
from test_takebacks import until_another_seat
from web_helpers import form_for, text_of

from server.models import Game, Rematch, Seat, Takeback, User
from server.services import question_links, rematches, takebacks
from server.services.accounts import NO_PASSWORD


def mailer(app):
    return app.extensions["pbem_mailer"]


def link_in(smtp, email: str, words: str) -> str:
    mails = [m for m in smtp.to(email) if words in text_of(m)]
    assert mails, f"no mail with {words!r} to {email}"
    url = re.search(r"https?://\S+?(/answer/[A-Za-z0-9._-]+)", text_of(mails[-1]))
    assert url is not None
    return url.group(1)


def proposed_rematch(app, smtp, send_mail, tag: str) -> Game:
    old = finished_game(app, tag)
    for index in (0, 2):
        in_db(
            app,
            lambda i=index: (
                User.update(password_hash=NO_PASSWORD)
                .where(User.email == f"{tag}{i}@example.org")
                .execute()
            ),
        )
    proposer = in_db(app, lambda: User.get(User.email == f"{tag}1@example.org"))
    in_db(app, lambda: rematches.propose(old.id, proposer, mailer(app)))
    send_mail(app)
    return old


def signed_in(client) -> bool:
    with client.session_transaction() as session:
        return "_user_id" in session


def test_the_link_shows_the_question_and_only_the_post_answers(app, smtp, send_mail):
    old = proposed_rematch(app, smtp, send_mail, "la")
    link = link_in(smtp, "la0@example.org", "proposes a rematch")
    client = app.test_client()
    page = client.get(link)
    assert page.status_code == 200 and "LA 2 proposes a rematch" in page.text
    assert 'value="yes"' in page.text and 'value="no"' in page.text
    assert not signed_in(client)
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).agreed) == []

    form = form_for(page.text, link)
    # Without the CSRF token, or with the form's binding changed: refused.
    assert client.post(link, data={"answer": "yes"}).status_code == 400
    broken = dict(form["fields"], bound="0" * 64, answer="yes")
    assert client.post(link, data=broken).status_code == 400
    # A form from this link's page does not answer through another link.
    other = link_in(smtp, "la2@example.org", "proposes a rematch")
    assert client.post(other, data=dict(form["fields"], answer="yes")).status_code == 400
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).agreed) == []

    done = client.post(link, data=dict(form["fields"], answer="yes"))
    assert done.status_code == 200 and "waits for the other players" in done.text
    assert not signed_in(client)
    la0 = in_db(app, lambda: User.get(User.email == "la0@example.org").id)
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).agreed) == [la0]

    # Replayed: the question waits for nobody's answer through this link now.
    again = client.get(link)
    assert again.status_code == 410 and "no longer waits for your answer" in again.text
    replay = client.post(link, data=dict(form["fields"], answer="no"))
    assert replay.status_code == 410
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).status) == "open"

    second = app.test_client()
    page = second.get(other)
    said = second.post(other, data=dict(form_for(page.text, other)["fields"], answer="yes"))
    assert said.status_code == 200 and "the new game has started" in said.text
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).status) == "started"


def test_tampered_expired_and_foreign_links_get_a_clear_page(app, smtp, send_mail, monkeypatch):
    old = proposed_rematch(app, smtp, send_mail, "lt")
    link = link_in(smtp, "lt0@example.org", "proposes a rematch")
    client = app.test_client()
    tampered = link[:-3] + ("aaa" if not link.endswith("aaa") else "bbb")
    for bad in (tampered, "/answer/nonsense", "/answer/" + "x" * 500):
        page = client.get(bad)
        assert page.status_code == 404 and "This link is not valid" in page.text
    secret = app.config["SECRET_KEY"]
    user_id = in_db(app, lambda: User.get(User.email == "lt0@example.org").id)
    rematch_id = in_db(app, lambda: Rematch.get(Rematch.game == old.id).id)
    with monkeypatch.context() as patched:
        long_ago = time.time() - question_links.LINK_MAX_AGE.total_seconds() - 60
        patched.setattr(time, "time", lambda: long_ago)
        expired = question_links.token(secret, old.id, question_links.REMATCH, rematch_id, user_id)
    page = client.get(f"/answer/{expired}")
    assert page.status_code == 410 and "This link has expired" in page.text
    # Signed by us, but for a question this account is not asked.
    proposer = in_db(app, lambda: User.get(User.email == "lt1@example.org").id)
    foreign = question_links.token(secret, old.id, question_links.REMATCH, rematch_id, proposer)
    assert client.get(f"/answer/{foreign}").status_code == 410
    # A link of another purpose (a club invitation's salt) is not one.
    assert client.get(f"/answer/{question_links.token('other', 1, 0, 1, 1)}").status_code == 404
    assert in_db(app, lambda: Rematch.get(Rematch.game == old.id).agreed) == []


def test_a_player_without_a_password_refuses_a_takeback_by_link(app, smtp, send_mail):
    game = started_game(app, players=2, tag="lk")
    seat, seq = until_another_seat(app, game.id, random.Random(5))
    asker = in_db(
        app, lambda: User.get_by_id(Seat.get((Seat.game == game.id) & (Seat.index == seat)).user)
    )
    other = f"lk{1 - seat}@example.org"
    in_db(
        app,
        lambda: User.update(password_hash=NO_PASSWORD).where(User.email == other).execute(),
    )
    current = in_db(app, lambda: Game.get_by_id(game.id).seq)
    in_db(app, lambda: takebacks.ask(game.id, asker, current, seq, mailer=mailer(app)))
    send_mail(app)
    link = link_in(smtp, other, "asks to take back")
    client = app.test_client()
    page = client.get(link)
    assert page.status_code == 200 and "asks to take back" in page.text
    said = client.post(link, data=dict(form_for(page.text, link)["fields"], answer="no"))
    assert said.status_code == 200 and "nothing is taken back" in said.text
    assert in_db(app, lambda: Takeback.get(Takeback.game == game.id).status) == "refused"
    assert not signed_in(client)

"""Table talk: players post short messages on the game
page or by replying to a table-talk mail; the other players get them by mail,
and whatever a seat has not had yet rides along in its next turn mail and
digest; a moderator can hide one, on the record.  SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from game_driver import Table, current_turn, db_state
from moderation_helpers import in_db, moderation_page, notes, site_moderator
from reply_helpers import body_of, reply_app, reply_to, send, start_receiver, write_reply
from web_helpers import form_for, post_form, seat_link, text_of

from server.models import Seat, TableMessage, User


def say(client, game_id: int, text: str):
    page = client.get(f"/games/{game_id}")
    return post_form(client, form_for(page.text, "/talk"), text=text)


def talk_mails(table: Table, email: str) -> list:
    return [m for m in table.new_mail(email) if "says at the table" in text_of(m)]


def test_a_message_reaches_the_table_and_the_other_players(table):
    gid = table.game_id
    page = say(table.clients[0], gid, "Good luck, everybody!\nMay the best planter win.")
    assert page.status_code == 200
    for client in table.clients:
        assert "Good luck, everybody!" in client.get(f"/games/{gid}").text
    assert talk_mails(table, table.emails[0]) == []  # not to its author
    for email in table.emails[1:]:
        (mail,) = talk_mails(table, email)
        assert "May the best planter win." in text_of(mail)
        # The player's own words keep their capital.
        assert text_of(mail).startswith("Player 1 says: Good luck, everybody!")
        assert mail["Subject"].startswith("[pbem] ") and mail["Subject"].endswith(f" (#{gid})")


def test_only_players_talk_and_only_short_messages(table):
    gid = table.game_id
    outsider = site_moderator(table.app, "watcher@example.org", "Watcher")
    before = db_state(table.app, gid)
    too_long = say(table.clients[1], gid, "x" * 501)
    assert too_long.status_code == 400
    token = __import__("web_helpers").csrf(outsider.get("/").text)
    refused = outsider.post(f"/games/{gid}/talk", data={"csrf_token": token, "text": "hi"})
    assert refused.status_code == 403
    assert db_state(table.app, gid) == before
    assert in_db(table.app, lambda: TableMessage.select().count()) == 0


def test_a_seat_link_is_enough_to_talk(table):
    seat, client, page, mail = current_turn(table)
    stranger = table.app.test_client()
    stranger.get(seat_link(mail))
    assert say(stranger, table.game_id, "Sent from my phone").status_code == 200
    row = in_db(table.app, lambda: TableMessage.get())
    assert row.seat == seat and row.text == "Sent from my phone"


def test_what_a_digest_reader_missed_rides_along_once(table):
    app, gid = table.app, table.game_id
    seat, client, page, mail = current_turn(table)
    reader = table.emails[seat]
    in_db(app, lambda: User.update(mail_mode="digest").where(User.email == reader).execute())
    other = (seat + 1) % 3
    say(table.clients[other], gid, "Your move, take your time.")
    assert talk_mails(table, reader) == []  # no talk mail: digest reader
    from server.services.clock.sweep import waiting_games

    items = in_db(
        app, lambda: waiting_games(app.extensions["pbem_mailer"], User.get(User.email == reader))
    )
    (item,) = items
    assert [m["text"] for m in item["talk"]] == ["Your move, take your time."]
    again = in_db(
        app, lambda: waiting_games(app.extensions["pbem_mailer"], User.get(User.email == reader))
    )
    assert again[0]["talk"] == []  # once


def test_a_message_rides_along_in_the_next_turn_mail(table):
    """Someone who had no talk mail (mail off for it) reads it in the turn mail."""
    import random

    from moderation_helpers import outbox, random_moves

    app, gid = table.app, table.game_id
    seat = table.game().to_move
    nxt = (seat + 1) % 3
    in_db(
        app,
        lambda: User.update(optional_mail=False).where(User.email == table.emails[nxt]).execute(),
    )
    say(table.clients[(seat + 2) % 3], gid, "Watch the coffee.")
    assert talk_mails(table, table.emails[nxt]) == []
    before = len(outbox(app, "turn", table.emails[nxt]))
    rnd = random.Random(3)
    while table.game().to_move != nxt:
        random_moves(app, gid, 1, rnd)
    turns = outbox(app, "turn", table.emails[nxt])[before:]
    assert turns and "Watch the coffee." in turns[0].body_text
    seen = in_db(app, lambda: Seat.get((Seat.game == gid) & (Seat.index == nxt)).talk_seen_id)
    assert seen == in_db(app, lambda: TableMessage.get().id)


def test_a_moderator_hides_a_message_on_the_record(table):
    app, gid = table.app, table.game_id
    say(table.clients[1], gid, "Something rude")
    moderator = site_moderator(app)
    page = moderation_page(moderator, gid)
    hidden = post_form(moderator, form_for(page.text, "/hide"), **{"hide-reason": "Be kind"})
    assert "is hidden" in hidden.text
    shown = table.clients[2].get(f"/games/{gid}").text
    assert "Something rude" not in shown and "hidden by a moderator: Be kind" in shown
    (note,) = notes(app, gid)
    assert note.action["note"] == "hide_talk" and note.action["reason"] == "Be kind"
    assert in_db(app, lambda: TableMessage.get().text) == "Something rude"  # kept


@pytest.fixture
def talk_table(db_url, smtp, send_mail, tmp_path):
    app = reply_app(db_url, smtp, tmp_path)
    table = Table(app, smtp, send_mail, 2, seed=9)
    table.set_up()
    return table


def test_replying_to_a_talk_mail_posts_to_the_table(talk_table):
    table = talk_table
    app, gid = table.app, table.game_id
    say(table.clients[0], gid, "Shall we speed up?")
    (mail,) = talk_mails(table, table.emails[1])
    assert reply_to(mail).startswith("play+")
    controller = start_receiver(app)
    try:
        send(controller.port, write_reply(mail, table.emails[1], "Yes, one move a day."))
        send(controller.port, write_reply(mail, "eve@example.org", "I am not playing."))
    finally:
        controller.stop()
    texts = in_db(app, lambda: [m.text for m in TableMessage.select().order_by(TableMessage.id)])
    assert texts == ["Shall we speed up?", "Yes, one move a day."]
    (back,) = talk_mails(table, table.emails[0])
    assert "Yes, one move a day." in body_of(back)

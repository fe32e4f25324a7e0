"""What an incoming mail may change.

A seat that left the game (resigned or removed, away long enough to pass on
its own, handed to a bot) or that was given to another player takes no move
by mail, whatever address the mail came to; a delivery report counts only
when it comes to a return path whose signature holds."""

from __future__ import annotations

import smtplib

import pytest
from inbound_helpers import turn_reply, two_player_game
from reply_helpers import (
    DOMAIN,
    game_row,
    inbound,
    outbox_kinds,
    reply_app,
    send,
)
from test_mail_bounces import postfix_dsn

from server.db import db
from server.mail.bounces import ReturnPaths
from server.mail.reply_address import ReplyAddresses
from server.models import Event, Outbox, Seat, User, utcnow
from server.services import moderation, outbox

BOUNCES = "bounces.test"


@pytest.fixture
def rapp(db_url, smtp, tmp_path):
    return reply_app(db_url, smtp, tmp_path, BOUNCE_DOMAIN=BOUNCES)


def seat_of(app, game_id: int, email: str) -> Seat:
    with app.app_context(), db.connection_context():
        return Seat.select().join(User).where((Seat.game == game_id) & (User.email == email)).get()


def newest_address(app, game_id: int, email: str) -> str:
    """The address a mail to the seat would carry now: its link version, the
    game's position (what an answer mail after the change hands out)."""
    seat = seat_of(app, game_id, email)
    game = game_row(app, game_id)
    return ReplyAddresses("test-secret", DOMAIN).for_seat(
        game_id, seat.index, seat.link_version, game.seq
    )


def moves(app, game_id: int) -> int:
    with app.app_context(), db.connection_context():
        return Event.select().where((Event.game == game_id) & (Event.kind == "move")).count()


def leave(app, game_id: int, email: str, how: str) -> None:
    mailer = app.extensions["pbem_mailer"]
    seq = game_row(app, game_id).seq
    with app.app_context(), db.connection_context():
        user = User.get(User.email == email)
        if how == "resigned":
            moderation.resign(game_id, user, seq, "", mailer=mailer)
        else:
            # The state the clocks (absent after timeouts) and bot_seats leave.
            changes = {"absent": {"absent": True}, "given to a bot": {"bot": "steady"}}[how]
            Seat.update(**changes).where((Seat.game == game_id) & (Seat.user == user.id)).execute()


@pytest.mark.parametrize("how", ["resigned", "absent", "given to a bot"])
@pytest.mark.parametrize("answered", ["the old mail", "the newest address"])
def test_a_seat_that_left_takes_no_move_by_mail(rapp, receiver, how, answered):
    game = two_player_game(rapp, "t")
    email, _, old_reply = turn_reply(rapp, game.id, "1")
    leave(rapp, game.id, email, how)
    before = (game_row(rapp, game.id).seq, moves(rapp, game.id))
    reply = old_reply
    if answered == "the newest address":
        _, _, reply = turn_reply(rapp, game.id, "1", reply_to=newest_address(rapp, game.id, email))
    send(receiver.port, reply)
    assert (game_row(rapp, game.id).seq, moves(rapp, game.id)) == before
    (row,) = inbound(rapp)
    assert row.status == "refused", row.outcome
    with rapp.app_context(), db.connection_context():
        answer = (
            Outbox.select()
            .where((Outbox.to_addr == email) & (Outbox.kind.startswith("reply_")))
            .get()
        )
    # No choices and no fresh address to answer: nothing to play with.
    assert not answer.headers.get("Reply-To") and "1. " not in answer.body_text


def test_a_replaced_players_addresses_are_dead_for_both_players(rapp, receiver):
    game = two_player_game(rapp, "t")
    email, _, old_reply = turn_reply(rapp, game.id, "1")
    index = seat_of(rapp, game.id, email).index
    mailer = rapp.extensions["pbem_mailer"]
    seq = game_row(rapp, game.id).seq
    with rapp.app_context(), db.connection_context():
        moderator = User.create(
            email="mod@example.org",
            name="Mod",
            password_hash="-",
            email_verified_at=utcnow(),
            is_moderator=True,
        )
        moderation.replace(
            game.id, moderator, seq, index, "new@example.org", "New", "gone for good", mailer=mailer
        )
        User.update(email_verified_at=utcnow()).where(User.email == "new@example.org").execute()
    before = (game_row(rapp, game.id).seq, moves(rapp, game.id))
    old_address = old_reply["To"]
    stale_for_the_new = ReplyAddresses("test-secret", DOMAIN).for_seat(
        game.id, index, 1, game_row(rapp, game.id).seq
    )
    send(receiver.port, old_reply)  # the old player, old address
    _, _, again = turn_reply(rapp, game.id, "1", reply_to=stale_for_the_new)
    send(receiver.port, again)  # the old player, current position
    del again["From"], again["Message-ID"]
    again["From"], again["Message-ID"] = "new@example.org", "<new-player@example.org>"
    send(receiver.port, again)  # the new player, the old address
    assert (game_row(rapp, game.id).seq, moves(rapp, game.id)) == before
    assert [r.status for r in inbound(rapp)] == ["refused"] * 3
    assert old_address != stale_for_the_new


# -- bounces ----------------------------------------------------------------------------
@pytest.fixture
def sent_turn_mail(rapp, send_mail):
    """A game whose first turn mail went out: (game, its outbox row)."""
    game = two_player_game(rapp, "b")
    send_mail(rapp)
    with rapp.app_context(), db.connection_context():
        row = Outbox.get((Outbox.game == game.id) & (Outbox.kind == "turn"))
    assert row.status == "sent"
    return game, row


@pytest.mark.parametrize(
    "return_path",
    ["bounce+forged@bounces.test", "signed with another key", "postmaster@example.org"],
)
def test_a_report_that_only_quotes_our_message_id_changes_nothing(
    rapp, sent_turn_mail, return_path
):
    """A report anybody can write: it quotes the turn mail's real Message-ID
    but came to no signed return path of ours."""
    game, row = sent_turn_mail
    if return_path == "signed with another key":
        return_path = ReturnPaths("another key", BOUNCES).for_outbox(row.id)
    raw = postfix_dsn(return_path, row, row.to_addr)
    with rapp.app_context(), db.connection_context():
        assert outbox.handle_bounce(raw, rapp.config, envelope_to=[return_path]) is False
        assert Outbox.get_by_id(row.id).status == "sent"
    assert seat_of(rapp, game.id, row.to_addr).mail_hold_since is None


def test_a_report_to_the_signed_return_path_through_the_receiver_counts(
    rapp, receiver, sent_turn_mail
):
    game, row = sent_turn_mail
    return_path = ReturnPaths.from_settings(rapp.config).for_outbox(row.id)
    forged = "bounce+forged@bounces.test"
    with smtplib.SMTP("127.0.0.1", receiver.port, timeout=30) as smtp:
        wire = postfix_dsn(return_path, row, row.to_addr).replace(b"\n", b"\r\n")
        smtp.sendmail("", [return_path], wire)
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            smtp.sendmail("", [forged], postfix_dsn(forged, row, row.to_addr))
    with rapp.app_context(), db.connection_context():
        assert Outbox.get_by_id(row.id).status == "bounced"
    assert seat_of(rapp, game.id, row.to_addr).mail_hold_since is not None
    assert outbox_kinds(rapp, row.to_addr).count("turn") == 1

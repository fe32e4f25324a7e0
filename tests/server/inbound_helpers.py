"""Helpers for the inbound mail tests: games made through the
services in a blink (no pages, no password hashing), and replies to their
turn mails written by reply_helpers.write_reply, as the reply tests write
them."""

from __future__ import annotations

from reply_helpers import write_reply

from server.db import db
from server.mail.smtp_sender import build_message
from server.models import Game, Outbox, User, utcnow
from server.services import games


def two_player_game(app, tag: str) -> Game:
    """A started Puerto Rico game of two confirmed players ``{tag}1@`` and
    ``{tag}2@example.org``; the first turn mail is in the outbox."""
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        people = [
            User.create(
                email=f"{tag}{i}@example.org",
                name=f"{tag} {i}",
                password_hash="-",
                email_verified_at=utcnow(),
            )
            for i in (1, 2)
        ]
        game = games.create_game(people[0], "puerto_rico", f"Game {tag}", 2, {}, 48, [24], mailer)
        games.join(game.id, people[1], 1)
        return games.start(game.id, people[0], mailer)


def turn_reply(app, game_id: int, text: str, reply_to: str = ""):
    """(player, other player, reply): ``text`` answering the newest turn mail
    of the game, as the player to move writes it; ``reply_to`` replaces the
    address the mail gave."""
    with app.app_context(), db.connection_context():
        turn = (
            Outbox.select()
            .where((Outbox.game == game_id) & (Outbox.kind == "turn"))
            .order_by(Outbox.id.desc())
            .get()
        )
        mail = build_message(turn, app.config["MAIL_FROM"])
    if reply_to:
        del mail["Reply-To"]
        mail["Reply-To"] = reply_to
    email = turn.to_addr
    tag = email.split("@")[0][:-1]
    other = next(e for e in (f"{tag}1@example.org", f"{tag}2@example.org") if e != email)
    return email, other, write_reply(mail, email, text)

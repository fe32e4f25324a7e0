"""Plays whole games through HTTP the way people would: every turn is reached
from the link in the email that announced it, every move is a form post."""

from __future__ import annotations

import random

from secrets_check import assert_nothing_hidden
from web_helpers import (
    form_for,
    forms,
    links_in,
    move_form,
    path_of,
    post_form,
    seat_link,
    signup,
    text_of,
)

from server.db import db
from server.models import Game


class Table:
    """Players (one test client each) around one game."""

    def __init__(
        self, app, smtp, send_mail, players: int, seed: int = 7, kind: str = "puerto_rico"
    ):
        self.app, self.smtp, self.send_mail, self.kind = app, smtp, send_mail, kind
        self.rng = random.Random(seed)
        self.emails = [f"player{i + 1}@example.org" for i in range(players)]
        self.clients = [app.test_client() for _ in range(players)]
        self.read = {email: 0 for email in self.emails}
        self.checks = 0

    def new_mail(self, email: str) -> list:
        """Mails that arrived for ``email`` since the last call."""
        self.send_mail(self.app)
        mails = self.smtp.to(email)
        fresh, self.read[email] = mails[self.read[email] :], len(mails)
        return fresh

    def seat_of(self, email: str) -> int:
        return self.emails.index(email)

    def set_up(self, game_name: str = "Test table") -> int:
        host = self.clients[0]
        signup(host, "Player 1", self.emails[0])
        self.new_mail(self.emails[0])  # the confirmation, used already
        page = host.get(f"/games/new?kind={self.kind}")
        page = post_form(
            host,
            form_for(page.text, "/games/new"),
            name=game_name,
            kind=self.kind,
            seats=str(len(self.emails)),
            move_hours="48",
            reminder_hours="24,6",
        )
        assert page.status_code == 200, page.text
        self.game_id = int(page.request.path.split("/")[2])
        page = post_form(host, form_for(page.text, "/invite"), emails="\n".join(self.emails[1:]))
        assert "Sent" in page.text
        for i, (client, email) in enumerate(zip(self.clients[1:], self.emails[1:]), start=1):
            self.join_from_invitation(client, email, i)
        page = host.get(f"/games/{self.game_id}/lobby")
        page = post_form(host, form_for(page.text, "/start"))
        assert "The game has started" in page.text, page.text
        return self.game_id

    def join_from_invitation(self, client, email: str, index: int) -> None:
        (invite,) = self.new_mail(email)
        join_path = path_of(next(u for u in links_in(invite) if "/j/" in u))
        page = client.get(join_path)
        assert "sign up" in page.text
        page = signup(client, f"Player {index + 1}", email, next_path=join_path)
        self.new_mail(email)  # the confirmation, used already
        (join,) = [
            f
            for f in forms(page.text)
            if f["action"].endswith("/join") and f["fields"]["seat"] == str(index + 1)
        ]
        page = post_form(client, join)
        assert f"You sit in seat {index + 1}" in page.text, page.text

    def play_out(self, max_turns: int = 5000) -> dict:
        """Play random legal moves until the final-score mails arrive."""
        moves = turns = 0
        while turns < max_turns:
            mails = {email: self.new_mail(email) for email in self.emails}
            finals = [m for ms in mails.values() for m in ms if "is over" in text_of(m)]
            self.check_mails(mails)
            if finals:
                return {"moves": moves, "turns": turns, "finals": mails}
            turn_mails = [
                (e, m) for e, ms in mails.items() for m in ms if "It is your turn in" in text_of(m)
            ]
            assert len(turn_mails) == 1, f"expected one turn mail, got {len(turn_mails)}"
            email, mail = turn_mails[0]
            moves += self.take_turn(email, mail)
            turns += 1
        raise AssertionError("the game did not end")

    def take_turn(self, email: str, mail) -> int:
        client, seat = self.clients[self.seat_of(email)], self.seat_of(email)
        page = client.get(seat_link(mail), follow_redirects=True)
        made = 0
        while (form := move_form(page.text)) is not None:
            self.checks += assert_nothing_hidden(self.app, self.game_id, seat, page.text)
            actions = [v for name, v in form["buttons"] if name == "action"]
            page = post_form(client, form, action=self.rng.choice(actions))
            assert page.status_code == 200, page.text
            made += 1
        assert made, "the link from the turn mail showed no move form"
        # Somebody else looks at the game page meanwhile: it must hide the same.
        other = self.rng.choice([i for i in range(len(self.emails)) if i != seat])
        page = self.clients[other].get(f"/games/{self.game_id}")
        self.checks += assert_nothing_hidden(self.app, self.game_id, other, page.text)
        return made

    def check_mails(self, mails: dict) -> None:
        for email, ms in mails.items():
            for m in ms:
                assert_nothing_hidden(
                    self.app, self.game_id, self.seat_of(email), text_of(m), is_html=False
                )

    def game(self) -> Game:
        with self.app.app_context(), db.connection_context():
            return Game.get_by_id(self.game_id)


def current_turn(table: Table):
    """(seat index, client, page) of whoever the pending turn mail is for."""
    for email in table.emails:
        for mail in table.new_mail(email):
            if "It is your turn in" in text_of(mail):
                seat = table.seat_of(email)
                client = table.clients[seat]
                return seat, client, client.get(seat_link(mail), follow_redirects=True), mail
    raise AssertionError("no turn mail")


def db_state(app, game_id: int) -> tuple:
    """Everything a rejected request must leave as it was."""
    from server.models import Event, Outbox, Seat, Snapshot

    with app.app_context(), db.connection_context():
        game = Game.get_by_id(game_id)
        snap = Snapshot.get(Snapshot.game == game_id)
        return (
            game.seq,
            game.to_move,
            game.status,
            Event.select().where(Event.game == game_id).count(),
            snap.seq,
            str(snap.state),
            Outbox.select().count(),
            tuple(
                (s.index, s.user_id, s.link_version, s.deadline)
                for s in Seat.select().where(Seat.game == game_id).order_by(Seat.index)
            ),
        )

"""A kit for a plug-in game's own tests: one game of an installed game on
a throwaway pbem, played the three ways a seat moves.

    from server.testing import GameDriver

    def test_three_ways_to_move():
        with GameDriver("nim", players=2) as table:  # the game's name
            table.assert_turn_mail_says("take counters from one heap")
            table.play_by_page({"type": "take", "heap": 2, "n": 5})  # a button
            table.play_by_mail("1")  # a reply to the turn mail: its first choice
            table.time_out()  # the sweep plays default_action
            assert table.state()["heaps"] == [1, 4, 0]

(docs/contributors/adding-a-game.md builds that game.)  The server is the
real one: a SQLite file in a temporary folder, the migrations, the pages
through Flask's test client (with their CSRF tokens), the outbox delivered
over SMTP to a catcher on 127.0.0.1, a reply handled as the receiver
handles it, the clock's sweep run past the deadline.  The name is
``server.testing`` because pbem's code ships as the packages ``engine`` and
``server``: there is no ``pbem`` package to put it in.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import socket
import tempfile
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from html.parser import HTMLParser
from typing import Any

from aiosmtpd.controller import Controller
from werkzeug.security import generate_password_hash

from engine import GAMES, get_game
from server import create_app
from server.db import db, migrate
from server.models import Game, Seat, User, utcnow
from server.services import games, outbox, replies
from server.services.clock.sweep import sweep
from server.services.state_store import load_state

# The authserv-id the throwaway server trusts: a reply carrying its
# Authentication-Results counts as sent by its From:, as one passed on by
# the operator's own DKIM-checking mail server does.
AUTHSERV = "mx.testing.invalid"
TURN = "It is your turn in"


class Inbox:
    """An SMTP server on 127.0.0.1 that keeps every mail it is given."""

    def __init__(self) -> None:
        self.mails: list[tuple[str, EmailMessage]] = []
        with socket.socket() as probe:  # aiosmtpd cannot listen on port 0
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    async def handle_DATA(self, server, session, envelope):
        mail = message_from_bytes(envelope.content, policy=policy.default)
        self.mails += [(rcpt, mail) for rcpt in envelope.rcpt_tos]
        return "250 OK"


class GameDriver:
    """One started game of ``kind`` with ``players`` seats, seat i played by
    ``player{i}@example.org`` ("Player {i + 1}"); a context manager that
    cleans up after itself.  ``settings``: any of pbem's, e.g. a language."""

    def __init__(self, kind: str, players: int = 2, options: dict | None = None, **settings):
        if kind not in GAMES:
            raise ValueError(f"no installed game {kind!r}: {', '.join(sorted(GAMES))}")
        self.kind, self.folder = kind, tempfile.mkdtemp(prefix="pbem-testing-")
        self.inbox = Inbox()
        try:
            self._open(players, options or {}, settings)
        except BaseException:  # no thread or folder left behind by a failed start
            self.close()
            raise

    def _open(self, players: int, options: dict, settings: dict) -> None:
        self.app = create_app(
            {
                "DATABASE_URL": f"sqlite:///{self.folder}/pbem.sqlite3",
                "INSTANCE_PATH": f"{self.folder}/instance",
                "SECRET_KEY": "testing-only",
                "TESTING": True,
                "PUBLIC_BASE_URL": "http://localhost",
                "SMTP_HOST": "127.0.0.1",
                "SMTP_PORT": self.inbox.port,
                "SESSION_COOKIE_SECURE": False,
                "REMEMBER_COOKIE_SECURE": False,
                "REPLY_DOMAIN": "reply.testing.invalid",
                "MAIL_AUTH_SERVERS": AUTHSERV,
                "OUTAGE_GRACE_SECONDS": 0,
                "DATABASE_POOL_MAX": 0,
                **settings,
            }
        )
        self.emails = [f"player{i}@example.org" for i in range(players)]
        with self._db():
            migrate()
            self.game_id = self._start(options)

    def _db(self):
        """The app's context and a connection: what a request has."""
        return _Both(self.app.app_context(), db.connection_context())

    def _start(self, options: dict) -> int:
        mailer = self.app.extensions["pbem_mailer"]
        people = [
            User.create(
                email=email,
                name=f"Player {i + 1}",
                password_hash=generate_password_hash("password1"),
                email_verified_at=utcnow(),
            )
            for i, email in enumerate(self.emails)
        ]
        game = games.create_game(
            people[0], self.kind, "Test game", len(people), options, 48, [24, 6], mailer
        )
        for i, person in enumerate(people[1:], start=1):
            games.join(game.id, person, i)
        return games.start(game.id, people[0], mailer).id

    def close(self) -> None:
        self.inbox.controller.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> GameDriver:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading -----------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The game's state as its ``to_json`` writes it."""
        with self._db():
            game = Game.get_by_id(self.game_id)
            return get_game(self.kind).to_json(load_state(game, save=False))

    def game(self) -> Game:
        with self._db():
            return Game.get_by_id(self.game_id)

    def to_move(self) -> int | None:
        """The seat whose turn it is (None once the game is over)."""
        game = self.game()
        return None if game.status == "finished" else game.to_move

    def mails(self, seat: int) -> list[EmailMessage]:
        """Every mail the seat's player was sent so far, oldest first."""
        with self._db():
            # Deliver in rounds until a round sends nothing: a mail sent
            # may queue another (a notice after a turn mail).
            while outbox.deliver(self.app.config)["sent"]:
                pass
        return [mail for rcpt, mail in self.inbox.mails if rcpt == self.emails[seat]]

    def turn_mail(self) -> EmailMessage:
        """The last mail telling the seat to move that it is its turn."""
        seat = self.to_move()
        found = [m for m in self.mails(seat) if TURN in text_of(m)] if seat is not None else []
        if not found:
            raise AssertionError(f"no turn mail for seat {seat}")
        return found[-1]

    def page(self, seat: int, path: str = "", language: str = "en") -> str:
        """The text of a page (default: the game's) as seat ``seat`` sees it,
        reached from the link in its last turn mail, in ``language``."""
        client = self.app.test_client()
        with self._db():
            User.update(language=language).where(User.email == self.emails[seat]).execute()
        link = _seat_link(self.mails(seat))
        client.get(link, follow_redirects=True)
        page = client.get(path or f"/games/{self.game_id}", headers={"Accept-Language": language})
        assert page.status_code == 200, page.text
        return page.text

    # -- the three ways to move --------------------------------------------
    def play_by_page(self, action: dict[str, Any]) -> str:
        """The seat to move opens its turn mail's link and presses the button
        of ``action`` (one the page offers); returns the page it lands on."""
        client = self.app.test_client()
        page = client.get(_seat_link([self.turn_mail()]), follow_redirects=True)
        form = MoveForm.read(page.text)
        wanted = [v for v in form.actions if json.loads(v) == action]
        if not wanted:
            raise AssertionError(f"the page offers no {action}: {form.actions}")
        answer = client.post(
            f"/games/{self.game_id}/move",
            data={"csrf_token": form.csrf, "seq": form.seq, "action": wanted[0]},
            follow_redirects=True,
        )
        assert answer.status_code == 200, answer.text
        return answer.text

    def play_by_mail(self, text: str) -> EmailMessage:
        """The seat to move answers its turn mail with ``text`` on top (e.g.
        "2": the second choice); returns the server's answer to it."""
        turn, seat = self.turn_mail(), self.to_move()
        assert seat is not None
        before = len(self.mails(seat))
        reply = write_reply(turn, self.emails[seat], text)
        with self._db():
            replies.receive(
                reply.as_bytes(),
                self.app.extensions["pbem_mailer"],
                envelope_from=self.emails[seat],
                envelope_to=[str(turn["Reply-To"])],
            )
        answers = self.mails(seat)[before:]
        if not answers:
            raise AssertionError("the server did not answer the reply")
        return answers[0]

    def time_out(self) -> dict:
        """The seat to move lets its deadline pass: the sweep reminds it
        before the deadline, then plays the game's ``default_action`` an
        hour after it.  Returns the second sweep's report."""
        with self._db():
            game = Game.get_by_id(self.game_id)
            deadline = Seat.get((Seat.game == game.id) & (Seat.index == game.to_move)).deadline
        if deadline is None:
            raise AssertionError("the seat to move has no deadline (is the game paused?)")
        self._sweep(deadline - dt.timedelta(minutes=1))
        report = self._sweep(deadline + dt.timedelta(hours=1))
        assert report.timeouts == 1, f"no timeout: {report}"
        return report

    def _sweep(self, now: dt.datetime):
        self.mails(0)  # the sender delivers first: an unsent turn mail stops the clock
        with self._db():
            return sweep(self.app.config, self.app.extensions["pbem_mailer"], now)

    # -- asserts -----------------------------------------------------------
    def assert_turn_mail_says(self, *texts: str) -> None:
        mail = text_of(self.turn_mail())
        missing = [t for t in texts if t not in mail]
        assert not missing, f"the turn mail does not say {missing}:\n{mail}"

    def assert_page_says(self, seat: int, *texts: str, language: str = "en") -> None:
        page = self.page(seat, language=language)
        missing = [t for t in texts if t not in page]
        assert not missing, f"the game page ({language}) does not say {missing}"


class _Both:
    """Two context managers entered as one."""

    def __init__(self, first, second):
        self.first, self.second = first, second

    def __enter__(self):
        self.first.__enter__()
        self.second.__enter__()

    def __exit__(self, *exc):
        self.second.__exit__(*exc)
        self.first.__exit__(*exc)


def text_of(mail: EmailMessage) -> str:
    """A mail's plain text (where its choices, prompt and board are)."""
    part = mail.get_body(("plain",))
    return part.get_content() if part is not None else ""


def _seat_link(mails: list[EmailMessage]) -> str:
    for mail in reversed(mails):
        found = re.search(r"http://localhost(/s/[^\s>]+)", text_of(mail))
        if found:
            return found.group(1)
    raise AssertionError("no seat link in the mails")


def write_reply(mail: EmailMessage, from_addr: str, text: str) -> EmailMessage:
    """A reply as a mail client writes it: ``text`` on top, the quote below,
    passed on by the trusted mail server (Authentication-Results)."""
    reply = EmailMessage()
    domain = from_addr.rpartition("@")[2]
    reply["Authentication-Results"] = f"{AUTHSERV}; dmarc=pass header.from={domain}"
    reply["From"] = from_addr
    reply["To"] = str(mail["Reply-To"])
    reply["Subject"] = f"Re: {mail['Subject']}"
    reply["Message-ID"] = make_msgid(domain="client.invalid")
    reply["In-Reply-To"] = str(mail["Message-ID"])
    quoted = "\n".join(f"> {line}" for line in text_of(mail).splitlines())
    reply.set_content(f"{text}\n\nOn Mon, 3 Jun 2024, pbem wrote:\n{quoted}\n")
    return reply


class MoveForm(HTMLParser):
    """The move form of a game page: its CSRF token, sequence number and
    the JSON of each action button."""

    def __init__(self) -> None:
        super().__init__()
        self.inside, self.csrf, self.seq = False, "", ""
        self.actions: list[str] = []

    @classmethod
    def read(cls, html: str) -> MoveForm:
        form = cls()
        form.feed(html)
        if not form.actions:
            raise AssertionError("the page has no move form")
        return form

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = (a.get("action") or "").endswith("/move")
        elif self.inside and a.get("name") == "csrf_token":
            self.csrf = a.get("value") or ""
        elif self.inside and a.get("name") == "seq":
            self.seq = a.get("value") or ""
        elif self.inside and tag == "button" and a.get("name") == "action":
            self.actions.append(a.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False

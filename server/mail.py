"""Writing mails into the outbox.  Nothing here talks SMTP: the sender does,
outside any request or transaction.  Mails are rendered when queued, so a
retry sends exactly the same text under the same Message-ID."""
from __future__ import annotations

import re
import uuid

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from server.models import Game, Outbox, Seat, User
from server.settings import MAIL_TEMPLATES
from server.tokens import Links

# Control characters and encoded-word starts in header text: Python 3.11.7's
# email package can be tricked by them into adding header lines.
_HEADER_UNSAFE = re.compile(r"[\x00-\x1f\x7f]|=\?")


def clean_header(text: str, limit: int = 200) -> str:
    return _HEADER_UNSAFE.sub(" ", text)[:limit].strip()


class Mailer:
    def __init__(self, settings):
        self.settings = settings
        self.links = Links.from_settings(settings)
        self.env = Environment(
            loader=FileSystemLoader(str(MAIL_TEMPLATES)),
            autoescape=select_autoescape(["html"]), undefined=StrictUndefined,
            trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)

    def new_message_id(self) -> str:
        return f"<{uuid.uuid4().hex}@{self.settings['MAIL_ID_DOMAIN']}>"

    def thread_id(self) -> str:
        return self.new_message_id()

    def subject_for(self, game: Game, title: str) -> str:
        # One subject for every mail of a game: clients thread on it as well.
        return clean_header(f"[pbem] {game.name} ({title} #{game.id})")

    def queue(self, template: str, to_addr: str, subject: str, context: dict,
              game: Game | None = None) -> Outbox:
        context = dict(context, base_url=self.links.base_url, game=game)
        thread = [game.thread_id] if game is not None else []
        return Outbox.create(
            game=game, kind=template, to_addr=clean_header(to_addr, 254),
            subject=clean_header(subject),
            body_text=self.env.get_template(f"{template}.txt").render(context),
            body_html=self.env.get_template(f"{template}.html").render(context),
            message_id=self.new_message_id(),
            in_reply_to=thread[0] if thread else "", references=" ".join(thread))

    # -- the kinds of mail ------------------------------------------------
    def invitation(self, game: Game, title: str, host: User, email: str,
                   invitee: User | None) -> Outbox:
        join_url = self.links.join_url(game)
        if invitee is not None:  # signs them in on the way to the join page
            join_url = self.links.signin_url(invitee, join_url[len(self.links.base_url):])
        return self.queue("invite", email, self.subject_for(game, title),
                          {"host": host.name, "title": title, "join_url": join_url}, game)

    def turn(self, game: Game, title: str, seat: Seat, prompt: str, summary: list[str],
             deadline: str) -> Outbox:
        return self.queue("turn", seat.user.email, self.subject_for(game, title),
                          {"name": seat.user.name, "seat": seat.index + 1, "title": title,
                           "prompt": prompt, "summary": summary, "deadline": deadline,
                           "seat_url": self.links.seat_url(seat)}, game)

    def started(self, game: Game, title: str, seat: Seat, to_move_name: str) -> Outbox:
        return self.queue("started", seat.user.email, self.subject_for(game, title),
                          {"name": seat.user.name, "seat": seat.index + 1, "title": title,
                           "to_move": to_move_name, "seat_url": self.links.seat_url(seat)},
                          game)

    def new_link(self, game: Game, title: str, seat: Seat) -> Outbox:
        return self.queue("new_link", seat.user.email, self.subject_for(game, title),
                          {"name": seat.user.name, "seat": seat.index + 1, "title": title,
                           "seat_url": self.links.seat_url(seat)}, game)

    def final(self, game: Game, title: str, seat: Seat, rows: list[dict],
              reason: str) -> Outbox:
        return self.queue("final", seat.user.email, self.subject_for(game, title),
                          {"name": seat.user.name, "title": title, "rows": rows,
                           "reason": reason, "seat_url": self.links.seat_url(seat)}, game)

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


# Mail a game can go on without: these stop when a user unsubscribes.  Turn
# mails, invitations, new links and moderation notices always go out.
OPTIONAL_KINDS = frozenset({"reminder", "timeout", "final", "started"})


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
              game: Game | None = None, user: User | None = None) -> Outbox | None:
        """Render and store one mail; None when the user opted out of its kind."""
        if user is not None and template in OPTIONAL_KINDS and not user.optional_mail:
            return None
        headers = {}
        context = dict(context, base_url=self.links.base_url, game=game,
                       settings_url=f"{self.links.base_url}/settings")
        if user is not None:
            # RFC 8058 one-click unsubscribe; it turns off optional mail only.
            url = self.links.unsubscribe_url(user)
            headers = {"List-Unsubscribe": f"<{url}>",
                       "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
            context["unsubscribe_url"] = url
        thread = [game.thread_id] if game is not None else []
        return Outbox.create(headers=headers,
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
                           "seat_url": self.links.seat_url(seat)}, game, seat.user)

    def started(self, game: Game, title: str, seat: Seat, to_move_name: str) -> Outbox:
        return self.queue("started", seat.user.email, self.subject_for(game, title),
                          {"name": seat.user.name, "seat": seat.index + 1, "title": title,
                           "to_move": to_move_name, "seat_url": self.links.seat_url(seat)},
                          game, seat.user)

    def new_link(self, game: Game, title: str, seat: Seat) -> Outbox:
        return self.queue("new_link", seat.user.email, self.subject_for(game, title),
                          {"name": seat.user.name, "seat": seat.index + 1, "title": title,
                           "seat_url": self.links.seat_url(seat)}, game, seat.user)

    def final(self, game: Game, title: str, seat: Seat, rows: list[dict],
              reason: str) -> Outbox:
        return self.queue("final", seat.user.email, self.subject_for(game, title),
                          {"name": seat.user.name, "title": title, "rows": rows,
                           "reason": reason, "seat_url": self.links.seat_url(seat)},
                          game, seat.user)

    # -- clocks -----------------------------------------------------------
    def reminder(self, game: Game, title: str, seat: Seat, prompt: str,
                 deadline: str) -> Outbox | None:
        return self.queue("reminder", seat.user.email, self.subject_for(game, title),
                          {"name": seat.user.name, "seat": seat.index + 1, "title": title,
                           "prompt": prompt, "deadline": deadline,
                           "seat_url": self.links.seat_url(seat)}, game, seat.user)

    def timeout(self, game: Game, title: str, seat: Seat, played: list[str],
                absent: bool) -> Outbox | None:
        return self.queue("timeout", seat.user.email, self.subject_for(game, title),
                          {"name": seat.user.name, "seat": seat.index + 1, "title": title,
                           "played": played, "absent": absent,
                           "seat_url": self.links.seat_url(seat)}, game, seat.user)

    def stalling(self, game: Game, title: str, moderator: User, absent_name: str,
                 timeouts: int) -> Outbox | None:
        return self.queue("stalling", moderator.email, self.subject_for(game, title),
                          {"name": moderator.name, "title": title, "absent": absent_name,
                           "timeouts": timeouts,
                           "game_url": self.links.signin_url(moderator,
                                                             f"/moderation/games/{game.id}")},
                          game, moderator)

    def digest(self, user: User, items: list[dict]) -> Outbox | None:
        return self.queue("digest", user.email,
                          clean_header(f"[pbem] {len(items)} game(s) waiting for your move"),
                          {"name": user.name, "items": items}, None, user)

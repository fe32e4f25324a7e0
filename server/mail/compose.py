"""Writing mails into the outbox.  Nothing here talks SMTP: the sender does,
outside any request or transaction.  Mails are rendered when queued, so a
retry sends exactly the same text under the same Message-ID."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Callable, Sequence
from email.utils import parseaddr
from functools import partial

from babel.dates import format_date
from jinja2 import (
    Environment,
    FileSystemLoader,
    StrictUndefined,
    pass_eval_context,
    select_autoescape,
)
from markupsafe import Markup, escape

from engine.words import N_, Words
from server import wakeup
from server.db import Prepared, db
from server.i18n import DEFAULT, LANGUAGES, known, ordinal, say, translate, translations
from server.mail import limits
from server.mail.board_rows import MAIL_ROW, rows_html
from server.mail.links import Links
from server.models import Game, Outbox, Seat, SignUpAttempt, User, utcnow
from server.notify import notices
from server.settings import MAIL_TEMPLATES
from server.typography import number, polish, signed

# Control characters and encoded-word starts in header text: Python 3.11.7's
# email package can be tricked by them into adding header lines.
_HEADER_UNSAFE = re.compile(r"[\x00-\x1f\x7f]|=\?")


def clean_header(text: str, limit: int = 200) -> str:
    return _HEADER_UNSAFE.sub(" ", text)[:limit].strip()


# Mail a game can go on without: these stop when a user unsubscribes.  Turn
# mails, invitations, new links and moderation notices always go out.
OPTIONAL_KINDS = frozenset({"reminder", "timeout", "final", "started", "talk", "outage"})
# What an account whose address is not confirmed yet may be sent: nothing but
# the mails that confirm it.  Anybody can sign up with anybody's address; game
# mail must not follow until its owner has said yes.
ACCOUNT_KINDS = frozenset(
    {"confirm", "account_exists", "reset", "reset_unknown", "address_change", "address_notice"}
)
# Mails about the reader's own account: not part of the site's stream (no List-Id).
PRIVATE_KINDS = ACCOUNT_KINDS | {"erase_confirm", "export_ready"}
# Answers to a mail the reader sent (RFC 3834: Auto-Submitted: auto-replied).
ANSWER_KINDS = frozenset({"reply_applied", "reply_refused", "reply_lobby", "reply_confirm"})
# The subject of a mail about a game to an address that no confirmed account
# uses: nothing in it that a user wrote (a game's name is anybody's text).
# Invitations: one click on "never invite me" stops every one of them.
INVITE_KINDS = frozenset({"invite", "invite_held"})
STRANGER_SUBJECTS = {"invite": N_("An invitation to a game of %(title)s")}
STRANGER_SUBJECT = N_("About a game of %(title)s")


def _label_filter(said: str) -> Callable[[str], str]:
    """``{{ label|label }}`` in a text part: what ``{{ _("%(label)s:",
    label=label) }}`` writes ("Doubloons:", "Doublons :"), its translation
    looked up once per language instead of through the template's gettext
    call for each of a board's forty-odd rows, which was three quarters of
    a turn mail's text part.  Text parts only: an HTML part's ``_()``
    escapes its values."""
    return lambda label: said % {"label": label}


def in_language(code: str, value):
    """``value`` with every engine or seat text in it (a ``Words``: a bot's or
    an empty seat's name, a prompt) said in language ``code``: a mail's
    values are often passed into a template's ``_()`` call, which would
    format them as their English."""
    kind = type(value)
    if kind is str:  # most values (a board's rows): nothing to say; a Words is a subclass
        return value
    if isinstance(value, Words):
        return say(code, value)
    if isinstance(value, dict):
        return {key: in_language(code, item) for key, item in value.items()}
    if isinstance(value, list) or kind is tuple:
        items = [in_language(code, item) for item in value]
        return items if kind is list else kind(items)
    return value


@pass_eval_context
def inline_link(eval_ctx, url: str) -> str:
    """``{{ url|link }}``: a URL inside a sentence, made to stand alone for
    every mail client.  Text readers linkify from "http" to the next space
    or '>', so "…at http://host:8000.Your" became one broken link: in a text
    part the URL goes in <angle brackets> (RFC 3986, appendix C); in an HTML
    part it is a link of its own, so no client guesses where it ends."""
    if eval_ctx.autoescape:
        return Markup('<a href="{0}">{0}</a>').format(escape(url))
    return f"<{url}>"


class _InsertReturningId(Prepared):
    """A prepared INSERT that answers the new row's id (``Prepared.run``
    answers the count): PostgreSQL says it in a RETURNING clause, which
    ``build`` adds there, SQLite as the cursor's lastrowid."""

    def insert(self, *values) -> int:
        database = db.obj
        _, _, sql, params = self._sql(values)
        cursor = database.execute_sql(sql, params)
        return cursor.fetchone()[0] if database.returning_clause else cursor.lastrowid


def _outbox_insert(holds_clock: bool) -> _InsertReturningId:
    """The INSERT of an outbox row, its SQL built once per kind of database:
    the columns ``Outbox.create`` writes, the given ones and every default
    (created_at and next_attempt_at: the same moment).  ``holds_clock`` is
    part of the shape: a boolean cannot stand in for a parameter."""

    def build(
        game, kind, to_addr, subject, body_text, body_html, message_id, in_reply_to, references,
        headers, turn_of, author, now,
    ):  # fmt: skip
        query = Outbox.insert(
            **_row_values(
                game,
                kind,
                to_addr,
                subject,
                body_text,
                body_html,
                message_id,
                in_reply_to,
                references,
                headers,
                turn_of,
                author,
                now,
            ),
            holds_clock=holds_clock,
        )
        return query.returning(Outbox.id) if db.obj.returning_clause else query

    kinds = (Outbox.game,) + (str,) * 8 + (Outbox.headers, Outbox.turn_of, Outbox.author)
    return _InsertReturningId(build, kinds=kinds + (dt.datetime,))


# What a new outbox row holds besides what ``store`` is given (the model's defaults).
DEFAULTS = {
    "status": "queued",
    "attempts": 0,
    "claimed_by": "",
    "last_error": "",
    "smtp_reply": "",
    "permanent": False,
}


def _row_values(
    game, kind, to_addr, subject, body_text, body_html, message_id, in_reply_to, references,
    headers, turn_of, author, now,
) -> dict:  # fmt: skip
    """A new outbox row's columns but ``holds_clock``: the given values and
    the defaults, as the INSERT writes them and the returned model holds them."""
    return dict(
        game=game,
        kind=kind,
        to_addr=to_addr,
        subject=subject,
        body_text=body_text,
        body_html=body_html,
        message_id=message_id,
        in_reply_to=in_reply_to,
        references=references,
        headers=headers,
        turn_of=turn_of,
        author=author,
        next_attempt_at=now,
        created_at=now,
        **DEFAULTS,
    )


# Every mail is one such row (a move's turn mail among them): Outbox.create
# would build its INSERT anew each time.
OUTBOX_INSERT = {flag: _outbox_insert(flag) for flag in (False, True)}


def store(
    *,
    game: Game | None,
    kind: str,
    to_addr: str,
    subject: str,
    body_text: str,
    body_html: str,
    message_id: str,
    in_reply_to: str,
    references: str,
    headers: dict,
    turn_of: dt.datetime | None,
    holds_clock: bool,
    author: User | None,
) -> Outbox:
    """Write one mail into the outbox, as ``Outbox.create`` would (the same
    columns and defaults), and return it as that would, with its id."""
    now = utcnow()
    values = (game, kind, to_addr, subject, body_text, body_html, message_id, in_reply_to,
              references, headers, turn_of, author, now)  # fmt: skip
    row_id = OUTBOX_INSERT[bool(holds_clock)].insert(*values)
    wakeup.outbox_written(db.obj)
    mail = Outbox(id=row_id, holds_clock=bool(holds_clock), **_row_values(*values))
    mail._dirty.clear()  # saved, as a created row is
    return mail


class Mailer:
    def __init__(self, settings):
        self.settings = settings
        self.links = Links.from_settings(settings)
        # One environment per language, its catalog installed once: mails
        # are rendered in web workers, the scheduler and the sender alike,
        # outside any request, and possibly on several threads.
        self.envs = {code: self._environment(code) for code in LANGUAGES}
        self.env = self.envs[DEFAULT]

    @staticmethod
    def _environment(code: str) -> Environment:
        env = Environment(
            loader=FileSystemLoader(str(MAIL_TEMPLATES)),
            extensions=["jinja2.ext.i18n"],
            autoescape=select_autoescape(["html"]),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            # Templates are compiled once per process: no stat of each file
            # on every mail (they change only with a new release).
            auto_reload=False,
            # Words printed as they are (a deleted player's "Former player 7")
            # read in the mail's language.
            finalize=lambda value: say(code, value) if isinstance(value, Words) else value,
        )
        env.policies["ext.i18n.trimmed"] = True  # as babel.cfg extracts them
        env.install_gettext_translations(translations(code), newstyle=True)
        env.filters["label"] = _label_filter(translations(code).gettext("%(label)s:"))
        env.filters["rows_html"] = partial(rows_html, row=MAIL_ROW)
        env.filters["link"] = inline_link
        env.filters["number"] = partial(number, code=code)
        env.filters["ordinal"] = partial(ordinal, code=code)
        env.filters["signed"] = partial(signed, code=code)
        return env

    @staticmethod
    def language_of(user: User | None, to_addr: str) -> str:
        """The recipient's language: their setting; an address with no
        account (an invitation) gets the account's of that address if any."""
        if user is None:
            user = User.get_or_none(User.email == to_addr.strip().lower())
        return (known(user.language) if user is not None else None) or DEFAULT

    def words(self, user: User | None, text: str, **values) -> str:
        """``text`` (a msgid) in ``user``'s language, filled with ``values``:
        a subject line, an engine's prompt."""
        return translate(known(user.language) if user is not None else None, text, values)

    def game_words(self, user: User | None, game_rules, template: str, values: dict) -> str:
        """A game's template (its prompt) in ``user``'s language, looked up
        in the game's own catalog first (two games may say a word differently)."""
        return translate(
            known(user.language) if user is not None else None, template, values, game_rules.domain
        )

    def new_message_id(self) -> str:
        return f"<{uuid.uuid4().hex}@{self.settings['MAIL_ID_DOMAIN']}>"

    def thread_id(self) -> str:
        return self.new_message_id()

    @staticmethod
    def subject_for(
        game: Game, title: str, what: str = N_("About your game")
    ) -> Callable[[str], str]:
        """What the mail is (``what``, a msgid: "Result"), in the language
        ``queue`` finds for the recipient: the news of a mail about a game,
        which ``queue`` puts first in its body (its subject is the game's
        thread's, ``thread_subject``).  Every kind of mail names its own
        ``what``; the default is a fallback."""
        return lambda code: clean_header(translate(code, what))

    def subject_saying(self, what: str, prompt: str, game: Game, *, lower: bool = True) -> str:
        """The news of a mail about a game that says what it asks ("Your
        turn: choose a role"), first in its body (see ``subject_for``).
        ``lower``: the prompt is a phrase that continues the sentence (a
        player's own words, table talk, keep their capital)."""
        prompt = prompt.strip().rstrip(".")
        if lower:
            prompt = prompt[:1].lower() + prompt[1:]
        return clean_header(f"{what}: {prompt}")

    @staticmethod
    def thread_subject(game: Game, code: str) -> str:
        """The one subject of every mail in a game's thread: clients that
        group mails by subject keep the thread whole, and what each mail
        is says its body's first line."""
        return clean_header(
            translate(code, N_("[pbem] %(game)s (#%(id)s)"), {"game": game.name, "id": game.id})
        )

    def queue(
        self,
        template: str,
        to_addr: str,
        subject: str | Callable[[str], str],
        context: dict,
        game: Game | None = None,
        user: User | None = None,
        reply_to: str = "",
        language: str | None = None,
        *,
        author: User | None = None,
        turn_of=None,
        holds_clock: bool = False,
        channels: bool = True,
    ) -> Outbox | None:
        """Render and store one mail; None when the user opted out of its kind,
        or the address had as many mails of its kind lately as it may get
        (mail/limits.py).
        ``language``: when the recipient is no user (yet) but we know better.
        ``author``: on whose behalf it goes out (counted per user);
        ``turn_of``, ``holds_clock``: see Outbox; ``channels``: False when
        the caller knows the user has no channel of their own (no notices)."""
        if user is not None and not user.verified and template not in ACCOUNT_KINDS:
            return None
        # The player's chat and push channels hear of it whatever their mail settings.
        if channels:
            notices.follow_mail(self, template, user, game, context, turn_of, to_addr)
        if user is not None and template in OPTIONAL_KINDS and not user.optional_mail:
            return None
        if template in INVITE_KINDS and limits.never_invite(to_addr):
            return None  # honoured whoever invites, and however
        stranger = self.is_stranger(user, to_addr)
        if not limits.allows(
            self.settings, template, to_addr, stranger, author_id=author.id if author else None
        ):
            return None
        code = known(language) or self.language_of(user, to_addr)
        if callable(subject):  # subject_for's: said in the recipient's language
            subject = subject(code)
        news = ""
        if stranger and game is not None:
            subject = "[pbem] " + translate(
                code,
                STRANGER_SUBJECTS.get(template, STRANGER_SUBJECT),
                {"title": context.get("title", "")},
            )
        elif game is not None:  # in the game's thread: its subject, the news first inside
            news = subject.removeprefix("[pbem] ")
            subject = self.thread_subject(game, code)
        headers = {}
        # ``stranger``: no link in it but its own (the footer leaves out the site's).
        context = dict(
            context,
            base_url=self.links.base_url,
            game=game,
            stranger=stranger,
            news=news,
            settings_url=f"{self.links.base_url}/settings",
            privacy_url=f"{self.links.base_url}/privacy",
        )
        if user is not None:
            # The footer's link turns off optional mail, whatever the mail.
            context["unsubscribe_url"] = self.links.unsubscribe_url(user)
        headers.update(self.list_headers(template, user, to_addr, context))
        if reply_to:
            headers["Reply-To"] = clean_header(reply_to, 254)
        thread = [game.thread_id] if game is not None else []
        env = self.envs[code]
        context = in_language(code, context)
        return store(
            headers=headers,
            author=author,
            turn_of=turn_of,
            holds_clock=holds_clock,
            game=game,
            kind=template,
            to_addr=clean_header(to_addr, 254),
            # The language's punctuation and quotes on the whole mail, also
            # where code joined texts ("Your turn: …", a board's "; ").
            subject=polish(clean_header(subject), code),
            # Complete on its own: every text part ends with the settings and
            # unsubscribe footer the HTML part has (_layout.html).
            body_text=polish(
                (f"{news}\n\n" if news else "")
                + env.get_template(f"{template}.txt").render(context)
                + env.get_template("_footer.txt").render(context),
                code,
            ),
            body_html=polish(env.get_template(f"{template}.html").render(context), code),
            message_id=self.new_message_id(),
            in_reply_to=thread[0] if thread else "",
            references=" ".join(thread),
        )

    def list_headers(self, template: str, user: User | None, to_addr: str, context: dict) -> dict:
        """List-Id on the site's stream; RFC 8058's one-click List-Unsubscribe
        only where one click stops that kind of mail (optional mail, and
        invitations: "never invite me"), never on a mail it would not stop;
        Auto-Submitted: auto-replied on an answer to the reader's own mail."""
        headers = {}
        if template not in PRIVATE_KINDS:
            headers["List-Id"] = self.list_id
        if template in OPTIONAL_KINDS and user is not None:
            stop = context["unsubscribe_url"]
        elif template in INVITE_KINDS:
            stop = self.links.never_invite_url(to_addr)
        else:
            stop = ""
        if stop:
            headers["List-Unsubscribe"] = f"<{stop}>"
            headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        if template in ANSWER_KINDS:
            headers["Auto-Submitted"] = "auto-replied"
        return headers

    @property
    def list_id(self) -> str:
        """One List-Id for the whole site (RFC 2919): the name of MAIL_FROM,
        and a label under MAIL_ID_DOMAIN."""
        name = clean_header(parseaddr(self.settings["MAIL_FROM"])[0] or "pbem", 60)
        name = name.replace('"', "").replace("<", "").replace(">", "")
        return f"{name} <games.{self.settings['MAIL_ID_DOMAIN'].strip().lower()}>"

    @staticmethod
    def is_stranger(user: User | None, to_addr: str) -> bool:
        """No confirmed account uses the address: it never asked for mail."""
        if user is not None and user.verified:
            return False
        return not limits.confirmed(to_addr)

    # -- the kinds of mail ------------------------------------------------
    def invitation(
        self, game: Game, title: str, host: User, email: str, reply_to: str = ""
    ) -> Outbox | None:
        # No sign-in in the link: a forwarded invitation hands over no account.
        # ``reply_to``: the game's lobby address ("/join 2" by reply).
        return self.queue(
            "invite",
            email,
            self.subject_for(game, title, N_("Invitation")),
            {
                "host": host.name,
                "title": title,
                "lobby_address": reply_to,
                "join_url": self.links.join_url(game),
                "never_invite_url": self.links.never_invite_url(email),
            },
            game,
            reply_to=reply_to,
            author=host,
        )

    def held_invitations(
        self, email: str, invitations: Sequence[tuple[Game, str, User]]
    ) -> Outbox | None:
        """One mail with the invitations held back for ``email`` by its daily
        limit (services/held_invitations.py): each (game, its title, its host).
        Like an invitation, nothing a user wrote for a stranger to read."""
        return self.queue(
            "invite_held",
            email,
            lambda code: clean_header(
                "[pbem] " + translate(code, N_("Invitations to games of pbem"))
            ),
            {
                "invitations": [
                    {
                        "title": title,
                        "host": host.name,
                        "name": game.name,
                        "seats": game.seat_count,
                        "join_url": self.links.join_url(game),
                    }
                    for game, title, host in invitations
                ],
                "never_invite_url": self.links.never_invite_url(email),
            },
        )

    def turn(
        self,
        game: Game,
        title: str,
        seat: Seat,
        prompt: str,
        summary: list[str],
        deadline: str,
        menu: dict | None = None,
        talk: Sequence[dict] = (),
        away: Sequence[dict] = (),
        board: Sequence[dict] = (),
        *,
        channels: bool = True,
    ) -> Outbox | None:
        """The turn mail.  ``menu``: the numbered choices, holdings and reply
        address (services/reply_menu.py), when replies are on; ``talk``: the
        table talk this seat has not had by mail yet; ``away``: the moves
        others played for this seat since its player last moved; ``board``:
        the board as the seat sees it, as sections of rows; ``channels``:
        False when neither the table nor the player has a chat channel.
        Who hears of a turn, and how, is services/move_news.py's choice."""
        return self.queue(
            "turn",
            seat.user.email,
            self.subject_saying(self.words(seat.user, "Your turn"), prompt, game),
            self.turn_context(seat, title, prompt, summary, deadline, menu, talk, away, board),
            game,
            seat.user,
            reply_to=menu["reply_to"] if menu else "",
            turn_of=seat.turn_started_at,
            holds_clock=True,
            channels=channels,
        )

    def turn_context(
        self,
        seat: Seat,
        title: str,
        prompt: str,
        summary: list[str],
        deadline: str,
        menu: dict | None = None,
        talk: Sequence[dict] = (),
        away: Sequence[dict] = (),
        board: Sequence[dict] = (),
    ) -> dict:
        """What the turn mail, and a notice that stands in for it, say."""
        return {
            "name": seat.user.name,
            "seat": seat.index + 1,
            "title": title,
            "prompt": prompt,
            "summary": summary,
            "deadline": deadline,
            "seat_url": self.links.seat_url(seat),
            "menu": menu,
            "talk": list(talk),
            "away": list(away),
            "board": list(board),
        }

    def started(self, game: Game, title: str, seat: Seat, to_move_name: str) -> Outbox | None:
        return self.queue(
            "started",
            seat.user.email,
            self.subject_for(game, title, N_("The game has started")),
            {
                "name": seat.user.name,
                "seat": seat.index + 1,
                "title": title,
                "to_move": to_move_name,
                "seat_url": self.links.seat_url(seat),
            },
            game,
            seat.user,
        )

    def new_link(self, game: Game, title: str, seat: Seat) -> Outbox | None:
        return self.queue(
            "new_link",
            seat.user.email,
            self.subject_for(game, title, N_("A new link to your seat")),
            {
                "name": seat.user.name,
                "seat": seat.index + 1,
                "title": title,
                "seat_url": self.links.seat_url(seat),
            },
            game,
            seat.user,
        )

    def final(
        self, game: Game, title: str, seat: Seat, rows: list[dict], reason: str
    ) -> Outbox | None:
        return self.queue(
            "final",
            seat.user.email,
            self.subject_for(game, title, N_("Result")),
            {
                "name": seat.user.name,
                "title": title,
                "rows": rows,
                "reason": reason,
                "seat_url": self.links.seat_url(seat),
            },
            game,
            seat.user,
        )

    # -- clocks -----------------------------------------------------------
    def reminder(
        self,
        game: Game,
        title: str,
        seat: Seat,
        prompt: str,
        deadline: str,
        menu: dict | None = None,
        last_call: bool = False,
        default_move: str = "",
    ) -> Outbox | None:
        """``last_call``: the deadline passed before any reminder reached the
        player (the scheduler or the mail was down, or the turn is short): it
        was moved on, and the seat's clock waits until this mail is out.
        ``default_move``: what the server plays if time runs out, as the
        player reads it."""
        what = (
            self.words(seat.user, "Last call, your turn")
            if last_call
            else self.words(seat.user, "Reminder, your turn")
        )
        return self.queue(
            "reminder",
            seat.user.email,
            self.subject_saying(what, prompt, game),
            {
                "name": seat.user.name,
                "seat": seat.index + 1,
                "title": title,
                "prompt": prompt,
                "deadline": deadline,
                "menu": menu,
                "last_call": last_call,
                "default_move": default_move,
                "seat_url": self.links.seat_url(seat),
            },
            game,
            seat.user,
            reply_to=menu["reply_to"] if menu else "",
            turn_of=seat.turn_started_at,
            holds_clock=last_call,
        )

    def lobby_reminder(self, game: Game, title: str, host: User, closes) -> Outbox | None:
        return self.queue(
            "lobby_reminder",
            host.email,
            self.subject_for(game, title, N_("Your lobby closes soon")),
            # The day in the host's language, by Babel ("27 novembre 2026").
            {
                "name": host.name,
                "title": title,
                "closes": closes
                and format_date(closes, "long", locale=known(host.language) or DEFAULT),
                "lobby_url": f"{self.links.base_url}/games/{game.id}/lobby",
            },
            game,
            host,
        )

    def lobby_closed(
        self, game: Game, title: str, person: User, days: int, is_host: bool
    ) -> Outbox | None:
        return self.queue(
            "lobby_closed",
            person.email,
            self.subject_for(game, title, N_("The lobby closed")),
            {
                "name": person.name,
                "title": title,
                "days": days,
                "is_host": is_host,
                "new_url": f"{self.links.base_url}/games/new",
            },
            game,
            person,
        )

    def lobby_news(
        self,
        game: Game,
        title: str,
        host: User,
        what: str,
        seats: list[str | None],
        reply_to: str = "",
        author: User | None = None,
    ) -> Outbox | None:
        """To the host: ``author`` joined or left the lobby (``what``, an
        engine-style text said in the host's language); ``seats``: who sits
        where now (None: free).  At most ANSWERS_PER_ADDRESS_PER_HOUR an
        hour (mail/limits.py): the page shows the seats anyway."""
        return self.queue(
            "lobby_news",
            host.email,
            self.subject_for(game, title, N_("Lobby news")),
            {
                "name": host.name,
                "title": title,
                "what": say(host.language, what),
                "seats": seats,
                "replies": bool(reply_to),
                "lobby_url": f"{self.links.base_url}/games/{game.id}/lobby",
            },
            game,
            host,
            reply_to=reply_to,
            author=author,
        )

    def lobby_cancelled(
        self, game: Game, title: str, person: User, host_name: str
    ) -> Outbox | None:
        return self.queue(
            "lobby_cancelled",
            person.email,
            self.subject_for(game, title, N_("The lobby was called off")),
            {
                "name": person.name,
                "title": title,
                "host": host_name,
                "open_url": f"{self.links.base_url}/games/open",
            },
            game,
            person,
        )

    def rematch_request(
        self, game: Game, title: str, person: User, proposer: User, expires: str
    ) -> Outbox | None:
        """To a player of a finished game: ``proposer`` asks for a rematch;
        it goes out on the proposer's behalf (counted as an invitation)."""
        return self.queue(
            "rematch",
            person.email,
            self.subject_for(game, title, N_("Rematch proposal")),
            {
                "name": person.name,
                "title": title,
                "proposer": proposer.name,
                "expires": expires,
                "game_url": f"{self.links.base_url}/games/{game.id}#rematch",
            },
            game,
            person,
            author=proposer,
        )

    def rematch_ended(
        self, game: Game, title: str, person: User, what: str, new_game: Game | None
    ) -> Outbox | None:
        """How a rematch request ended (``what``, said in the reader's
        language); the new game's start mails follow on their own."""
        url = f"{self.links.base_url}/games/{(new_game or game).id}"
        return self.queue(
            "rematch_ended",
            person.email,
            self.subject_for(game, title, N_("Rematch")),
            {
                "name": person.name,
                "title": title,
                "what": say(person.language, what),
                "url": url,
                "started": new_game is not None,
            },
            game,
            person,
        )

    def outage(
        self, game: Game, title: str, seat: Seat, began: str, ended: str, deadline: str
    ) -> Outbox | None:
        return self.queue(
            "outage",
            seat.user.email,
            self.subject_saying(
                self.words(seat.user, "Your deadline moved"),
                self.words(seat.user, "the server was down"),
                game,
            ),
            {
                "name": seat.user.name,
                "seat": seat.index + 1,
                "title": title,
                "began": began,
                "ended": ended,
                "deadline": deadline,
                "seat_url": self.links.seat_url(seat),
            },
            game,
            seat.user,
        )

    def outage_summary(
        self, moderator: User, began: str, ended: str, seats: int, games: list[str], more: int
    ) -> Outbox | None:
        return self.queue(
            "outage_summary",
            moderator.email,
            clean_header(
                "[pbem] "
                + self.words(
                    moderator, "The scheduler was down: %(seats)s deadline(s) moved", seats=seats
                )
            ),
            {
                "name": moderator.name,
                "began": began,
                "ended": ended,
                "seats": seats,
                "games": games,
                "more": more,
                "dashboard_url": f"{self.links.base_url}/moderation",
            },
            None,
            moderator,
        )

    def timeout(
        self, game: Game, title: str, seat: Seat, played: list[str], absent: bool
    ) -> Outbox | None:
        return self.queue(
            "timeout",
            seat.user.email,
            self.subject_for(game, title, N_("Your time ran out")),
            {
                "name": seat.user.name,
                "seat": seat.index + 1,
                "title": title,
                "played": played,
                "absent": absent,
                "seat_url": self.links.seat_url(seat),
            },
            game,
            seat.user,
        )

    def stalling(
        self, game: Game, title: str, moderator: User, absent_name: str, timeouts: int
    ) -> Outbox | None:
        return self.queue(
            "stalling",
            moderator.email,
            self.subject_for(game, title, N_("A game is stalling")),
            {
                "name": moderator.name,
                "title": title,
                "absent": absent_name,
                "timeouts": timeouts,
                "game_url": f"{self.links.base_url}/moderation/games/{game.id}",
            },
            game,
            moderator,
        )

    def talk(
        self,
        game: Game,
        title: str,
        seat: Seat,
        author: str,
        text: str,
        reply_to: str,
        author_user: User | None = None,
    ) -> Outbox | None:
        """A table-talk message, to one of the other players; answering it
        (with replies on) posts the answer to the table."""
        return self.queue(
            "talk",
            seat.user.email,
            self.subject_saying(
                self.words(seat.user, "%(author)s says", author=author),
                text.splitlines()[0][:60],
                game,
                lower=False,
            ),
            {
                "name": seat.user.name,
                "title": title,
                "author": author,
                "text": text,
                "replies": bool(reply_to),
                "seat_url": self.links.seat_url(seat),
            },
            game,
            seat.user,
            reply_to=reply_to,
            author=author_user,
        )

    def digest(self, user: User, items: list[dict]) -> Outbox | None:
        waiting = self.words(user, "Games waiting for your move")
        return self.queue(
            "digest",
            user.email,
            clean_header(f"[pbem] {waiting}: {len(items)}"),
            {"name": user.name, "items": items},
            None,
            user,
        )

    # -- accounts -----------------------------------------------------------
    def confirm(
        self, user: User, next_path: str = "/", attempt: SignUpAttempt | None = None
    ) -> Outbox | None:
        """The sign-up link; for a later sign-up (``attempt``) with its name,
        and confirming it gives the account that sign-up's password."""
        return self.queue(
            "confirm",
            user.email,
            "[pbem] " + self.words(user, "Confirm your address"),
            {
                "name": attempt.name if attempt else user.name,
                "confirm_url": self.links.confirm_url(
                    user, next_path, attempt.id if attempt else None
                ),
                "hours": self.links.confirm_max_age // 3600,
            },
            None,
            user,
        )

    def account_exists(self, user: User) -> Outbox | None:
        """Sign-up with an address that has an account: its owner hears of it,
        the person signing up learns nothing."""
        return self.queue(
            "account_exists",
            user.email,
            "[pbem] " + self.words(user, "You already have an account"),
            {
                "name": user.name,
                "login_url": f"{self.links.base_url}/login",
                "reset_url": f"{self.links.base_url}/reset",
            },
            None,
            user,
        )

    def reset(self, user: User) -> Outbox | None:
        return self.queue(
            "reset",
            user.email,
            "[pbem] " + self.words(user, "Choose a new password"),
            {
                "name": user.name,
                "reset_url": self.links.reset_url(user),
                "minutes": self.links.reset_max_age // 60,
            },
            None,
            user,
        )

    def erase_confirm(self, user: User) -> Outbox | None:
        """An account without a password: the link that confirms deleting it."""
        return self.queue(
            "erase_confirm",
            user.email,
            "[pbem] " + self.words(user, N_("Delete your account?")),
            {
                "name": user.name,
                "erase_url": self.links.erase_url(user),
                "minutes": self.links.reset_max_age // 60,
            },
            None,
            user,
        )

    def export_ready(self, user: User, export_id: int, hours: int) -> Outbox | None:
        return self.queue(
            "export_ready",
            user.email,
            "[pbem] " + self.words(user, N_("Your data is ready to download")),
            {
                "name": user.name,
                "export_url": self.links.export_url(user, export_id),
                "hours": hours,
            },
            None,
            user,
        )

    def reset_unknown(self, email: str, language: str | None = None) -> Outbox | None:
        return self.queue(
            "reset_unknown",
            email,
            lambda code: "[pbem] " + translate(code, N_("Password reset")),
            {"signup_url": f"{self.links.base_url}/signup"},
            None,
            language=language,
        )

    def address_change(self, user: User, new_email: str) -> Outbox | None:
        """To the new address: the link that moves the account there."""
        mail = self.queue(
            "address_change",
            new_email,
            "[pbem] " + self.words(user, "Confirm your new address"),
            {
                "name": user.name,
                "confirm_url": self.links.address_url(user, new_email),
                "hours": self.links.confirm_max_age // 3600,
            },
            None,
            language=user.language,
        )
        self.queue(
            "address_notice",
            user.email,
            "[pbem] " + self.words(user, "Your address is being changed"),
            {
                "name": user.name,
                "new_email": new_email,
                "reset_url": f"{self.links.base_url}/reset",
            },
            None,
            user,
        )
        return mail

"""Moves and lobby commands by mail reply.

``receive`` takes one raw mail (from the receiver, the IMAP poller or the
catcher's Reply form), keeps it (InboundMail, unique on its Message-ID: a
mail delivered twice is acted on once), and:

- ignores mail a machine sent (auto-replies, lists, bounces), mail to an
  address we did not sign, and mail about a game that is gone: answering
  those makes mail loops or mails strangers;
- acts at once only on mail authenticated for its From: address
  (mail/authentication.py: aligned DKIM, or the operator's own
  Authentication-Results).  Anything else is held and the seat's player
  (for the lobby: the From:'s account) is asked at their own confirmed
  address to confirm it
  (reply_confirmations.py); a reply to that single-use address plays it;
- to a seat's address (``play+<token>``, mail/reply_address.py): checks that
  the sender is the seat's verified address, that the game is still where
  the answered mail left it, then plays the reply's lines one decision each
  through ``moves.play`` (one transaction a decision), stopping at the first
  that fails;
- to a game's lobby address: ``/join N``, ``/start``, ``/option [name] value``;
- to a table-talk address: posts the text to the table;
- to a question's address (a takeback, a proposal, a rematch asked of one
  account): a first word yes or no answers it as that account.

Answers go only to confirmed account addresses: what was played and what
comes next, or in one sentence why nothing changed, with the current
choices.  A sender without an account gets no mail at all.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import re
from dataclasses import dataclass, field

from peewee import JOIN, IntegrityError, InterfaceError, OperationalError

from engine import Choice, IllegalMove, get_game
from engine.words import N_, Words, listing, msg, term
from server.db import db
from server.i18n import say
from server.mail import authentication, inbound
from server.mail.compose import Mailer
from server.mail.inbound import ParsedMail
from server.mail.reply_address import (
    COMMANDS,
    CONFIRM,
    LOBBY,
    QUESTION,
    TALK,
    AddressError,
    ReplyTarget,
)
from server.models import Game, InboundMail, Seat, User, utcnow
from server.services import (
    command_replies,
    games,
    metrics,
    open_games,
    question_links,
    questions,
    reply_confirmations,
    reply_menu,
    table_talk,
)
from server.services.moves import MoveRejected, play
from server.services.state_store import rules
from server.services.what_a_seat_sees import seat_names

log = logging.getLogger("pbem.replies")
RAW_LIMIT = 256 * 1024
COULD_NOT_HANDLE = N_("Could not be handled (see the log); nothing was changed.")
FAILED = N_(
    "The server could not handle it. Answer the newest mail of the game, or use the game page."
)
PASS_WORDS = {"pass", "passen", "passer", "passe"}
NUMBER = re.compile(r"#?([0-9]{1,4})[.)]?")


class Unreadable(Exception):
    """A line that names no choice; the message is for the player."""


@dataclass
class Result:
    status: str  # applied, refused, ignored, held
    reason: str = ""  # one sentence
    played: list[str] = field(default_factory=list)


# -- entry ----------------------------------------------------------------------
def receive(
    raw: bytes,
    mailer: Mailer,
    via: str = "smtp",
    envelope_from: str | None = None,
    envelope_to: list[str] | None = None,
    verdict: authentication.Verdict | None = None,
) -> InboundMail | None:
    """Handle one incoming mail; None when it was handled before (same Message-ID).

    Whether the mail is authenticated (``verdict``: the receiver checks it
    in a thread of its own, see ``authenticate``; else it is checked here)
    is known before the transaction starts: the check waits for DNS, and no
    database lock is held meanwhile.

    The mail's row, what it did (moves, lobby changes, table talk) and its
    answers (outbox rows) commit in one transaction.  A process that dies or
    loses the database before that commit leaves nothing behind, and the
    redelivery (the mail server's retry, the IMAP poller's next poll of the
    still unseen mail) handles the mail afresh; after the commit a
    redelivery finds its Message-ID and does nothing.  So each reply is
    played once and answered once.  A database failure propagates (the
    receiver answers 451, the poller leaves the mail unseen: both try again);
    any other failure is a mail this server cannot handle, kept as ignored and
    not tried again, so no mail is retried for ever."""
    if len(raw) > mailer.settings["INBOUND_MAX_BYTES"]:
        return _keep_unread(
            raw,
            via,
            msg("Larger than %(n)s bytes; not read.", n=mailer.settings["INBOUND_MAX_BYTES"]),
        )
    try:
        mail = inbound.parse(raw, envelope_to, envelope_from)
    except inbound.Malformed as exc:
        return _keep_unread(raw, via, msg("Malformed mail (%(why)s); not read.", why=str(exc)))
    to_addr = reply_address(mail, mailer.settings)
    if verdict is None:
        try:
            verdict = authenticate(mail, raw, mailer.settings)
        except Exception:  # noqa: BLE001 - a bug in checking proves nothing
            log.exception("could not check mail %s", mail.message_id)
            verdict = authentication.Verdict(False, "the check failed")
    try:
        with db.atomic():
            row = _record(mail, raw, to_addr, via)
            if row is None:
                metrics.count_inbound("duplicate")
                return None
            result = _handle(mail, to_addr, row, mailer, verdict)
            outcome = _outcome(result)
            row.status, row.outcome = result.status, outcome
            row.outcome_words = _as_json(outcome)
            row.save()
        metrics.count_inbound(result.status)
        return row
    except (OperationalError, InterfaceError):
        raise  # the database: the mail is tried again
    except Exception:  # noqa: BLE001 - a bug or an unhandleable mail must not come back for ever
        log.exception("could not handle mail %s", mail.message_id)
        return _keep_failed(mail, raw, to_addr, via, mailer)


def reply_address(mail: ParsedMail, settings) -> str:
    """The first of the mail's recipients that is a reply address of ours."""
    replies = reply_menu.addresses(settings)
    return next((a for a in mail.recipients if replies.is_ours(a)), "")


def authenticate(mail: ParsedMail, raw: bytes, settings) -> authentication.Verdict:
    """Whether ``mail`` is proven to come from its From: and to be signed
    for the reply address it acts on (mail/authentication.py).  Mail that
    is never acted on as its sender's (a machine's, one to no address of
    ours, a confirmation) is not checked: no DNS for it."""
    to_addr = reply_address(mail, settings)
    if mail.automatic or not mail.sender or not to_addr:
        return authentication.Verdict(False, "not checked")
    try:
        target = reply_menu.addresses(settings).read(to_addr)
    except AddressError:
        return authentication.Verdict(False, "not checked")
    if target.kind == CONFIRM:
        return authentication.Verdict(False, "not checked")
    return authentication.check(raw, mail.sender, settings, to_addr)


def _record(mail: ParsedMail, raw: bytes, to_addr: str, via: str) -> InboundMail | None:
    """The mail's row, in the transaction that handles it; None when it was
    handled before.  A row still "received" (left by a version that
    committed the row before handling the mail) is taken over and handled."""
    try:
        with db.atomic():  # a savepoint: a duplicate leaves the transaction usable
            return InboundMail.create(
                message_id=mail.message_id,
                raw=_raw_text(raw),
                from_addr=mail.sender[:250],
                to_addr=(to_addr or ",".join(mail.recipients))[:250],
                subject=mail.subject,
                via=via,
            )
    except IntegrityError:
        pass  # seen before: handled below, unless it is still "received"
    # The UPDATE holds the row until this transaction ends: a second
    # delivery of the same mail waits here, then finds it handled.
    taken = (
        InboundMail.update(via=via)
        .where((InboundMail.message_id == mail.message_id) & (InboundMail.status == "received"))
        .execute()
    )
    return InboundMail.get(InboundMail.message_id == mail.message_id) if taken else None


def _keep_unread(raw: bytes, via: str, why: Words) -> InboundMail | None:
    """Keep a mail that is not read at all (too large, malformed) for the
    moderators, answered by nobody; None when it was kept before."""
    message_id = f"<sha256-{hashlib.sha256(raw).hexdigest()}@inbound>"
    try:
        with db.atomic():
            return InboundMail.create(
                message_id=message_id,
                raw=_raw_text(raw),
                via=via,
                status="ignored",
                outcome=why,
                outcome_words=_as_json(why),
            )
    except IntegrityError:
        return None


def _keep_failed(
    mail: ParsedMail, raw: bytes, to_addr: str, via: str, mailer: Mailer
) -> InboundMail | None:
    """A mail whose handling failed for another reason than the database:
    nothing it did stays; it is kept, and a person who wrote to a reply
    address is told once that it changed nothing."""
    try:
        with db.atomic():
            row = InboundMail.create(
                message_id=mail.message_id,
                raw=_raw_text(raw),
                from_addr=mail.sender[:250],
                to_addr=(to_addr or ",".join(mail.recipients))[:250],
                subject=mail.subject,
                via=via,
                status="ignored",
                outcome=COULD_NOT_HANDLE,
                outcome_words=_as_json(term(COULD_NOT_HANDLE)),
            )
            if to_addr and mail.sender and not mail.automatic:
                _tell_failed(mail, mailer, row)
            return row
    except IntegrityError:
        return None


def _tell_failed(mail: ParsedMail, mailer: Mailer, row: InboundMail) -> None:
    """The one answer to a mail that could not be handled, to the confirmed
    account of its From: address only (never to a stranger's address); if
    even that breaks, the mail stays kept without one rather than coming back."""
    try:
        with db.atomic():
            sender = User.get_or_none(User.email == mail.sender)
            if sender is None or not sender.verified:
                return
            mailer.queue(
                "reply_refused",
                sender.email,
                "[pbem] " + mailer.words(sender, "Your mail could not be used"),
                {
                    "name": sender.name,
                    "reason": say(sender.language, term(FAILED)),
                    "menu": None,
                    "seat_url": "",
                    "next_name": "",
                    "yours": False,
                    "title": "",
                },
                None,
                sender,
            )
            row.status = "refused"
            row.save()
    except (OperationalError, InterfaceError):
        raise
    except Exception:  # noqa: BLE001 - see receive
        log.exception("could not answer mail %s", mail.message_id)


def _raw_text(raw: bytes) -> str:
    """The mail as it is kept: at most RAW_LIMIT, as text a database stores."""
    return inbound.clean_text(raw[:RAW_LIMIT].decode("utf-8", "replace"))


def _outcome(result: Result) -> Words:
    """What became of a mail, for the moderators: kept as words (and their
    English) so that each moderator reads it in their own language."""
    parts = []
    if result.played:
        parts.append(msg("Played: %(moves)s.", moves=listing(result.played, "; ")))
    if result.reason:
        parts.append(_w(result.reason))
    return listing(parts, " ")


def _as_json(words: Words) -> dict | None:
    """The words to keep, or None (the English is kept beside them) should a
    value in them not be JSON: the mail's row must be written whatever."""
    data = words.to_json()
    try:
        json.dumps(data)
    except (TypeError, ValueError):
        return None
    return data


def _w(text) -> Words:
    """A reason as ``Words``: a msgid marked N_ is looked up as a term."""
    return text if isinstance(text, Words) else term(str(text))


def _handle(
    mail: ParsedMail,
    to_addr: str,
    row: InboundMail,
    mailer: Mailer,
    verdict: authentication.Verdict,
) -> Result:
    if mail.automatic:
        return Result(
            "ignored", msg("Sent by a machine (%(how)s); not answered.", how=mail.automatic)
        )
    if not mail.sender:
        return Result("ignored", N_("No sender address; nobody to answer."))
    if not to_addr:
        return Result("ignored", N_("Not addressed to a reply address of ours."))
    try:
        target = reply_menu.addresses(mailer.settings).read(to_addr)
    except AddressError:
        return Result(
            "ignored", N_("This reply address is not one the server gave out; not answered.")
        )
    if target.kind == COMMANDS:  # about no game: leagues, clubs
        return Result(*command_replies.receive(mail, target, row, mailer, verdict))
    game = Game.get_or_none(Game.id == target.game_id)
    if game is None:
        return Result("ignored", N_("That game no longer exists; not answered."))
    row.game_id = game.id
    if target.kind == CONFIRM:
        return _confirmed(mail, target, game, row, mailer)
    user = User.get_or_none(User.email == mail.sender)
    user = user if user is not None and user.verified else None
    if not verdict.authenticated:
        return _hold(mail, target, game, user, row, mailer, verdict.how)
    if user is not None:
        row.user_id = user.id
    return _act(mail, target, game, user, mailer)


def _act(
    mail: ParsedMail, target: ReplyTarget, game: Game, user: User | None, mailer: Mailer
) -> Result:
    """A mail whose sender is proven (or confirmed): do what it says."""
    if target.kind == LOBBY:
        return lobby(mail, target, game, user, mailer)
    if target.kind == TALK:
        return talk_reply(mail, target, game, user, mailer)
    if target.kind == QUESTION:
        return question_reply(mail, target, game, user, mailer)
    return seat_reply(mail, target, game, user, mailer)


def _hold(
    mail: ParsedMail,
    target: ReplyTarget,
    game: Game,
    user: User | None,
    row: InboundMail,
    mailer: Mailer,
    why: str,
) -> Result:
    """A mail not proven to be from its From: is not acted on; its account
    is asked to confirm it, when it could act at all."""
    owner = reply_confirmations.owner(target, game, user)
    if owner is None or not mail.commands:
        return Result(
            "ignored",
            msg(
                "Not authenticated (%(why)s), and nothing an account could confirm; not answered.",
                why=why,
            ),
        )
    row.user_id = owner.id
    if (
        reply_confirmations.hold(target, game, owner, mail.commands, row, mailer, mail.sender)
        is None
    ):
        return Result(
            "ignored",
            msg(
                "Not authenticated (%(why)s); the account was asked to confirm too "
                "often this hour, so it was not asked again.",
                why=why,
            ),
        )
    return Result(
        "held",
        msg(
            "Not authenticated (%(why)s); held until the account's own address confirms it.",
            why=why,
        ),
    )


def _confirmed(
    mail: ParsedMail, target: ReplyTarget, game: Game, row: InboundMail, mailer: Mailer
) -> Result:
    """A reply to a single-use confirmation address: the held mail acts now,
    once, as its account (the address went to no one else).  The reply must
    say yes in its first line: an out-of-office that says nothing of being
    automatic must not confirm a move its owner never saw."""
    if not reply_confirmations.says_yes(mail.commands):
        return Result(
            "ignored",
            N_(
                "A reply to a confirmation address that does not start "
                "with yes; nothing confirmed, not answered."
            ),
        )
    held = reply_confirmations.claim(target, game, mailer.settings)
    if held is None:
        return Result(
            "ignored",
            N_("This confirmation address was used before or has expired; not answered."),
        )
    user = User.get_by_id(held.user_id)
    if not user.verified:
        return Result("ignored", N_("The account is no longer confirmed; not answered."))
    row.user_id = user.id
    mail, original = reply_confirmations.held_mail(held, user)
    return _act(mail, original, game, user, mailer)


def _refuse_account(user: User | None, mailer: Mailer, game: Game, reason: str) -> Result:
    """The answer to a proven sender who may not act here: to their own
    confirmed account only, with nothing about any seat; a sender without
    an account gets nothing."""
    if user is None:
        return Result(
            "ignored",
            msg("%(reason)s Not answered: the sender has no confirmed account.", reason=_w(reason)),
        )
    if _refused_often(user, mailer.settings):
        return Result("ignored", _unanswered(reason))
    mailer.queue(
        "reply_refused",
        user.email,
        "[pbem] " + mailer.words(user, "Your mail could not be used"),
        {
            "name": user.name,
            "reason": say(user.language, reason),
            "menu": None,
            "seat_url": "",
            "next_name": "",
            "yours": False,
            "title": rules(game).title,
        },
        game,
        user,
    )
    return Result("refused", reason)


def _refused_often(user: User, settings) -> bool:
    """Whether this account's mails were refused REPLY_REFUSALS_PER_HOUR
    times this past hour: then no more refusals go out, which ends the loop
    with an auto-responder that signs its mail but says it is not one."""
    since = utcnow() - dt.timedelta(hours=1)
    refused = (
        InboundMail.select()
        .where(
            (InboundMail.user == user.id)
            & (InboundMail.status == "refused")
            & (InboundMail.received_at > since)
        )
        .count()
    )
    return refused >= int(settings.get("REPLY_REFUSALS_PER_HOUR", 5))


def _unanswered(reason) -> Words:
    return msg(
        "%(reason)s Not answered: this account's mails were refused too often this hour.",
        reason=_w(reason),
    )


# -- table talk -----------------------------------------------------------------
def talk_reply(
    mail: ParsedMail, target: ReplyTarget, game: Game, user: User | None, mailer: Mailer
) -> Result:
    """A reply to a table-talk mail: its text (quotes and signature cut) goes
    to the table as the seat's message; nothing is answered but a refusal."""
    seat = (
        Seat.select(Seat, User)
        .join(User)
        .where((Seat.game == game.id) & (Seat.index == target.seat))
        .get_or_none()
    )
    if (
        seat is None
        or user is None
        or seat.user_id != user.id
        or seat.link_version != target.version
    ):
        return _refuse_account(
            user,
            mailer,
            game,
            N_(
                "Table talk is taken only from the player's own confirmed "
                "address, through the newest table-talk mail."
            ),
        )
    try:
        table_talk.post(game.id, seat, "\n".join(mail.commands), mailer)
    except MoveRejected as exc:
        return _answer(
            game,
            seat,
            mailer,
            "refused",
            msg("Your message was not posted: %(why)s", why=_why(exc)),
        )
    return Result("applied", N_("Posted to the table."))


# -- questions ------------------------------------------------------------------
def question_reply(
    mail: ParsedMail, target: ReplyTarget, game: Game, user: User | None, mailer: Mailer
) -> Result:
    """A reply to a question's mail: its first word, yes or no, answers it
    as the account the address names; the answer mail says what happened."""
    if user is None or user.id != target.version:
        return _refuse_account(
            user,
            mailer,
            game,
            N_("A question is answered only from the asked player's own confirmed address."),
        )
    agree = question_links.says(mail.commands)
    if agree is None:
        return _refuse_account(
            user,
            mailer,
            game,
            N_("Answer with yes or no as the first word of your reply; nothing was answered."),
        )
    try:
        said = questions.answer(target.seat, game, target.seq, user, agree, mailer)
    except MoveRejected as exc:
        return _refuse_account(user, mailer, game, _why(exc))
    mailer.queue(
        "reply_answered",
        user.email,
        mailer.subject_for(game, rules(game).title, N_("Your answer")),
        {
            "name": user.name,
            "title": rules(game).title,
            "said": say(user.language, _w(said)),
            "url": f"{mailer.links.base_url}/games/{game.id}",
        },
        game,
        user,
    )
    return Result("applied", said)


# -- moves ----------------------------------------------------------------------
def seat_reply(
    mail: ParsedMail, target: ReplyTarget, game: Game, user: User | None, mailer: Mailer
) -> Result:
    seat = (
        Seat.select(Seat, User)
        .join(User)
        .where((Seat.game == game.id) & (Seat.index == target.seat))
        .get_or_none()
    )
    if seat is None or user is None or seat.user_id != user.id:
        return _refuse_account(
            user,
            mailer,
            game,
            N_("Replies for this seat are taken only from its player's own confirmed address."),
        )
    if seat.withdrawn or seat.absent or seat.bot:
        # Resigned, removed, away or handed to a bot: its old addresses are dead.
        return _refuse_account(
            user,
            mailer,
            game,
            N_(
                "This seat no longer takes moves by mail, so your reply was not played; the "
                "game page says why."
            ),
        )
    if seat.link_version != target.version:
        return _answer(
            game,
            seat,
            mailer,
            "refused",
            N_(
                "This reply address was replaced by a newer one; "
                "answer the newest mail of this game."
            ),
        )
    if game.status == "finished":
        return _answer(
            game, seat, mailer, "refused", N_("This game is over; nothing more can be played.")
        )
    if game.seq != target.seq:
        return _answer(
            game,
            seat,
            mailer,
            "refused",
            N_("The game has moved on since the mail you answered, so your reply was not played."),
        )
    if not mail.commands:
        return _answer(
            game,
            seat,
            mailer,
            "refused",
            N_(
                "No choice was found at the top of your reply: "
                "answer with the number of one choice."
            ),
        )
    return _play_lines(mail.commands, game, seat, user, mailer)


def _play_lines(lines: list[str], game: Game, seat: Seat, user: User, mailer: Mailer) -> Result:
    played: list[str] = []
    reason = ""
    seq = game.seq
    for number, line in enumerate(lines, start=1):
        game = Game.get_by_id(game.id)
        if game.status != "active" or game.to_move != seat.index:
            reason = (
                msg("It is not your turn.")
                if number == 1
                else msg(
                    "Line %(number)s and after were not played: your part of the turn is done.",
                    number=number,
                )
            )
            break
        try:
            choice = match(line, reply_menu.seat_choices(game, seat.index, language=user.language))
            done = play(game.id, seat.index, choice.action, seq, mailer=mailer, user_id=user.id)
        except (Unreadable, IllegalMove, MoveRejected) as exc:
            reason = msg(
                'Line %(number)s ("%(line)s") was not played: %(why)s',
                number=number,
                line=line[:60],
                why=_why(exc),
            )
            break
        played.append(choice.label)
        seq = done.seq
    game = Game.get_by_id(game.id)
    if not played:
        return _answer(game, seat, mailer, "refused", reason)
    return _answer(game, seat, mailer, "applied", reason, played)


def match(line: str, choices: list[Choice]) -> Choice:
    """The choice a line names: its number, its words (the whole label, the
    start of one, or a part only one has), or "pass"."""
    if not choices:
        raise Unreadable(N_("It is not your turn."))
    text = " ".join(line.split()).strip(" .!").casefold().translate(STRAIGHT_QUOTES)
    number = NUMBER.fullmatch(text)
    if number:
        n = int(number.group(1))
        if not 1 <= n <= len(choices):
            raise Unreadable(
                msg("there is no choice %(n)s; choose 1 to %(count)s.", n=n, count=len(choices))
            )
        return choices[n - 1]
    # A label's narrow no-break spaces (French "colon\u202f:") are spaces to a reader.
    # A mail's curly quotes and apostrophes (typography.py) copied back are
    # the straight ones a label has, or that a reader types.
    labels = [" ".join(c.label.split()).casefold().translate(STRAIGHT_QUOTES) for c in choices]
    if text in PASS_WORDS:
        found = [
            c
            for c in choices
            if c.action.get("type") == "pass" or c.label.casefold().startswith("pass")
        ]
        if not found:
            raise Unreadable(N_("passing is not one of your choices now."))
        return found[0]
    for test in (
        lambda label: label == text,
        lambda label: label.startswith(text),
        lambda label: text in label,
    ):
        found = [c for c, label in zip(choices, labels) if test(label)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise Unreadable(N_("it fits several choices; answer with the number."))
    raise Unreadable(N_("it is none of your choices."))


def _why(exc: Exception) -> Words:
    """An exception's message as ``Words``: its template when it was raised
    with one, else the catalog's entry for it (messages marked ``N_``)."""
    text = exc.args[0] if exc.args else str(exc)
    return text if isinstance(text, Words) else term(str(text))


def _answer(
    game: Game,
    seat: Seat,
    mailer: Mailer,
    status: str,
    reason: str,
    played: list[str] | None = None,
) -> Result:
    """The mail to the seat's player: what was played, or why not, and the
    choices now (with a fresh reply address)."""
    seat = Seat.get_by_id(seat.id)
    user = User.get_by_id(seat.user_id)
    menu = reply_menu.menu(mailer.settings, game, seat)
    names = seat_names(game)
    kind = rules(game)
    next_name = names[game.to_move] if game.status == "active" and game.to_move is not None else ""
    context = {
        "name": user.name,
        "title": kind.title,
        "reason": _said(user.language, reason),
        "played": played or [],
        "over": game.status == "finished",
        "next_name": next_name,
        "yours": game.to_move == seat.index,
        "menu": menu.context() if menu else None,
        "seat_url": mailer.links.seat_url(seat),
    }
    if status != "applied" and _refused_often(user, mailer.settings):
        return Result("ignored", _unanswered(reason))
    template = "reply_applied" if status == "applied" else "reply_refused"
    mailer.queue(
        template,
        user.email,
        mailer.subject_for(game, kind.title, REPLY_SUBJECTS[template]),
        context,
        game,
        user,
        reply_to=menu.reply_to if menu and menu.choices else "",
    )
    return Result(status, reason, played or [])


# -- lobby ----------------------------------------------------------------------
def lobby(
    mail: ParsedMail, target: ReplyTarget, game: Game, user: User | None, mailer: Mailer
) -> Result:
    kind = get_game(game.kind)
    if user is None:
        return Result(
            "ignored",
            N_(
                "Lobby commands are taken only from the address of a "
                "confirmed account; the sender has none, so it is not answered."
            ),
        )
    if game.join_version != target.version:
        return _lobby_answer(
            user.email,
            user,
            game,
            mailer,
            "refused",
            N_("This lobby address was revoked by the host."),
            [],
        )
    done, reason = [], ""
    for line in mail.commands:
        try:
            done.append(lobby_command(line, game, user, kind, mailer))
        except (MoveRejected, IllegalMove, Unreadable) as exc:
            reason = msg('"%(line)s" was not done: %(why)s', line=line[:60], why=_why(exc))
            break
    if not mail.commands:
        reason = N_("No command was found at the top of your mail.")
    result = _lobby_answer(
        user.email, user, game, mailer, "applied" if done else "refused", reason, done
    )
    host = User.get_by_id(game.host_id)
    joined = [line for line in done if line.startswith("You sit")]
    left = [line for line in done if line.startswith("You left")]
    if (joined or left) and host.id != user.id:
        # The host hears of it, and can answer that mail with /start.
        news: list[str] = (
            [
                msg(
                    "%(name)s now sits in seat %(seat)s.",
                    name=user.name,
                    seat=joined[-1].split()[-1].rstrip("."),
                )
            ]
            if joined
            else []
        )
        news += [open_games.left_text(user)] if left else []
        _lobby_answer(host.email, host, game, mailer, "applied", "", news)
    return result


NOT_INVITED = N_(
    "this table takes only the addresses its host invited; ask the host to invite "
    "the address you write from."
)


def lobby_command(line: str, game: Game, user: User, kind, mailer: Mailer) -> str:
    words = line.split()
    command = words[0].lower().lstrip("/") if words else ""
    if command == "join" and len(words) == 2 and words[1].isascii() and words[1].isdigit():
        if not games.may_sit(game, user):
            raise MoveRejected(NOT_INVITED)
        seat = games.join(game.id, user, int(words[1]) - 1)
        return msg("You sit in seat %(seat)s.", seat=seat.index + 1)
    if command == "leave" and len(words) == 1:
        games.leave(game.id, user)
        return msg("You left the game.")
    if command == "start" and len(words) == 1:
        games.start(game.id, user, mailer)
        return msg("The game has started.")
    if command == "option" and len(words) in (2, 3):
        value = words[-1].lower()
        if len(words) == 3:
            name = words[1].lower()
        else:
            specs = [s for s in kind.options if s.canonical(value) is not None]
            if not specs:
                allowed = "; ".join(s.allowed() for s in kind.options) or "none"
                raise Unreadable(
                    msg(
                        "no option takes %(value)s (allowed: %(allowed)s).",
                        value=repr(value),
                        allowed=allowed,
                    )
                )
            name = specs[0].name
        game = games.set_option(game.id, user, name, value)
        return msg("Option %(name)s is now %(value)s.", name=name, value=game.options[name])
    raise Unreadable(N_("the lobby knows /join N, /leave, /start and /option VALUE."))


FREE_SEAT = N_("(free)")
# What an answer to a move by mail is, first in its subject.
STRAIGHT_QUOTES = str.maketrans("\u2018\u2019\u201c\u201d\u201e", '\'\'"""')
REPLY_SUBJECTS = {
    "reply_applied": N_("Your mail was played"),
    "reply_refused": N_("Your mail could not be used"),
}


def _said(language: str | None, text) -> str:
    """An engine's label or value, a reason (Words, or a msgid marked N_)."""
    if text in ("", None):
        return ""
    return say(language, text if isinstance(text, Words) else term(str(text)))


def _lobby_answer(
    to_addr: str, user: User, game: Game, mailer: Mailer, status: str, reason: str, done: list[str]
) -> Result:
    game = Game.get_by_id(game.id)
    kind = get_game(game.kind)
    language = user.language if user else None
    names = [
        s.user.name if s.user_id else None
        for s in Seat.select(Seat, User)
        .join(User, JOIN.LEFT_OUTER, on=(Seat.user == User.id))
        .where(Seat.game == game.id)
        .order_by(Seat.index)
    ]
    # An option as the lobby page says it, with the word /option takes beside it.
    options = [
        f"{_said(language, spec.label)}: {_said(language, value)}"
        + ("" if _said(language, value) == str(value) else f" ({value})")
        for spec in kind.options
        for value in [game.options.get(spec.name, spec.default)]
    ]
    context = {
        "name": user.name if user else "",
        "title": kind.title,
        "reason": _said(language, reason),
        "done": [_said(language, d) for d in done],
        "status": game.status,
        "seats": names,
        "options": options,
    }
    if status != "applied" and _refused_often(user, mailer.settings):
        return Result("ignored", _unanswered(reason))
    reply_to = reply_menu.lobby_address(mailer.settings, game) if game.status == "open" else ""
    mailer.queue(
        "reply_lobby",
        to_addr,
        # Not "Lobby news": that is what the table's changes are mailed as.
        mailer.subject_for(game, kind.title, N_("Your mail to the lobby")),
        context,
        game,
        user,
        reply_to=reply_to,
    )
    return Result(status, reason, done)

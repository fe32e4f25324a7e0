"""Mail replies come in here: the intake, and to whom each goes.

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
- hands the rest to the job its address names (mail/reply_address.py):
  a seat's address (``play+<token>``) to move_replies.py, which plays the
  reply's lines as moves; a game's lobby address to lobby_replies.py
  (``/join N``, ``/start``, ``/option [name] value``); a table-talk address
  to talk_replies.py; a question's address (a takeback, a proposal, a
  rematch asked of one account) to question_replies.py; an account's
  commands address to command_replies.py.  What each comes to (its
  ``Result``, a refusal) is reply_results.py.

Answers go only to confirmed account addresses: what was played and what
comes next, or in one sentence why nothing changed, with the current
choices.  A sender without an account gets no mail at all.
"""

from __future__ import annotations

import hashlib
import json
import logging

from peewee import IntegrityError, InterfaceError, OperationalError

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
from server.models import Game, InboundMail, User
from server.services import (
    command_replies,
    lobby_replies,
    metrics,
    move_replies,
    question_replies,
    reply_confirmations,
    reply_menu,
    talk_replies,
)
from server.services.reply_results import Result, as_words

log = logging.getLogger("pbem.replies")
RAW_LIMIT = 256 * 1024
COULD_NOT_HANDLE = N_("Could not be handled (see the log); nothing was changed.")
FAILED = N_(
    "The server could not handle it. Answer the newest mail of the game, or use the game page."
)


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
        parts.append(as_words(result.reason))
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
        return lobby_replies.lobby(mail, target, game, user, mailer)
    if target.kind == TALK:
        return talk_replies.talk_reply(mail, target, game, user, mailer)
    if target.kind == QUESTION:
        return question_replies.question_reply(mail, target, game, user, mailer)
    return move_replies.seat_reply(mail, target, game, user, mailer)


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

"""What a mail reply comes to, whatever it asked: its ``Result`` for the
mail's record, the refusal to a proven sender who may not act (to their own
confirmed account only), and the cap on refusals an hour that ends a loop
with an auto-responder.  Shared by the replies' jobs (move_replies,
lobby_replies, talk_replies, question_replies) and their intake (replies.py).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from engine.words import Words, msg, term
from server.i18n import say
from server.mail.compose import Mailer
from server.models import Game, InboundMail, User, utcnow
from server.services.state_store import rules


class Unreadable(Exception):
    """A line that names no choice; the message is for the player."""


@dataclass
class Result:
    status: str  # applied, refused, ignored, held
    reason: str = ""  # one sentence
    played: list[str] = field(default_factory=list)


def as_words(text) -> Words:
    """A reason as ``Words``: a msgid marked N_ is looked up as a term."""
    return text if isinstance(text, Words) else term(str(text))


def why_not(exc: Exception) -> Words:
    """An exception's message as ``Words``: its template when it was raised
    with one, else the catalog's entry for it (messages marked ``N_``)."""
    text = exc.args[0] if exc.args else str(exc)
    return text if isinstance(text, Words) else term(str(text))


def said_in(language: str | None, text) -> str:
    """An engine's label or value, a reason (Words, or a msgid marked N_)."""
    if text in ("", None):
        return ""
    return say(language, text if isinstance(text, Words) else term(str(text)))


def refuse_account(user: User | None, mailer: Mailer, game: Game, reason: str) -> Result:
    """The answer to a proven sender who may not act here: to their own
    confirmed account only, with nothing about any seat; a sender without
    an account gets nothing."""
    if user is None:
        return Result(
            "ignored",
            msg(
                "%(reason)s Not answered: the sender has no confirmed account.",
                reason=as_words(reason),
            ),
        )
    if refused_often(user, mailer.settings):
        return Result("ignored", unanswered(reason))
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


def refused_often(user: User, settings) -> bool:
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


def unanswered(reason) -> Words:
    return msg(
        "%(reason)s Not answered: this account's mails were refused too often this hour.",
        reason=as_words(reason),
    )

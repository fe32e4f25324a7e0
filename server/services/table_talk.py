"""Table talk: short messages from the players to the table.

A message is posted on the game page or by replying to a table-talk mail;
the other players get it by mail at once (optional mail, not for digest
readers), and whatever a seat has not had by mail yet rides along in its
next turn mail and digest.  Only the players, the host and site moderators
read it (``may_read``).  A moderator may hide a message: the text stays
in the database, the page says it was hidden and why, and the hiding is a
note on the game's record.
"""

from __future__ import annotations

import datetime as dt
import re

from engine.words import N_, msg
from server.db import db
from server.mail import limits
from server.mail.compose import Mailer
from server.models import Game, Seat, TableMessage, User, utcnow
from server.services import moderation, moves, reply_menu
from server.services.state_store import rules
from server.services.what_a_seat_sees import seat_names

MAX_CHARS = 500
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class TalkError(moves.MoveRejected):
    status = 400


class TooMuchTalk(TalkError):
    """Over TALK_PER_USER_PER_HOUR: the message is not posted."""

    status = 429


def clean(text: str) -> str:
    """The message as it will be shown: no control characters, no runs of
    blank lines, trimmed; TalkError when nothing or too much is left."""
    text = _CONTROL.sub("", text or "").replace("\r\n", "\n").strip()
    text = re.sub(r"\n{3,}", "\n\n", text)
    if not text:
        raise TalkError(N_("Write a message first."))
    if len(text) > MAX_CHARS:
        raise TalkError(msg("Keep a message under %(most)s characters.", most=MAX_CHARS))
    return text


def may_read(user, game: Game, seat: Seat | None) -> bool:
    """The table's talk is for the game's players (``seat``: the one this
    reader plays, by account or seat link), its host and site moderators:
    not for every account that opens the game page."""
    return seat is not None or moderation.may_moderate(user, game)


def post(
    game_id: int, seat: Seat, text: str, mailer: Mailer, now: dt.datetime | None = None
) -> TableMessage:
    text = clean(text)
    with db.atomic():
        game = Game.get_or_none(Game.id == game_id)
        if game is None or game.status == "open" or seat.game_id != game_id:
            raise moves.NotFound(N_("There is no such game."))
        if seat.withdrawn or seat.user_id is None:
            raise moderation.Forbidden(N_("Only the players of this game talk at its table."))
        _check_limit(mailer.settings, seat.user_id)
        message = TableMessage.create(
            game=game.id, user=seat.user_id, seat=seat.index, text=text, created_at=now or utcnow()
        )
        _mail_the_others(game, message, mailer)
    return message


def _check_limit(settings, user_id: int) -> None:
    limits.serialize(f"talk:{user_id}")
    most = settings["TALK_PER_USER_PER_HOUR"]
    if limits.talk_posted_by(user_id, limits.HOUR) >= most:
        raise TooMuchTalk(
            msg(
                "Not posted: a player may post %(limit)s messages an hour at "
                "all tables together. Try again later.",
                limit=most,
            )
        )


def _mail_the_others(game: Game, message: TableMessage, mailer: Mailer) -> None:
    author = User.get_by_id(message.user_id)
    others = (
        Seat.select(Seat, User)
        .join(User)
        .where((Seat.game == game.id) & (Seat.index != message.seat))
    )
    for seat in others:
        if seat.user.mail_mode == "digest":
            continue  # it comes with the digest
        # Over the address's limit none is queued: the message then rides
        # along in the seat's next turn mail (talk_seen_id stays).  The
        # author's own name: the seat may have changed hands since.
        queued = mailer.talk(
            game,
            rules(game).title,
            seat,
            author.name,
            message.text,
            reply_menu.talk_address(mailer.settings, game, seat),
            author_user=author,
        )
        if queued is not None:
            Seat.update(talk_seen_id=message.id).where(
                (Seat.id == seat.id) & (Seat.talk_seen_id < message.id)
            ).execute()


def hide(
    game_id: int,
    user: User,
    seq: int,
    message_id: int,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
) -> str:
    now, reason = now or utcnow(), moderation._reason(reason)
    with db.atomic():
        game = moderation._begin(game_id, user, seq, statuses=("active", "finished"))
        message = TableMessage.get_or_none(
            (TableMessage.id == message_id) & (TableMessage.game == game.id)
        )
        if message is None or message.hidden:
            raise moderation.ModerationError(N_("There is no such message to hide."))
        name = seat_names(game)[message.seat]
        text = moderation._said(
            msg(
                "%(who)s (moderator) hid a table-talk message of %(name)s.",
                who=user.name,
                name=name,
            ),
            reason,
        )
        moderation._note(
            game,
            seq,
            {"note": "hide_talk", "message": message.id, "reason": reason},
            text,
            user,
            now,
        )
        TableMessage.update(hidden=True, hidden_reason=reason).where(
            TableMessage.id == message.id
        ).execute()
    return f"The message of {name} is hidden."

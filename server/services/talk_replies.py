"""Table talk by mail: a reply to a table-talk mail, from the seat's own
confirmed address through the newest table-talk address, goes to the table
as the seat's message; nothing is answered but a refusal.
"""

from __future__ import annotations

from engine.words import N_, msg
from server.mail.compose import Mailer
from server.mail.inbound import ParsedMail
from server.mail.reply_address import (
    ReplyTarget,
)
from server.models import Game, Seat, User
from server.services import (
    move_replies,
    table_talk,
)
from server.services.moves import MoveRejected
from server.services.reply_results import (
    Result,
    refuse_account,
    why_not,
)


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
        return refuse_account(
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
        return move_replies.answer(
            game,
            seat,
            mailer,
            "refused",
            msg("Your message was not posted: %(why)s", why=why_not(exc)),
        )
    return Result("applied", N_("Posted to the table."))

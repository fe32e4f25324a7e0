"""Questions answered by mail: a reply to a question's address (a takeback,
a proposal, a rematch asked of one account) answers it as that account with
its first word, yes or no; the answer mail says what happened.
"""

from __future__ import annotations

from engine.words import N_
from server.i18n import say
from server.mail.compose import Mailer
from server.mail.inbound import ParsedMail
from server.mail.reply_address import (
    ReplyTarget,
)
from server.models import Game, User
from server.services import (
    question_links,
    questions,
)
from server.services.moves import MoveRejected
from server.services.reply_results import (
    Result,
    as_words,
    refuse_account,
    why_not,
)
from server.services.state_store import rules


def question_reply(
    mail: ParsedMail, target: ReplyTarget, game: Game, user: User | None, mailer: Mailer
) -> Result:
    """A reply to a question's mail: its first word, yes or no, answers it
    as the account the address names; the answer mail says what happened."""
    if user is None or user.id != target.version:
        return refuse_account(
            user,
            mailer,
            game,
            N_("A question is answered only from the asked player's own confirmed address."),
        )
    agree = question_links.says(mail.commands)
    if agree is None:
        return refuse_account(
            user,
            mailer,
            game,
            N_("Answer with yes or no as the first word of your reply; nothing was answered."),
        )
    try:
        said = questions.answer(target.seat, game, target.seq, user, agree, mailer)
    except MoveRejected as exc:
        return refuse_account(user, mailer, game, why_not(exc))
    mailer.queue(
        "reply_answered",
        user.email,
        mailer.subject_for(game, rules(game).title, N_("Your answer")),
        {
            "name": user.name,
            "title": rules(game).title,
            "said": say(user.language, as_words(said)),
            "url": f"{mailer.links.base_url}/games/{game.id}",
        },
        game,
        user,
    )
    return Result("applied", said)

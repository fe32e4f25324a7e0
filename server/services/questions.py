"""A question put to one player (a takeback, a proposal, a rematch), found
and answered by its kind and id, as a reply or a signed link names it
(services/question_links.py).  The kind's own service decides: who may
answer, whether the request still holds, what happens on the last yes."""

from __future__ import annotations

import datetime as dt

from engine.words import N_, Words, msg
from server.i18n import say
from server.mail.compose import Mailer
from server.models import Game, Proposal, Rematch, Takeback, User, utcnow
from server.services import proposals, rematches, takebacks
from server.services.question_links import PROPOSAL, REMATCH, TAKEBACK
from server.services.what_a_seat_sees import deadline_text


def still_asked(kind: int, game: Game, request_id: int, user_id: int, now=None) -> bool:
    """Whether ``user_id`` is asked this question and it still waits for
    their answer (not after their yes: a link answers once)."""
    now = now or utcnow()
    if kind == TAKEBACK:
        found = takebacks.open_takeback(game, now)
        return (
            found is not None
            and found.id == request_id
            and user_id in found.asked
            and user_id not in found.agreed
        )
    if kind == PROPOSAL:
        proposal = proposals.open_proposal(game)
        return (
            proposal is not None
            and proposal.id == request_id
            and user_id not in proposal.agreed
            and user_id in {s.user_id for s in proposals.voters(game, proposal)}
        )
    rematch = Rematch.get_or_none((Rematch.id == request_id) & (Rematch.game == game.id))
    return (
        rematch is not None
        and rematch.status == "open"
        and rematch.expires_at > now
        and user_id in rematch.asked
        and user_id not in rematch.agreed
    )


def answer(
    kind: int,
    game: Game,
    request_id: int,
    user: User,
    agree: bool,
    mailer: Mailer,
    now: dt.datetime | None = None,
) -> str:
    """Answer as ``user``; what the kind's service says (MoveRejected: why not)."""
    if kind == TAKEBACK:
        return takebacks.answer(game.id, user, request_id, game.seq, agree, mailer=mailer, now=now)
    if kind == PROPOSAL:
        return proposals.answer(game.id, user, request_id, agree, mailer=mailer, now=now)
    return rematches.answer(game.id, request_id, user, agree, mailer, now)


def question(kind: int, game: Game, request_id: int, user: User) -> Words | str:
    """The question in words, as the answer page shows it to ``user``."""
    language = user.language
    if kind == TAKEBACK:
        takeback = Takeback.get_by_id(request_id)
        return msg(
            "%(what)s Answer by %(when)s.",
            what=takebacks.describe(game, takeback, language),
            when=deadline_text(takeback.expires_at, user.timezone, language),
        )
    if kind == PROPOSAL:
        proposal = Proposal.get_by_id(request_id)
        proposer = User.get_by_id(proposal.proposer_id)
        what = say(language, proposals.describe(game, proposal.action, proposal.params))
        return msg(
            "%(who)s (host) proposes to %(what)s.",
            who=proposer.name,
            what=what,
        )
    rematch = Rematch.get_by_id(request_id)
    return msg(
        "%(who)s proposes a rematch: the same players, the same options, a new game. "
        "Answer by %(when)s.",
        who=User.get_by_id(rematch.proposer_id).name,
        when=deadline_text(rematch.expires_at, user.timezone, language),
    )


NO_LONGER = N_("This question no longer waits for your answer: it was answered or it ended.")
__all__ = ["NO_LONGER", "PROPOSAL", "REMATCH", "TAKEBACK", "answer", "question", "still_asked"]

"""Proposals: what a host who also plays may not do alone (undo moves, play
another player's default move, remove a player, give away a seat still
played, abandon the game: moderation.NEEDS_NEUTRAL) happens when every other
player agrees, or when a site moderator does it.

A proposal is on the record (a note in the game log, mailed to the other
players); each yes is kept on the proposal; the last yes carries it out as
the host, with the names of those who agreed in its note; one no ends it
(also a note).  It holds only while the game stays where it was proposed:
a move or any other note since makes it lapse, as it would make a form stale.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import partial

from engine.words import N_, msg, nmsg
from server.db import Prepared, db
from server.mail.compose import Mailer
from server.models import Game, Proposal, Seat, User, utcnow
from server.services import consent, moderation, moves, question_links, takebacks, what_a_seat_sees

SERVICES: dict[str, Callable[..., str]] = {
    "default": moderation.play_default,
    "replace": moderation.replace,
    "remove": moderation.remove,
    "undo": moderation.undo,
    "abandon": moderation.abandon,
    "extend": moderation.extend,
    "pause": moderation.pause,
}


def propose(
    game_id: int,
    user: User,
    seq: int,
    action: str,
    params: dict,
    reason: str,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
) -> str:
    if action not in SERVICES:
        raise moderation.ModerationError(N_("That action needs nobody's agreement."))
    now, reason = now or utcnow(), moderation.clean_reason(reason)
    _try(game_id, user, seq, action, params, reason, mailer, now)
    with db.atomic():
        game = moderation.begin(game_id, user, seq, statuses=("active", "finished"))
        if not moderation.plays_in(user, game):
            raise moderation.Forbidden(N_("Only a host who plays proposes; a moderator acts."))
        what = describe(game, action, params)
        text = moderation.noted_with_reason(
            msg(
                "%(who)s (host) proposes to %(what)s; it happens when every "
                "other player agrees on the game page.",
                who=user.name,
                what=what,
            ),
            reason,
        )
        new = moderation.note(
            game,
            seq,
            {"note": "proposal", "action": action, "params": params, "reason": reason},
            text,
            user,
            now,
            actor="host",
        )
        proposal = Proposal.create(
            game=game.id,
            action=action,
            params=params,
            reason=reason,
            proposer=user.id,
            seq=new,
            created_at=now,
        )
        mine = {s.index for s in moderation.players_seats(game) if s.user_id == user.id}
        moderation.tell(
            mailer,
            game,
            text,
            reason,
            skip=mine,
            subject=PROPOSAL_SUBJECTS.get(action, N_("Proposal to answer")),
            asking=partial(_asking, mailer, game, proposal),
        )
    return N_("Your proposal is on the record: it happens when every other player agrees.")


def _asking(mailer: Mailer, game: Game, proposal: Proposal, person: User) -> dict | None:
    """How ``person`` answers by mail: a reply address and a link (None: not asked)."""
    if person.id not in {s.user_id for s in voters(game, proposal)}:
        return None
    asking = (game.id, question_links.PROPOSAL, proposal.id, person.id)
    return {
        "answer_url": question_links.url(mailer, *asking),
        "reply_to": question_links.reply_to(mailer.settings, *asking),
    }


def _try(
    game_id: int,
    user: User,
    seq: int,
    action: str,
    params: dict,
    reason: str,
    mailer: Mailer,
    now: dt.datetime,
) -> None:
    """Carry the action out as if agreed, then roll it all back: what could
    not be done (too many moves to undo, a bad address) is refused now, not
    after everybody has said yes."""
    with db.atomic() as trial:
        SERVICES[action](
            game_id,
            user,
            seq,
            reason=reason,
            mailer=mailer,
            now=now,
            agreed_by=("trial",),
            **params,
        )
        trial.rollback()


def open_proposal(game: Game) -> Proposal | None:
    """The proposal waiting for answers, if the game is still where it was made."""
    return OPEN_PROPOSAL.first(game.id, game.seq)


OPEN_PROPOSAL = Prepared(
    lambda game_id, seq: (
        Proposal.select()
        .where((Proposal.game == game_id) & (Proposal.status == "open") & (Proposal.seq == seq))
        .order_by(Proposal.id.desc())
        .limit(1)
    )
)


def voters(game: Game, proposal: Proposal) -> list[Seat]:
    """Every other player: the seated accounts but the proposer, still playing
    (for a replacement, not the absent player being replaced: they are not
    there to answer)."""
    seats = (
        Seat.select(Seat, User).join(User).where((Seat.game == game.id) & (Seat.withdrawn == False))
    )  # noqa: E712 (SQL)
    replaced = proposal.params.get("index") if proposal.action == "replace" else None
    found = [
        s
        for s in seats
        if s.user_id != proposal.proposer_id and not (s.index == replaced and s.absent)
    ]
    if proposal.action == "undo":
        found += _makers_asked(game, proposal, found)
    return found


def _makers_asked(game: Game, proposal: Proposal, asked: list[Seat]) -> list[Seat]:
    """An undo removes no move without its maker's yes: whoever made one of
    the moves it takes back is asked too, even after leaving the seat."""
    count = proposal.params.get("count", 1)
    more = takebacks.makers_of_last(game, count if isinstance(count, int) else 1)
    more -= {s.user_id for s in asked} | {proposal.proposer_id}
    seats = {
        s.user_id: s
        for s in Seat.select(Seat, User)
        .join(User)
        .where((Seat.game == game.id) & Seat.user.in_(list(more)))
    }
    return [seats.get(uid) or Seat(game=game.id, index=-1, user=uid) for uid in sorted(more)]


def answer(
    game_id: int,
    user: User,
    proposal_id: int,
    agree: bool,
    *,
    mailer: Mailer,
    now: dt.datetime | None = None,
) -> str:
    now = now or utcnow()
    with db.atomic():
        game = Game.get_or_none(Game.id == game_id)
        proposal = consent.locked_request(Proposal, proposal_id, game_id)
        if game is None or proposal is None:
            raise moves.NotFound(N_("There is no such proposal."))
        if open_proposal(game) != proposal:
            raise moves.StaleMove(N_("This proposal no longer holds: the game has moved on."))
        if user.id not in {s.user_id for s in voters(game, proposal)}:
            raise moderation.Forbidden(N_("Only the other players of this game answer it."))
        if not agree:
            return _refuse(game, proposal, user, mailer, now)
        agreed = consent.add_yes(
            Proposal, proposal, user.id, {s.user_id for s in voters(game, proposal)}
        )
        if agreed is None:
            return N_("Your yes is noted; it waits for the other players.")
        return _carry_out(game, proposal, agreed, mailer, now)


def _no_longer_holds() -> moves.StaleMove:
    return moves.StaleMove(N_("This proposal no longer holds: the game has moved on."))


def _refuse(game: Game, proposal: Proposal, user: User, mailer: Mailer, now: dt.datetime) -> str:
    consent.close(Proposal, proposal, "refused", now, _no_longer_holds())
    what = describe(game, proposal.action, proposal.params)
    text = msg("%(who)s refused the proposal to %(what)s.", who=user.name, what=what)
    moderation.note(
        game,
        game.seq,
        {"note": "refused", "proposal": proposal.id},
        text,
        user,
        now,
        actor="player",
    )
    moderation.tell(mailer, game, text, proposal.reason, subject=N_("Proposal refused"))
    return N_("You refused: nothing happens.")


def _carry_out(
    game: Game, proposal: Proposal, agreed: list[int], mailer: Mailer, now: dt.datetime
) -> str:
    consent.close(Proposal, proposal, "done", now, _no_longer_holds())
    names = [u.name for u in User.select().where(User.id.in_(agreed)).order_by(User.name)]
    reason = f"{proposal.reason} (agreed by {', '.join(names)})"
    proposer = User.get_by_id(proposal.proposer_id)
    SERVICES[proposal.action](
        game.id,
        proposer,
        game.seq,
        reason=reason,
        mailer=mailer,
        now=now,
        agreed_by=tuple(names),
        **proposal.params,
    )
    return N_("Everybody agreed: it is done.")


# What a proposal's mail is, first in its subject: "Undo proposal: Sugar (Kind #3)".
PROPOSAL_SUBJECTS = {
    "undo": N_("Undo proposal"),
    "abandon": N_("Proposal to abandon"),
    "remove": N_("Proposal to remove a player"),
    "replace": N_("Proposal to give a seat"),
    "default": N_("Proposal to play a default move"),
    "pause": N_("Proposal to pause the game"),
}


def describe(game: Game, action: str, params: dict) -> str:
    names = what_a_seat_sees.seat_names(game)
    seat = params.get("index")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    if action == "default":
        return (
            msg("play the default action for %(who)s", who=names[game.to_move])
            if game.to_move is not None
            else msg("play the default action")
        )
    if action == "replace":
        return msg("give the seat of %(who)s to %(email)s", who=who, email=params.get("email"))
    if action == "remove":
        return msg("remove %(who)s from the game", who=who)
    if action == "undo":
        return nmsg("undo the last move", "undo the last %(n)s moves", params.get("count", 1))
    if action == "extend":
        return nmsg(
            "give %(who)s %(n)s more hour",
            "give %(who)s %(n)s more hours",
            params.get("hours", 1),
            who=names[game.to_move] if game.to_move is not None else "?",
        )
    if action == "pause":
        return msg("pause the game (every clock stops until it resumes)")
    return {"abandon": msg("abandon the game as it stands")}[action]

"""The parts of a player's data archive (services/data_export.py) beyond
their games: clubs and leagues they belong to, the requests they made at a
table (takebacks, proposals, rematches), their away periods and chat
channels, sign-ups waiting for confirmation, and what moderators noted on
the account.  Secrets stay out: no channel address, no password hash."""

from __future__ import annotations

from server.models import (
    AccountNote,
    Club,
    ClubMember,
    ClubRequest,
    League,
    LeagueMember,
    NotifyChannel,
    Proposal,
    Rematch,
    SignUpAttempt,
    Takeback,
    User,
    Vacation,
)


def clubs(user: User) -> dict:
    member = ClubMember.select(ClubMember, Club).join(Club).where(ClubMember.user == user.id)
    asked = ClubRequest.select(ClubRequest, Club).join(Club).where(ClubRequest.user == user.id)
    return {
        "memberships": [
            {"club": m.club.name, "role": m.role, "joined_at": m.joined_at}
            for m in member.order_by(ClubMember.id)
        ],
        "requests": [
            {
                "club": r.club.name,
                "status": r.status,
                "at": r.created_at,
                "decided_at": r.decided_at,
            }
            for r in asked.order_by(ClubRequest.id)
        ],
        "founded": [c.name for c in Club.select().where(Club.founder == user.id)],
    }


def leagues(user: User) -> dict:
    member = LeagueMember.select(LeagueMember, League).join(League)
    return {
        "memberships": [
            {
                "league": m.league.name,
                "kind": m.league.kind,
                "joined_at": m.joined_at,
                "dropped_at": m.dropped_at,
            }
            for m in member.where(LeagueMember.user == user.id).order_by(LeagueMember.id)
        ],
        "created": [lg.name for lg in League.select().where(League.creator == user.id)],
    }


def requests(user: User) -> dict:
    """What they asked of the other players at a table."""
    return {
        "takebacks": [
            {"game": t.game_id, "seat": t.seat + 1, "status": t.status, "at": t.created_at}
            for t in Takeback.select().where(Takeback.requester == user.id).order_by(Takeback.id)
        ],
        "proposals": [
            {"game": p.game_id, "action": p.action, "reason": p.reason, "status": p.status}
            for p in Proposal.select().where(Proposal.proposer == user.id).order_by(Proposal.id)
        ],
        "rematches": [
            {"game": r.game_id, "status": r.status, "new_game": r.new_game_id, "at": r.created_at}
            for r in Rematch.select().where(Rematch.proposer == user.id).order_by(Rematch.id)
        ],
    }


def account_extras(user: User) -> dict:
    """Away periods, chat channels (masked as the settings page shows them),
    sign-ups still waiting for their link, and moderators' notes."""
    channels = NotifyChannel.select().where(NotifyChannel.user == user.id)
    waiting = SignUpAttempt.select().where(SignUpAttempt.user == user.id)
    notes = AccountNote.select().where(AccountNote.user == user.id)
    return {
        "away": [
            {"from": v.starts_at, "until": v.ends_at}
            for v in Vacation.select().where(Vacation.user == user.id).order_by(Vacation.id)
        ],
        "channels": [
            {"kind": c.scheme, "address": c.masked, "game": c.game_id, "events": c.events}
            for c in channels.order_by(NotifyChannel.id)
        ],
        "sign_ups_waiting": [
            {"name": a.name, "language": a.language, "timezone": a.timezone, "at": a.created_at}
            for a in waiting.order_by(SignUpAttempt.id)
        ],
        "moderator_notes": [
            {"action": n.action, "reason": n.reason, "at": n.created_at}
            for n in notes.order_by(AccountNote.id)
        ],
    }

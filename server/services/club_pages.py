"""What a club's page shows: its members, its games, a leaderboard per game
from the site's ratings restricted to its members, and the members'
upcoming deadlines.

The club's games are the games made *for the club* (``Game.club``, chosen
by a member on the new game form), whoever sits at them: a rule a reader
can check, and one a league's games will follow.  Every other way of
showing a member's games keeps to the member's own profile choices: a
leaderboard lists only members who show their ratings, and the deadlines
only members who show the games they play, of games not kept private.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import GAMES
from server.models import Club, ClubMember, ClubRecord, ClubRequest, Game, PlayerRating, Seat, User
from server.services import ratings
from server.services.profiles import may_see_private

LISTED = 50  # games of each kind (open, going, finished) shown
DEADLINES = 20


@dataclass(frozen=True)
class Member:
    user: User
    admin: bool
    joined_at: object


def members(club: Club) -> list[Member]:
    rows = (
        ClubMember.select(ClubMember, User)
        .join(User, on=(ClubMember.user == User.id))
        .where(ClubMember.club == club.id)
    )
    found = [Member(r.user, r.role == "admin", r.joined_at) for r in rows]
    found.sort(key=lambda m: (not m.admin, m.user.name.casefold(), m.user.id))
    return found


def games(club: Club, viewer) -> dict[str, list[Game]]:
    """The club's games by status (open, active, finished), newest first;
    a private game only for those who may see it."""
    shown: dict[str, list[Game]] = {"open": [], "active": [], "finished": []}
    for status in shown:
        query = (
            Game.select()
            .where((Game.club == club.id) & (Game.status == status))
            .order_by(Game.id.desc())
            .limit(LISTED)
        )
        shown[status] = [g for g in query if not g.private or may_see_private(g, viewer)]
    return shown


def leaderboards(club: Club, ids: list[int], viewer, settings) -> list[dict]:
    """One board per game kind in which a member is rated: members who show
    their ratings (and the viewer), best shown rating first."""
    if not ids:
        return []
    rows = (
        PlayerRating.select(PlayerRating, User)
        .join(User)
        .where(PlayerRating.user.in_(ids) & (PlayerRating.games > 0))
    )
    boards: dict[str, list] = {}
    for row in rows:
        if row.user.show_ratings or row.user_id == getattr(viewer, "id", None):
            boards.setdefault(row.kind, []).append(row)
    found = []
    for kind in sorted(boards, key=lambda k: GAMES[k].title if k in GAMES else k):
        ranked = sorted(boards[kind], key=lambda r: (-ratings.shown(r), -r.games, r.user_id))
        found.append(
            {
                "title": GAMES[kind].title if kind in GAMES else kind,
                "rows": [
                    {
                        "place": i + 1,
                        "user": r.user,
                        "shown": ratings.shown(r),
                        "games": r.games,
                        "provisional": ratings.provisional(r, settings),
                    }
                    for i, r in enumerate(ranked)
                ],
            }
        )
    return found


def deadlines(ids: list[int], viewer, limit: int = DEADLINES) -> list[dict]:
    """The members' next deadlines in games going on, soonest first."""
    if not ids:
        return []
    rows = (
        Seat.select(Seat, Game, User)
        .join(Game, on=(Seat.game == Game.id))
        .switch(Seat)
        .join(User, on=(Seat.user == User.id))
        .where(
            Seat.user.in_(ids)
            & (Game.status == "active")
            & Seat.deadline.is_null(False)
            & (User.show_playing | (User.id == getattr(viewer, "id", 0)))
        )
        .order_by(Seat.deadline)
        .limit(limit * 2)
    )
    shown = [
        {"game": r.game, "user": r.user, "deadline": r.deadline}
        for r in rows
        if not r.game.private or may_see_private(r.game, viewer)
    ]
    return shown[:limit]


def record(club: Club, limit: int = 100) -> list[dict]:
    """The record, newest first, with the names of who and by whom."""
    rows = list(
        ClubRecord.select()
        .where(ClubRecord.club == club.id)
        .order_by(ClubRecord.id.desc())
        .limit(limit)
    )
    ids = {r.user_id for r in rows} | {r.actor_id for r in rows}
    names = {u.id: u.name for u in User.select(User.id, User.name).where(User.id.in_(list(ids)))}
    return [
        {
            "row": r,
            "who": names.get(r.user_id, "?"),
            "by": names.get(r.actor_id) if r.actor_id else None,
        }
        for r in rows
    ]


def open_requests(club: Club) -> list[ClubRequest]:
    return list(
        ClubRequest.select(ClubRequest, User)
        .join(User, on=(ClubRequest.user == User.id))
        .where((ClubRequest.club == club.id) & (ClubRequest.status == "open"))
        .order_by(ClubRequest.id)
    )

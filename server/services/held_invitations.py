"""Invitations held back by an address's daily limit.

An address that never agreed to hear from an inviter gets at most
INVITES_PER_ADDRESS_PER_DAY invitation mails a day, whoever invites it.  An
invitation past that limit is not refused: it is kept, held until the limit
has room again (``Invitation.held_until``), and the host's lobby page says
so.  Then the scheduler's sweep writes one mail to the address with every
invitation held for it whose lobby is still open; an address that asked
never to be invited gets nothing, and its held invitations are dropped.
"""

from __future__ import annotations

import datetime as dt

from engine import get_game
from server.db import db
from server.mail import limits
from server.mail.compose import Mailer
from server.models import Game, Invitation, User, utcnow


def waiting(address: str):
    """The invitations held for ``address`` whose mail has not gone yet."""
    return Invitation.select().where(
        (Invitation.email == address)
        & Invitation.held_until.is_null(False)
        & Invitation.held_settled_at.is_null()
    )


def hold_until(settings, address: str, now: dt.datetime | None = None) -> dt.datetime:
    """When a new invitation to ``address`` held now will go: with those
    held for it already (one mail), or when its daily limit has room."""
    now = now or utcnow()
    earlier = waiting(address).order_by(Invitation.held_until).first()
    if earlier is not None:
        return earlier.held_until
    return limits.room_at(settings, address, now)


def held_by(user_id: int, window: dt.timedelta, now: dt.datetime | None = None) -> int:
    """Invitations the user made within ``window`` that were held back: they
    count against the inviter's own daily limit like the ones mailed."""
    since = (now or utcnow()) - window
    return (
        Invitation.select()
        .join(Game, on=(Invitation.game == Game.id))
        .where(
            (Game.host == user_id)
            & Invitation.held_until.is_null(False)
            & (Invitation.created_at > since)
        )
        .count()
    )


def held_in(game: Game) -> list[Invitation]:
    """The game's invitations still held, for its host's page."""
    return list(
        Invitation.select()
        .where(
            (Invitation.game == game.id)
            & Invitation.held_until.is_null(False)
            & Invitation.held_settled_at.is_null()
        )
        .order_by(Invitation.email)
    )


def send_due(settings, mailer: Mailer, now: dt.datetime | None = None) -> int:
    """Write the mail of every address whose held invitations are due; the
    number of mails written."""
    now = now or utcnow()
    due = (
        Invitation.select(Invitation.email)
        .where(
            Invitation.held_until.is_null(False)
            & (Invitation.held_until <= now)
            & Invitation.held_settled_at.is_null()
        )
        .distinct()
    )
    addresses = sorted({row.email for row in due})
    return sum(_send_one(settings, mailer, address, now) for address in addresses)


def _send_one(settings, mailer: Mailer, address: str, now: dt.datetime) -> int:
    """1 when the address's mail was written; every invitation due for it
    is settled (mailed or dropped) in the same transaction, or none is."""
    with db.atomic() as transaction:
        # The lock invitations to this address count under: one writer at a time.
        limits.serialize(address)
        rows = _due_for(address, now)
        if not rows:
            return 0  # another scheduler wrote it
        live = [row for row in rows if row.game.status == "open"]
        wanted = bool(live) and not limits.never_invite(address)
        if wanted and not limits.allows(settings, "invite_held", address, stranger=True):
            # Another invitation took the room (one the address agreed to
            # still counts): the held ones wait for the next.
            later = limits.room_at(settings, address, now)
            Invitation.update(held_until=later).where(
                Invitation.id.in_([row.id for row in rows])
            ).execute()
            return 0
        if not _claim(rows, now):
            transaction.rollback()  # somebody else's claim won
            return 0
        return 1 if wanted and _mail(mailer, address, live) is not None else 0


def _due_for(address: str, now: dt.datetime) -> list[Invitation]:
    return list(
        waiting(address)
        .select(Invitation, Game)
        .join(Game, on=(Invitation.game == Game.id))
        .where(Invitation.held_until <= now)
        .order_by(Invitation.created_at)
    )


def _claim(rows: list[Invitation], now: dt.datetime) -> bool:
    """Settle the rows, if nobody settled one of them first (compare and set)."""
    ids = [row.id for row in rows]
    claimed = (
        Invitation.update(held_settled_at=now)
        .where(Invitation.id.in_(ids) & Invitation.held_settled_at.is_null())
        .execute()
    )
    return claimed == len(ids)


def _mail(mailer: Mailer, address: str, live: list[Invitation]):
    host_ids = {row.game.host_id for row in live}
    hosts = {u.id: u for u in User.select().where(User.id.in_(list(host_ids)))}
    listed = [(row.game, get_game(row.game.kind).title, hosts[row.game.host_id]) for row in live]
    return mailer.held_invitations(address, listed)

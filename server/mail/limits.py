"""How much mail the site sends on someone's behalf.

Invitations, table talk and the answers to mail replies carry what somebody
else wrote or asked for, to an address that may never have asked for
anything.  Each is limited per user and per recipient address, over a
sliding window, counted from the outbox (and the table-talk table) in the
database, so the counts hold across web workers, schedulers and machines.

``Mailer.queue`` (compose.py) applies the per-recipient limits to every
mail of these kinds, whoever queues it; the services that act for a user
(games.invite, table_talk.post) check theirs first and refuse with a
message, so that nothing is half done; an invitation over its address's
limit is held instead (services/held_invitations.py).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from peewee import PostgresqlDatabase, fn

from server.db import db
from server.models import Game, Invitation, NeverInvite, Outbox, Seat, TableMessage, User, utcnow

HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)
# A rematch request goes out on the proposer's behalf like an invitation
# (services/rematches.py) and counts with them, per user and per address.
# The one mail of invitations held back for an address counts with them too.
INVITE = ("invite", "rematch", "invite_held")
TALK = ("talk",)
# Answers that anybody can make the site send by forging a From: line.  An
# answer that says what was played needs the seat's own signed reply address
# for the position it shows: those follow the game and are not counted.
ANSWERS = ("reply_refused", "reply_lobby")
# A lobby's host hears of every join and leave through the page; somebody
# joining and leaving over and over must not flood the host's mailbox.
LOBBY_NEWS = ("lobby_news",)


@dataclass(frozen=True)
class Limit:
    count: int
    window: dt.timedelta
    kinds: tuple[str, ...]


def for_recipient(settings, kind: str, stranger: bool) -> Limit | None:
    """The limit on mails of ``kind`` to one address; None: not limited.

    Invitations have one limit for every address: a limit that differed for
    addresses with an account would tell a host whether one exists."""
    if kind in INVITE:
        return Limit(settings["INVITES_PER_ADDRESS_PER_DAY"], DAY, INVITE)
    if kind in TALK:
        return Limit(settings["TALK_MAILS_PER_ADDRESS_PER_HOUR"], HOUR, TALK)
    if kind in LOBBY_NEWS:
        return Limit(settings["ANSWERS_PER_ADDRESS_PER_HOUR"], HOUR, LOBBY_NEWS)
    if kind in ANSWERS:
        if stranger:
            return Limit(settings["ANSWERS_PER_STRANGER_PER_DAY"], DAY, ANSWERS)
        return Limit(settings["ANSWERS_PER_ADDRESS_PER_HOUR"], HOUR, ANSWERS)
    return None


def confirmed(address: str) -> bool:
    """An account whose owner confirmed it uses this address."""
    return (
        User.select(User.id)
        .where((User.email == address.strip().lower()) & User.email_verified_at.is_null(False))
        .exists()
    )


def _addresses(address: str) -> list[str]:
    return sorted({address, address.strip().lower()})


def sent_to(address: str, limit: Limit, now: dt.datetime | None = None) -> int:
    """Mails of the limit's kinds written to ``address`` within its window."""
    since = (now or utcnow()) - limit.window
    return (
        Outbox.select(fn.COUNT(Outbox.id))
        .where(
            Outbox.to_addr.in_(_addresses(address))
            & (Outbox.created_at > since)
            & Outbox.kind.in_(limit.kinds)
        )
        .scalar()
    )


def sent_by(user_id: int, limit: Limit, now: dt.datetime | None = None) -> int:
    """Mails of the limit's kinds written on behalf of the user within its window."""
    since = (now or utcnow()) - limit.window
    return (
        Outbox.select(fn.COUNT(Outbox.id))
        .where(
            (Outbox.author == user_id) & (Outbox.created_at > since) & Outbox.kind.in_(limit.kinds)
        )
        .scalar()
    )


def room_at(settings, address: str, now: dt.datetime) -> dt.datetime:
    """When one more invitation may go to ``address``: once the oldest mail
    that fills its daily limit is a day old."""
    limit = Limit(settings["INVITES_PER_ADDRESS_PER_DAY"], DAY, INVITE)
    times = [
        row.created_at
        for row in Outbox.select(Outbox.created_at)
        .where(
            Outbox.to_addr.in_(_addresses(address))
            & (Outbox.created_at > now - limit.window)
            & Outbox.kind.in_(limit.kinds)
        )
        .order_by(Outbox.created_at)
    ]
    over = len(times) - limit.count
    if over < 0 or not times:
        return now
    return times[min(over, len(times) - 1)] + limit.window


def talk_posted_by(user_id: int, window: dt.timedelta, now: dt.datetime | None = None) -> int:
    """Table-talk messages the user posted within ``window`` (every game)."""
    since = (now or utcnow()) - window
    return (
        TableMessage.select(fn.COUNT(TableMessage.id))
        .where((TableMessage.user == user_id) & (TableMessage.created_at > since))
        .scalar()
    )


def address_hash(address: str) -> str:
    return hashlib.sha256(address.strip().lower().encode("utf-8", "surrogatepass")).hexdigest()


def never_invite(address: str) -> bool:
    """The address asked never to be invited here again (web/never_invite.py)."""
    return NeverInvite.select().where(NeverInvite.address_hash == address_hash(address)).exists()


def agreed(inviter_id: int, address: str) -> bool:
    """Whether ``address`` agreed to hear from the inviter: a confirmed
    account that sat at a table with them (any game, over or not), or that
    took a seat at a game of theirs it had been invited to.  Such an address
    may be invited to any number of tables; the per-address daily limit is
    for addresses that never agreed to anything."""
    address = address.strip().lower()
    person = User.get_or_none((User.email == address) & User.email_verified_at.is_null(False))
    if person is None or person.id == inviter_id:
        return False
    theirs = Seat.select(Seat.game).where(Seat.user == inviter_id)
    if Seat.select().where((Seat.user == person.id) & Seat.game.in_(theirs)).exists():
        return True
    hosted = Game.select(Game.id).where(Game.host == inviter_id)
    accepted = Invitation.select(Invitation.game).where(
        (Invitation.email == address) & Invitation.game.in_(hosted)
    )
    return Seat.select().where((Seat.user == person.id) & Seat.game.in_(accepted)).exists()


def allows(
    settings,
    kind: str,
    address: str,
    stranger: bool,
    more: int = 1,
    author_id: int | None = None,
) -> bool:
    """Whether ``more`` mails of ``kind`` may still go to ``address`` now.
    ``author_id``: on whose behalf they go out.  A rematch request goes only
    to players who sat at the table with its proposer, and an invitation to
    an address that agreed to hear from its author (``agreed``): neither is
    limited per address."""
    limit = for_recipient(settings, kind, stranger)
    if limit is None:
        return True
    if kind == "rematch":
        return True
    if kind == "invite" and author_id is not None and agreed(author_id, address):
        return True
    if kind in INVITE:  # the hard limit; the others may overshoot by a racer
        serialize(address)
    return sent_to(address, limit) + more <= limit.count


def serialize(key: str) -> None:
    """Two web workers counting for the same address at once must not both
    see room for one more: on PostgreSQL the count and the insert of the
    caller's transaction hold a transaction-scoped advisory lock on the
    address.  (SQLite transactions here begin IMMEDIATE: they already run
    one at a time.)  A caller taking several takes them in sorted order, so
    that two transactions never wait for each other."""
    if isinstance(db.obj, PostgresqlDatabase) and db.in_transaction():
        db.execute_sql(
            "SELECT pg_advisory_xact_lock(hashtext(%s))", (f"pbem-mail:{key.strip().lower()}",)
        )

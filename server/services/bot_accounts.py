"""Accounts that are bots: programs that play through the API with their
owner's tokens.  Only a site moderator marks (or unmarks) an account as a
bot, and each time it is on the record (an ``AccountNote`` with the reason);
other players then see the account is a program.  The built-in bots
(engine/bots, services/bot_seats.py) are not accounts and stay as they are."""

from __future__ import annotations

import datetime as dt

from engine.words import N_
from server.db import db
from server.models import AccountNote, User, utcnow
from server.services import moderation


def mark(
    moderator: User, email: str, is_bot: bool, reason: str, now: dt.datetime | None = None
) -> User:
    if not moderator.is_moderator:
        raise moderation.Forbidden(N_("Only site moderators may do that."))
    reason = moderation._reason(reason)
    with db.atomic():
        user = User.get_or_none(User.email == (email or "").strip().lower())
        if user is None:
            raise moderation.ModerationError(N_("There is no account with that address."))
        User.update(is_bot=is_bot).where(User.id == user.id).execute()
        AccountNote.create(
            user=user.id,
            moderator=moderator.id,
            action="bot" if is_bot else "not_bot",
            reason=reason,
            created_at=now or utcnow(),
        )
    user.is_bot = is_bot
    return user


def bots() -> list[User]:
    return list(User.select().where(User.is_bot).order_by(User.name))


def record(limit: int = 50) -> list[AccountNote]:
    """The latest moderators' actions on accounts, newest first."""
    return list(AccountNote.select().order_by(AccountNote.id.desc()).limit(limit))

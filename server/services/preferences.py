"""A player's own settings: the time zone deadlines are shown in, and which
mails they get (one per turn or a daily digest; optional mail on or off)."""
from __future__ import annotations

from server.models import User, utcnow
from server.services import clocks

MAIL_MODES = ("every", "digest")


def save_settings(user: User, timezone: str, mail_mode: str, optional_mail: bool,
                  digest_hour: int) -> None:
    if mail_mode not in MAIL_MODES:
        raise ValueError(f"unknown mail mode {mail_mode!r}")
    user.timezone = timezone
    user.optional_mail = optional_mail
    if mail_mode == "digest" and user.mail_mode != "digest":
        user.next_digest_at = clocks.next_digest_time(user, utcnow(), digest_hour)
    user.mail_mode = mail_mode
    user.save()


def unsubscribe(user: User) -> None:
    """One-click unsubscribe: optional mail off; the mails a game needs stay."""
    User.update(optional_mail=False).where(User.id == user.id).execute()

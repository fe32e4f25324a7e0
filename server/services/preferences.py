"""A player's own settings: the time zone deadlines are shown in, and which
mails they get (one per turn or a daily digest; optional mail on or off),
and their mail schedule: when reminders come, quiet hours, the digest's hour
(services/mail_hours.py)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from engine.words import N_
from server.db import db
from server.i18n import known
from server.models import Game, Seat, User, utcnow
from server.services.clock import deadlines, mail_hours, own_time, running_hours

MAIL_MODES = ("every", "digest")


class ScheduleError(ValueError):
    """A mail schedule that cannot be saved; ``field`` names the form field."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class MailSchedule:
    """Checked values, ready to store (parse_schedule)."""

    reminder_hours: list | None
    quiet_from: int | None
    quiet_until: int | None
    digest_hour: int | None
    quiet: running_hours.Policy | None = None  # the quiet hours

    def digest_note(self, site_hour: int) -> str:
        hour = site_hour if self.digest_hour is None else self.digest_hour
        return mail_hours.quiet_digest_note(hour, self.quiet)


def parse_schedule(
    reminders: str, quiet_from: int | None, quiet_until: int | None, digest_hour: int | None
) -> MailSchedule:
    """ScheduleError, with a message for the form, on anything that does not fit.
    Without a start there are no quiet hours, whatever the end says."""
    if quiet_from is None:
        quiet_until = None
    try:
        hours = mail_hours.parse_own_reminders(reminders)
    except ValueError as exc:
        raise ScheduleError("reminder_hours", exc.args[0]) from None
    if quiet_from is not None and quiet_until is None:
        raise ScheduleError("quiet_until", N_("Quiet hours need an end as well as a start."))
    try:
        quiet = mail_hours.quiet_hours(quiet_from, quiet_until)
    except ValueError as exc:
        raise ScheduleError("quiet_from", exc.args[0]) from None
    try:
        mail_hours.check_digest_hour(digest_hour)
    except ValueError as exc:
        raise ScheduleError("digest_hour", exc.args[0]) from None
    return MailSchedule(hours, quiet_from, quiet_until, digest_hour, quiet)


def save_settings(
    user: User,
    timezone: str,
    mail_mode: str,
    optional_mail: bool,
    digest_hour: int,
    schedule: MailSchedule | None = None,
    now: dt.datetime | None = None,
    board_as_text: bool | None = None,
    language: str | None = None,
) -> None:
    """``digest_hour``: the site's DIGEST_HOUR; ``schedule``: the player's
    own (None: leave it as it is); ``board_as_text``, ``language``: None
    leaves it, "" is the browser's language."""
    if mail_mode not in MAIL_MODES:
        raise ValueError(f"unknown mail mode {mail_mode!r}")
    now = now or utcnow()
    with db.atomic():
        old_zone, old_hour = user.timezone, own_time.digest_hour(user, digest_hour)
        user.timezone = timezone
        user.optional_mail = optional_mail
        if board_as_text is not None:
            user.board_as_text = board_as_text
        if language is not None:
            if language and known(language) != language:
                raise ValueError(f"unknown language {language!r}")
            user.language = language
        if schedule is not None:
            user.reminder_hours = schedule.reminder_hours
            user.quiet_from, user.quiet_until = schedule.quiet_from, schedule.quiet_until
            user.digest_hour = schedule.digest_hour
        moved = old_zone != timezone or old_hour != own_time.digest_hour(user, digest_hour)
        if mail_mode == "digest" and (user.mail_mode != "digest" or moved):
            user.next_digest_at = deadlines.next_digest_time(user, now, digest_hour)
        user.mail_mode = mail_mode
        user.save()
        reschedule(user, old_zone, now)


def reschedule(user: User, old_zone: str, now: dt.datetime) -> None:
    """After a change of zone or schedule, the user's pending turns: each
    keeps the clock time it had left, now judged in the new zone, and its
    next reminder follows the new schedule (one due already is not repeated)."""
    pending = (
        Seat.select(Seat, Game)
        .join(Game)
        .where((Seat.user == user.id) & Seat.deadline.is_null(False) & (Game.status == "active"))
    )
    for seat in pending:
        game = seat.game
        assert seat.deadline is not None  # the query selects only seats with one
        if old_zone != user.timezone and seat.deadline > now:
            seat.deadline = own_time.rezoned(game, old_zone, user, seat.deadline, now)
        seat.next_reminder_at = own_time.next_reminder(
            game,
            user,
            seat.deadline,
            seat.turn_started_at or now,
            now,
            deadlines.reminder_hours(game),
        )
        seat.save(only=[Seat.deadline, Seat.next_reminder_at])


def unsubscribe(user: User) -> None:
    """One-click unsubscribe: optional mail off; the mails a game needs stay."""
    User.update(optional_mail=False).where(User.id == user.id).execute()

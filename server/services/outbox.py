"""What became of the mails in the outbox: the sender's runs (the SMTP
sender, mail/smtp_sender.py, and the notice sender, notify/notice_sender.py)
with the clocks kept, bounces, and what a mail that does not get through
does to a seat's clock.

A turn whose turn mail or last call has not gone out, failed or bounced
does not run that seat's clock (``Seat.mail_hold_since``, services/clock/reach.py)
until the mail gets through (after a bounce: any mail to the player), the
player opens the game, or a moderator extends the time or decides the turn;
then the deadline moves on by the time the clock stood still.  A reminder
warns the player once it is delivered.  Failed and
bounced mails are listed for the player (Settings) and per seat for the
moderators ("mail failing since …"); a moderator can send one again.

``handle_bounce(raw)`` is what the receiver calls with a mail that came to a
return path of ours (bounce+…@BOUNCE_DOMAIN, mail/bounces.py).
"""

from __future__ import annotations

import datetime as dt
import logging

from peewee import fn

from engine.words import N_
from server.db import Prepared, db
from server.mail import smtp_sender
from server.mail.bounces import ReturnPaths, read_bounce
from server.models import Game, Outbox, Seat, User, utcnow
from server.notify import notice_sender
from server.services import moderation, what_a_seat_sees
from server.services.clock import outage_guard, reach, seat_clock

log = logging.getLogger("pbem.deliveries")
FAILING = ("failed", "bounced")
RECENT = 20


# -- delivery runs ------------------------------------------------------------
class ClockKeeper(smtp_sender.Observer):
    """Holds a seat's clock when its turn mail fails; counts a delivered
    reminder as the turn's warning; runs the clock again when the player's
    mail gets through and none of the turn's waits any more; starts it late
    when its turn mail left late (services/outage_guard.py)."""

    def __init__(self, settings):
        self.settings = settings

    def lock(self, row: Outbox) -> Seat | None:
        return _seat_of(row)

    def failed(self, row: Outbox, now: dt.datetime, locked: Seat | None = None) -> None:
        hold_for(row, now, since=row.turn_of, seat=locked)

    def sent(self, row: Outbox, now: dt.datetime, locked: Seat | None = None) -> None:
        seat = locked
        if seat is None:
            return
        if reach.of_this_turn(row, seat):
            if row.kind == "reminder":
                reach.warned(seat, row.turn_of, now)
            elif row.kind == "turn" and row.holds_clock:
                outage_guard.mail_left_late(self.settings, row, seat, now)
                reach.reached(seat)
        if seat.mail_hold_since is not None and reach.waiting(seat) is None:
            seat_clock.release(seat.id, now)


class NoticeKeeper(notice_sender.Observer):
    """The same for notices on chat and push channels: a delivered turn
    notice reaches the player, a delivered reminder or last call warns them,
    and a turn notice that fails holds the clock unless another of the
    turn's notices got through."""

    def lock(self, row: Outbox) -> Seat | None:
        return _recipient_seat(row)

    def sent(self, row: Outbox, now: dt.datetime, locked: Seat | None = None) -> None:
        seat = locked
        if seat is None:
            return
        if reach.of_this_turn(row, seat):
            if row.kind in ("reminder", "last_call"):
                reach.warned(seat, row.turn_of, now)
            elif row.kind == "turn":
                reach.reached(seat)
        if seat.mail_hold_since is not None and reach.waiting(seat) is None:
            seat_clock.release(seat.id, now)

    def failed(self, row: Outbox, now: dt.datetime, locked: Seat | None = None) -> None:
        seat = locked
        if (
            seat is None
            or row.kind != "turn"
            or not row.holds_clock
            or not reach.of_this_turn(row, seat)
            or seat.deadline is None
        ):
            return
        if reach.waiting(seat) is not None:  # nothing of the turn got through
            seat_clock.hold(seat.id, now, row.turn_of)


def _recipient_seat(row: Outbox) -> Seat | None:
    """The pending seat of the player a notice tells, locked (seat_clock.lock)."""
    if row.game_id is None or row.recipient_id is None:
        return None
    return seat_clock.locked(
        Seat.select(Seat)
        .join(Game)
        .where(
            (Seat.game == row.game_id)
            & (Seat.user == row.recipient_id)
            & (Game.status == "active")
            & (Game.to_move == Seat.index)
        )
    ).first()


def deliver_notices(settings, holder: str, now: dt.datetime | None = None) -> dict:
    """One drain of the notices to chat and push channels (server/notify)."""
    return notice_sender.drain(settings, holder, now or utcnow(), NoticeKeeper())


def deliver(
    settings,
    now: dt.datetime | None = None,
    holder: str | None = None,
    session: smtp_sender.Connection | None = None,
    beat: bool = True,
) -> dict:
    """One drain of the outbox (mail/smtp_sender.py) with the clocks kept; the
    sender's heartbeat (``beat``) tells the scheduler it is running.
    ``session``: an SMTP session the caller keeps across drains."""
    now = now or utcnow()
    if beat:
        with db.atomic():
            outage_guard.beat(outage_guard.SENDER, now)
    return smtp_sender.drain(settings, now, holder, ClockKeeper(settings), session)


# -- bounces ------------------------------------------------------------------
def handle_bounce(raw: bytes, settings, envelope_to=(), now: dt.datetime | None = None) -> bool:
    """Read a bounce (a delivery status notification to one of our return
    paths) and mark its mail bounced; True when it named a mail of ours that
    failed.  Only the signed return path names the mail: a report to any
    other address, or quoting a Message-ID, changes nothing.  A "delayed"
    report changes nothing but the mail's last error."""
    now = now or utcnow()
    try:
        bounce = read_bounce(raw, ReturnPaths.from_settings(settings), envelope_to)
    except Exception:  # noqa: BLE001 - an unreadable report is no bounce, not a retry for ever
        log.exception("an unreadable bounce")
        return False
    if bounce is None:
        return False
    with db.atomic():
        row = Outbox.get_or_none(Outbox.id == bounce.outbox_id)
        if row is None:
            return False
        seat = _seat_of(row)  # locked before its mail changes (seat_clock.lock)
        text = " ".join(filter(None, (bounce.status, bounce.diagnostic)))[:1000]
        if not bounce.failed:
            Outbox.update(last_error=f"{bounce.action}: {text}").where(
                Outbox.id == row.id
            ).execute()
            return False
        (
            Outbox.update(
                status="bounced",
                bounced_at=now,
                last_error=f"bounced: {text}",
                claimed_until=None,
                claimed_by="",
            )
            .where(Outbox.id == row.id)
            .execute()
        )
        hold_for(row, now, seat=seat)
    log.info("mail %s to %s bounced: %s", row.id, row.to_addr, text)
    return True


# -- the clock of a seat whose mail does not get through ----------------------------
def hold_for(
    row: Outbox, now: dt.datetime, since: dt.datetime | None = None, seat: Seat | None = None
) -> bool:
    """Stop the clock of the seat this turn mail (or last call) was for, if it
    is still that seat's pending turn and no newer turn mail went to the
    player since; from ``since`` (a mail that never went out: the turn's
    start) or from ``now`` (a bounce: the clock ran from its sending).
    ``seat``: that seat, when the caller locked it already."""
    if (row.kind != "turn" and not row.holds_clock) or row.game_id is None:
        return False
    seat = seat or _seat_of(row)
    if seat is None or seat.deadline is None or reach.reached_on_channel(seat):
        return False
    newer = (
        Outbox.select()
        .where(
            (Outbox.game == row.game_id)
            & (Outbox.kind == "turn")
            & (Outbox.to_addr == row.to_addr)
            & (Outbox.id > row.id)
        )
        .exists()
    )
    if since is not None and not reach.of_this_turn(row, seat):
        since = None
    return not newer and seat_clock.hold(seat.id, now, since)


def seen(seat: Seat, now: dt.datetime | None = None) -> bool:
    """The player opened the game: they know it is their turn."""
    if seat.mail_hold_since is None:
        return False
    now = now or utcnow()
    with db.atomic():
        locked = seat_clock.lock(seat.id)
        if locked is None or locked.mail_hold_since is None:
            return False  # released meanwhile
        reach.reached_otherwise(locked, now)
        return seat_clock.release(locked.id, now)


def _seat_of(row: Outbox) -> Seat | None:
    """The pending seat of the player a game mail went to, locked
    (seat_clock.lock)."""
    if row.game_id is None:
        return None
    return PENDING_SEAT.first(row.game_id, row.to_addr.lower())


# Asked after every game mail the sender got out: its SQL is built once
# (building it cost as much as turning the mail into bytes).
PENDING_SEAT = Prepared(
    lambda game_id, address: seat_clock.locked(
        Seat.select(Seat)
        .join(User)
        .switch(Seat)
        .join(Game)
        .where(
            (Seat.game == game_id)
            & (fn.LOWER(User.email) == address)
            & (Game.status == "active")
            & (Game.to_move == Seat.index)
        )
        .limit(1)
    ),
    kinds=(int, str),
)


# -- what people see ------------------------------------------------------------
def recent_mails(user: User, limit: int = RECENT) -> list[Outbox]:
    """The latest mails to the user's address, newest first."""
    return list(
        Outbox.select(
            Outbox.id,
            Outbox.kind,
            Outbox.subject,
            Outbox.status,
            Outbox.created_at,
            Outbox.sent_at,
            Outbox.bounced_at,
            Outbox.attempts,
            Outbox.last_error,
            Outbox.smtp_reply,
        )
        .where(fn.LOWER(Outbox.to_addr) == user.email.lower())
        .order_by(Outbox.id.desc())
        .limit(limit)
    )


def failing_since(addresses) -> dict[str, dt.datetime]:
    """For each address whose mail does not get through: when the first mail
    failed or bounced since the last one that did (lower-case addresses)."""
    addresses = sorted({a.lower() for a in addresses if a})
    if not addresses:
        return {}
    address = fn.LOWER(Outbox.to_addr)
    last_ok = {
        row.addr: row.last_id
        for row in (
            Outbox.select(address.alias("addr"), fn.MAX(Outbox.id).alias("last_id"))
            .where(address.in_(addresses) & (Outbox.status == "sent"))
            .group_by(address)
        )
    }
    found: dict[str, dt.datetime] = {}
    for row in (
        Outbox.select(address.alias("addr"), Outbox.id, Outbox.created_at)
        .where(address.in_(addresses) & Outbox.status.in_(FAILING))
        .order_by(Outbox.id)
    ):
        if row.id > last_ok.get(row.addr, 0) and row.addr not in found:
            found[row.addr] = row.created_at
    return found


def failing_mails(game: Game) -> list[Outbox]:
    """The game's failed and bounced mails, for the retry buttons."""
    return list(
        Outbox.select()
        .where(
            (Outbox.game == game.id)
            & Outbox.status.in_(FAILING)
            & Outbox.body_purged_at.is_null()  # bodies purged: nothing to send again
        )
        .order_by(Outbox.id.desc())
        .limit(50)
    )


# -- a moderator sends one again ------------------------------------------------------
def retry(
    game_id: int, user: User, seq: int, outbox_id: int, now: dt.datetime | None = None
) -> str:
    """Queue a failed or bounced mail of the game again, on the game's record."""
    now = now or utcnow()
    with db.atomic():
        game = moderation._begin(game_id, user, seq)
        row = Outbox.get_or_none((Outbox.id == outbox_id) & (Outbox.game == game.id))
        if row is None or row.status not in FAILING or row.body_purged_at is not None:
            raise moderation.ModerationError(N_("That mail is not failing (any more)."))
        smtp_sender.retry(row.id, now)
        seat = (
            Seat.select(Seat)
            .join(User)
            .where((Seat.game == game.id) & (fn.LOWER(User.email) == row.to_addr.lower()))
            .first()
        )
        who = what_a_seat_sees.seat_names(game)[seat.index] if seat else "a player"
        text = f"{user.name} (moderator) sent the {row.kind} mail to {who} again."
        moderation._note(
            game,
            seq,
            {"note": "mail_retry", "outbox": row.id},
            text,
            user,
            now,
            seat=seat.index if seat else None,
        )
    return f"The {row.kind} mail to {who} is queued again."

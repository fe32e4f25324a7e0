"""Draining the notices from the outbox (rows with a ``channel``), beside
the mail drain and with the same rules (mail/smtp_sender.py's module doc):
statuses queued, deferred, sent, failed; a short claim per row; retries
after an exponential backoff; a notice that still fails after
SENDER_MAX_ATTEMPTS shows as failed and is tried every SENDER_RETRY_MAX
seconds, unless the receiver refused it for good.

Nothing a channel does stops the drain: every error of one notice is kept
on its row and the drain goes on.  A destination that failed once is not
tried again in the same drain, and a drain gives notices at most
NOTIFY_DRAIN_SECONDS, so a receiver that hangs delays the next mails by
seconds, not by its timeout times the batch.  No destination gets more
than NOTIFY_DESTINATION_MAX notices per NOTIFY_DESTINATION_WINDOW seconds:
the rest wait, but a notice of a turn (turn, reminder, last call) whose
turn has passed by the time it may go is dropped (status "dropped"): it
would only tell of a turn that is over, and the game's result must not
queue behind it."""

from __future__ import annotations

import datetime as dt
import logging
import time
from typing import Any

from peewee import fn

from server.db import Prepared, db
from server.models import Game, NotifyChannel, Outbox, Seat, utcnow
from server.notify import transport

log = logging.getLogger("pbem.notify")
OPEN = ("queued", "deferred")
OF_THE_TURN = ("turn", "reminder", "last_call")  # as notices.OF_THE_TURN


class Observer:
    """What the services want to hear (services/outbox.NoticeKeeper):
    as for mail (mail/smtp_sender.Observer), ``lock`` first, in the transaction
    that writes what became of the notice."""

    def lock(self, row: Outbox) -> Any:
        return None

    def sent(self, row: Outbox, now: dt.datetime, locked: Any = None) -> None: ...

    def failed(self, row: Outbox, now: dt.datetime, locked: Any = None) -> None: ...


def _sendable():
    return Outbox.status.in_(OPEN) | ((Outbox.status == "failed") & (Outbox.permanent == False))


def _unclaimed(now: dt.datetime):
    return Outbox.claimed_until.is_null() | (Outbox.claimed_until < now)


def due_ids(settings, now: dt.datetime) -> list[int]:
    return [r.id for r in DUE.rows(now, settings["SENDER_BATCH"])]


# Asked by every sender every SENDER_INTERVAL: its SQL is built once.
DUE = Prepared(
    lambda now, batch: (
        Outbox.select(Outbox.id)
        .where(
            Outbox.channel.is_null(False)
            & _sendable()
            & (Outbox.next_attempt_at <= now)
            & _unclaimed(now)
        )
        .order_by(Outbox.next_attempt_at, Outbox.id)
        .limit(batch)
    ),
    kinds=(dt.datetime, int),
)


def claim(row_id: int, holder: str, now: dt.datetime, lease: dt.timedelta) -> Outbox | None:
    won = (
        Outbox.update(claimed_until=now + lease, claimed_by=holder)
        .where((Outbox.id == row_id) & _sendable() & _unclaimed(now))
        .execute()
    )
    return Outbox.get_by_id(row_id) if won == 1 else None


def backoff(settings, attempts: int) -> dt.timedelta:
    seconds = settings["SENDER_RETRY_BASE"] * 2 ** min(max(attempts - 1, 0), 30)
    return dt.timedelta(seconds=min(seconds, settings["SENDER_RETRY_MAX"]))


def drain(
    settings, holder: str, now: dt.datetime | None = None, observer: Observer | None = None
) -> dict:
    """Send every due notice once; counts of sent, retried, failed, held
    back (by the per-destination limit, or a destination down) and dropped
    (its turn had passed: ``passed``)."""
    start, started = now or utcnow(), time.monotonic()
    lease = dt.timedelta(seconds=settings["SENDER_LEASE_SECONDS"])
    observer = observer or Observer()
    counts = {"sent": 0, "retry": 0, "failed": 0, "held": 0, "dropped": 0}
    down: set[str] = set()
    for row_id in due_ids(settings, start):
        if time.monotonic() - started > settings["NOTIFY_DRAIN_SECONDS"]:
            break
        now = start + dt.timedelta(seconds=time.monotonic() - started)
        row = claim(row_id, holder, now, lease)
        if row is None:
            continue
        channel = NotifyChannel.get_or_none(NotifyChannel.id == row.channel_id)
        if channel is None:
            continue  # removed meanwhile: its rows go with it
        if passed(row):
            _drop(row)
            counts["dropped"] += 1
            continue
        if channel.destination in down:  # failed a moment ago: next drain
            _release(row, row.next_attempt_at)
            counts["held"] += 1
            continue
        wait_until = _over_limit(settings, channel, now)
        if wait_until is not None:
            _release(row, wait_until)
            counts["held"] += 1
            continue
        try:
            answer = transport.send(settings, row, channel)
        except Exception as exc:  # noqa: BLE001 - no channel may stop the sender
            down.add(channel.destination)
            with db.atomic():
                locked = observer.lock(row)
                outcome = _record_failure(settings, row, exc, start)
                if outcome == "failed" and row.status != "failed":
                    observer.failed(row, now, locked)
            counts[outcome] += 1
            log.warning("notice %s on channel %s (%s): %s", row.id, channel.id, channel.masked, exc)
            continue
        with db.atomic():
            locked = observer.lock(row)
            _mark_sent(row, answer)
            observer.sent(row, now, locked)
        counts["sent"] += 1
    return counts


def passed(row: Outbox) -> bool:
    """A notice of a turn whose turn is over: the game ended, or the seat's
    player moved (the seat's turn_started_at is no longer the notice's)."""
    if row.kind not in OF_THE_TURN or None in (row.turn_of, row.game_id, row.recipient_id):
        return False
    pending = (
        Seat.select(Seat.id)
        .join(Game)
        .where(
            (Seat.game == row.game_id)
            & (Seat.user == row.recipient_id)
            & (Game.status == "active")
            & (Seat.turn_started_at == row.turn_of)
        )
    )
    return not pending.exists()


def _drop(row: Outbox) -> None:
    (
        Outbox.update(
            status="dropped",
            claimed_until=None,
            claimed_by="",
            last_error="dropped: its turn had passed before it could go",
        )
        .where(Outbox.id == row.id)
        .execute()
    )


def _mark_sent(row: Outbox, answer: str) -> None:
    (
        Outbox.update(
            status="sent",
            sent_at=utcnow(),
            attempts=row.attempts + 1,
            claimed_until=None,
            claimed_by="",
            smtp_reply=answer,
            last_error="",
            permanent=False,
        )
        .where(Outbox.id == row.id)
        .execute()
    )


def _release(row: Outbox, until: dt.datetime) -> None:
    (
        Outbox.update(claimed_until=None, claimed_by="", next_attempt_at=until)
        .where(Outbox.id == row.id)
        .execute()
    )


def _over_limit(settings, channel: NotifyChannel, now: dt.datetime) -> dt.datetime | None:
    """When the channel's destination may get a notice again, if it had as
    many as it may lately; None: now."""
    window = dt.timedelta(seconds=settings["NOTIFY_DESTINATION_WINDOW"])
    recent = (
        Outbox.select(fn.COUNT(Outbox.id), fn.MIN(Outbox.sent_at))
        .join(NotifyChannel)
        .where(
            (NotifyChannel.destination == channel.destination)
            & (Outbox.status == "sent")
            & (Outbox.sent_at > now - window)
        )
        .tuples()
        .first()
    )
    count, oldest = recent or (0, None)
    if count < settings["NOTIFY_DESTINATION_MAX"]:
        return None
    return oldest + window if oldest else now + window


def _record_failure(settings, row: Outbox, exc: Exception, now: dt.datetime) -> str:
    attempts = row.attempts + 1
    permanent = isinstance(exc, transport.SendError) and exc.permanent
    gave_up = permanent or attempts >= settings["SENDER_MAX_ATTEMPTS"]
    error = str(exc) if isinstance(exc, transport.SendError) else exc.__class__.__name__
    wait = (
        dt.timedelta(seconds=settings["SENDER_RETRY_MAX"])
        if gave_up
        else backoff(settings, attempts)
    )
    (
        Outbox.update(
            attempts=attempts,
            claimed_until=None,
            claimed_by="",
            last_error=error[:1000] or exc.__class__.__name__,
            permanent=permanent,
            status="failed" if gave_up else "deferred",
            next_attempt_at=now + wait,
        )
        .where(Outbox.id == row.id)
        .execute()
    )
    return "failed" if gave_up else "retry"

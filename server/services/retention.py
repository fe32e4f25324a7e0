"""Keeping only what the game needs: what ``purge`` removes, and when.

- an incoming mail's raw text, RETAIN_INBOUND_MAIL_DAYS after it came in
  (the row stays: sender, subject and what became of it, for moderators);
- a sent mail's text and HTML bodies, RETAIN_SENT_MAIL_BODY_DAYS after it
  was sent, with the header lines that only served the sending (the row
  stays: to whom, subject, Message-ID, status, delivery history); a
  mail that still waits to go out is never touched;
- chat and push notices, RETAIN_NOTICE_DELIVERIES_DAYS after they were
  written, once they are out (or given up);
- at once: sessions past PERMANENT_SESSION_LIFETIME_DAYS (they sign nobody
  in any more), API tokens expired or revoked, rate counts whose window ended.

A game's state is one snapshot row per game (services/state_store.py), the
cache of its latest position: a finished game keeps only its final one
already, so there is nothing older to drop; the event log is never touched.

Work goes in batches of PURGE_BATCH rows, each in a transaction of its own:
no lock is held for long (a move waits at most one batch), and a purge
stopped at any point (kill -9) leaves every row either untouched or fully
purged.  Several schedulers take turns through a claim on the "purge"
heartbeat row, so one of them purges per interval.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import asdict, dataclass

import click
from flask import current_app
from flask.cli import with_appcontext
from peewee import IntegrityError

from server.db import db
from server.models import (
    ApiToken,
    BrowserSession,
    Heartbeat,
    InboundMail,
    Outbox,
    RateCount,
    utcnow,
)

CLAIM = "purge"
BODY_KEPT_STATUSES = ("sent", "bounced")  # out of the outbox; queued or failed mails keep theirs
NOTICE_WAITING = ("queued", "deferred")


@dataclass
class Purged:
    """Rows each kind of purge changed (blanked or deleted)."""

    inbound_raw: int = 0
    mail_bodies: int = 0
    notices: int = 0
    sessions: int = 0
    api_tokens: int = 0
    rate_counts: int = 0

    def lines(self) -> list[str]:
        return [f"{name.replace('_', ' ')}: {count}" for name, count in asdict(self).items()]


def purge(settings, now: dt.datetime) -> Purged:
    """Everything past its window, as of ``now`` (naive UTC)."""
    batch = max(1, settings["PURGE_BATCH"])
    days = lambda name: dt.timedelta(days=max(0, settings[name]))  # noqa: E731
    session_life = dt.timedelta(days=settings["PERMANENT_SESSION_LIFETIME_DAYS"])
    return Purged(
        inbound_raw=in_batches(
            blank_inbound_raw, now - days("RETAIN_INBOUND_MAIL_DAYS"), now, batch
        ),
        mail_bodies=in_batches(
            blank_mail_bodies, now - days("RETAIN_SENT_MAIL_BODY_DAYS"), now, batch
        ),
        notices=in_batches(delete_notices, now - days("RETAIN_NOTICE_DELIVERIES_DAYS"), now, batch),
        sessions=in_batches(delete_sessions, now - session_life, now, batch),
        api_tokens=in_batches(delete_api_tokens, now, now, batch),
        rate_counts=in_batches(delete_rate_counts, now, now, batch),
    )


def in_batches(step: Callable, before: dt.datetime, now: dt.datetime, batch: int) -> int:
    """Run ``step`` one transaction at a time until a batch comes back short."""
    total = 0
    while True:
        with db.atomic():
            changed = step(before, now, batch)
        total += changed
        if changed < batch:
            return total


def blank_inbound_raw(before: dt.datetime, now: dt.datetime, batch: int) -> int:
    kept = InboundMail.raw_purged_at.is_null()
    # A mail still "received" was never handled: the receiver may need it.
    due = kept & (InboundMail.received_at < before) & (InboundMail.status != "received")
    ids = InboundMail.select(InboundMail.id).where(due).order_by(InboundMail.received_at)
    return (
        InboundMail.update(raw="", raw_purged_at=now)
        .where(InboundMail.id.in_(ids.limit(batch)) & due)
        .execute()
    )


def blank_mail_bodies(before: dt.datetime, now: dt.datetime, batch: int) -> int:
    # The status is checked again in the UPDATE: a moderator's retry makes
    # a bounced mail queued again, and that one keeps its bodies.
    due = (
        Outbox.body_purged_at.is_null()
        & Outbox.sent_at.is_null(False)
        & (Outbox.sent_at < before)
        & Outbox.status.in_(BODY_KEPT_STATUSES)
    )
    ids = Outbox.select(Outbox.id).where(due).order_by(Outbox.sent_at)
    return (
        # The threading and extra header lines only served the sending.
        Outbox.update(
            body_text="",
            body_html="",
            headers={},
            in_reply_to="",
            references="",
            body_purged_at=now,
        )
        .where(Outbox.id.in_(ids.limit(batch)) & due)
        .execute()
    )


def delete_notices(before: dt.datetime, now: dt.datetime, batch: int) -> int:
    due = (
        Outbox.channel.is_null(False)
        & (Outbox.created_at < before)
        & Outbox.status.not_in(NOTICE_WAITING)
    )
    ids = Outbox.select(Outbox.id).where(due).order_by(Outbox.created_at)
    return Outbox.delete().where(Outbox.id.in_(ids.limit(batch)) & due).execute()


def delete_sessions(before: dt.datetime, now: dt.datetime, batch: int) -> int:
    ids = BrowserSession.select(BrowserSession.id).where(BrowserSession.created_at < before)
    return BrowserSession.delete().where(BrowserSession.id.in_(ids.limit(batch))).execute()


def delete_api_tokens(before: dt.datetime, now: dt.datetime, batch: int) -> int:
    # Neither kind signs anything in any more (services/api_tokens.find).
    ended = (ApiToken.expires_at <= now) | ApiToken.revoked_at.is_null(False)
    ids = ApiToken.select(ApiToken.id).where(ended)
    return ApiToken.delete().where(ApiToken.id.in_(ids.limit(batch)) & ended).execute()


def delete_rate_counts(before: dt.datetime, now: dt.datetime, batch: int) -> int:
    spent = RateCount.expires_at <= now.replace(tzinfo=dt.UTC).timestamp()
    ids = RateCount.select(RateCount.id).where(spent)
    return RateCount.delete().where(RateCount.id.in_(ids.limit(batch)) & spent).execute()


def claim_turn(now: dt.datetime, interval_seconds: float) -> bool:
    """Whether this scheduler purges now: the first to move the "purge"
    heartbeat on, once per interval (a tenth of it spare, so the same
    scheduler's next tick is not a moment too early)."""
    due_before = now - dt.timedelta(seconds=interval_seconds * 0.9)
    with db.atomic():
        claimed = (
            Heartbeat.update(beat_at=now)
            .where((Heartbeat.name == CLAIM) & (Heartbeat.beat_at <= due_before))
            .execute()
        )
        if claimed:
            return True
        if Heartbeat.select().where(Heartbeat.name == CLAIM).exists():
            return False
        try:
            with db.atomic():
                Heartbeat.create(name=CLAIM, beat_at=now)
        except IntegrityError:
            return False  # another scheduler was first
        return True


@click.command("purge")
@with_appcontext
def purge_command():
    """Purge once what is past its retention window (services/retention.py)
    and print how many rows of each kind were blanked or deleted."""
    with db.connection_context():
        purged = purge(current_app.config, utcnow())
    for line in purged.lines():
        click.echo(line)

"""A player's data to take away (GDPR articles 15 and 20): one zip with JSON
for the account, seats, moves with their game, the table talk they wrote,
ratings, sessions and API tokens in use, clubs, leagues and the requests
they made at a table (services/export_memberships.py), and an mbox of every
mail still stored to or from them.  No secret goes in: no password hash, token hash,
session key or channel URL.

Asking queues a row; the scheduler builds it (``build_due``), keeps it for
EXPORT_HOURS and mails a signed link that works that long, for its owner
only.  Older archives are dropped on the same round.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import zipfile
from email.message import EmailMessage
from email.utils import format_datetime

from engine.words import N_
from server.db import db
from server.mail.compose import Mailer
from server.models import (
    ApiToken,
    BrowserSession,
    DataExport,
    Event,
    Game,
    InboundMail,
    Outbox,
    PlayerRating,
    RatingChange,
    Seat,
    TableMessage,
    Tenure,
    User,
    utcnow,
)
from server.services import export_memberships

ABOUT = (
    "A zip: account.json, seats.json, moves.json (with their game), talk.json, "
    "ratings.json, sessions.json, api_tokens.json, clubs.json, leagues.json, "
    "requests.json and mail.mbox."
)
EXPORT_HOURS = 24
BATCH = 5


class ExportError(ValueError):
    """The archive cannot be had; the message is for the player."""


def request(user: User, now: dt.datetime | None = None) -> DataExport:
    """Queue an archive, or the one already queued (pressing twice builds one)."""
    with db.atomic():
        waiting = DataExport.get_or_none(
            (DataExport.user == user.id) & (DataExport.status == "queued")
        )
        return waiting or DataExport.create(user=user.id, requested_at=now or utcnow())


def build_due(mailer: Mailer, now: dt.datetime | None = None) -> int:
    """Build up to BATCH queued archives and mail their links; drop old ones.
    A row is claimed by a conditional update, so two schedulers build it once."""
    now = now or utcnow()
    expired = now - dt.timedelta(hours=EXPORT_HOURS)
    DataExport.delete().where(DataExport.requested_at < expired).execute()
    built = 0
    for row in DataExport.select().where(DataExport.status == "queued").limit(BATCH):
        with db.atomic():
            claimed = (
                DataExport.update(status="building")
                .where((DataExport.id == row.id) & (DataExport.status == "queued"))
                .execute()
            )
            if claimed != 1:
                continue
            user = User.get_by_id(row.user_id)
            data = archive(user, now)
            DataExport.update(status="ready", ready_at=now, archive=data, size=len(data)).where(
                DataExport.id == row.id
            ).execute()
            mailer.export_ready(user, row.id, EXPORT_HOURS)
            built += 1
    return built


def ready_archive(user: User, user_id: int, export_id: int) -> bytes:
    """The zip of export ``export_id`` for its owner ``user``; anyone else,
    or an archive dropped or not built, gets ExportError."""
    row = DataExport.get_or_none(DataExport.id == export_id)
    if user_id != user.id or row is None or row.user_id != user.id or row.status != "ready":
        raise ExportError(N_("This download is not there (any more). Ask for a new one."))
    return bytes(row.archive or b"")


# -- the archive ---------------------------------------------------------------
def archive(user: User, now: dt.datetime) -> bytes:
    parts = {
        "account.json": account(user, now),
        "seats.json": seats(user),
        "moves.json": moves(user),
        "talk.json": talk(user),
        "ratings.json": ratings(user),
        "sessions.json": sessions(user),
        "api_tokens.json": tokens(user),
        "clubs.json": export_memberships.clubs(user),
        "leagues.json": export_memberships.leagues(user),
        "requests.json": export_memberships.requests(user),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, value in parts.items():
            zipped.writestr(name, json.dumps(value, indent=1, ensure_ascii=False, default=_when))
        zipped.writestr("mail.mbox", mbox(user))
    return buffer.getvalue()


def _when(value):
    if isinstance(value, dt.datetime):
        return value.isoformat() + "Z"
    return str(value)


def account(user: User, now: dt.datetime) -> dict:
    fields = (
        "id email name created_at email_verified_at timezone language mail_mode optional_mail "
        "board_as_text reminder_hours quiet_from quiet_until digest_hour languages "
        "show_languages show_playing show_finished show_ratings is_moderator is_bot"
    ).split()
    own = {name: getattr(user, name) for name in fields}
    return {"exported_at": now, **own, **export_memberships.account_extras(user)}


def seats(user: User) -> list[dict]:
    rows = (
        Seat.select(Seat, Game).join(Game).where(Seat.user == user.id).order_by(Game.id, Seat.index)
    )
    return [
        {
            "game": seat.game.id,
            "game_name": seat.game.name,
            "kind": seat.game.kind,
            "status": seat.game.status,
            "seat": seat.index + 1,
            "joined_at": seat.joined_at,
            "left": seat.withdrawn,
            "outcome": seat.game.outcome,
        }
        for seat in rows
    ]


def moves(user: User) -> list[dict]:
    """The log rows of the seats they held, while they held them (their
    moves, and what the clock or a bot played for them), and any row they
    wrote themselves (a resignation)."""
    held = Tenure.select().where(Tenure.user == user.id)
    in_tenure = [
        (Event.game == t.game_id)
        & (Event.seat == t.seat)
        & (Event.seq > t.from_seq)
        & ((Event.seq <= t.to_seq) if t.to_seq is not None else True)
        for t in held
    ]
    mine = Event.user == user.id
    for condition in in_tenure:
        mine = mine | condition
    rows = Event.select(Event, Game).join(Game).where(mine).order_by(Game.id, Event.seq)
    return [
        {
            "game": event.game.id,
            "game_name": event.game.name,
            "kind": event.game.kind,
            "seq": event.seq,
            "seat": None if event.seat is None else event.seat + 1,
            "by": event.actor,
            "type": event.kind,
            "action": event.action,
            "undone": event.undone,
            "at": event.created_at,
        }
        for event in rows
    ]


def talk(user: User) -> list[dict]:
    rows = TableMessage.select().where(TableMessage.user == user.id).order_by(TableMessage.id)
    return [
        {"game": m.game_id, "seat": m.seat + 1, "text": m.text, "at": m.created_at} for m in rows
    ]


def ratings(user: User) -> dict:
    now = PlayerRating.select().where(PlayerRating.user == user.id).order_by(PlayerRating.kind)
    changes = RatingChange.select().where(RatingChange.user == user.id).order_by(RatingChange.id)
    return {
        "current": [{"kind": r.kind, "mu": r.mu, "sigma": r.sigma, "games": r.games} for r in now],
        "history": [
            {
                "game": c.game_id,
                "kind": c.kind,
                "rank": c.rank,
                "mu_before": c.mu_before,
                "mu_after": c.mu_after,
                "sigma_after": c.sigma_after,
                "at": c.created_at,
            }
            for c in changes
        ],
    }


def sessions(user: User) -> list[dict]:
    rows = BrowserSession.select().where(BrowserSession.user == user.id)
    return [{"signed_in_at": s.created_at} for s in rows.order_by(BrowserSession.created_at)]


def tokens(user: User) -> list[dict]:
    rows = ApiToken.select().where((ApiToken.user == user.id) & ApiToken.revoked_at.is_null())
    return [
        {
            "name": t.name,
            "scopes": t.scopes,
            "created_at": t.created_at,
            "expires_at": t.expires_at,
            "last_used_at": t.last_used_at,
        }
        for t in rows.order_by(ApiToken.id)
    ]


def mbox(user: User) -> bytes:
    """Every mail still stored to the address, and every mail from it."""
    messages = []
    sent = Outbox.select().where(
        (Outbox.to_addr == user.email) & Outbox.channel.is_null() & (Outbox.body_text != "")
    )
    for row in sent.order_by(Outbox.id):
        mail = EmailMessage()
        mail["From"] = "pbem"
        mail["To"] = row.to_addr
        mail["Subject"] = row.subject
        mail["Message-ID"] = row.message_id
        mail["Date"] = format_datetime(row.created_at.replace(tzinfo=dt.UTC))
        mail.set_content(row.body_text)
        messages.append((row.created_at, "pbem", mail.as_bytes()))
    came = InboundMail.select().where(
        (InboundMail.user == user.id) | (InboundMail.from_addr == user.email)
    )
    messages += [
        (row.received_at, row.from_addr or "unknown", row.raw.encode("utf-8", "replace"))
        for row in came.order_by(InboundMail.id)
    ]
    return b"".join(_mbox_entry(*message) for message in messages)


def _mbox_entry(when: dt.datetime, sender: str, message: bytes) -> bytes:
    """One message in mboxrd form: a From_ line, ">From " quoted, a blank line."""
    lines = message.replace(b"\r\n", b"\n").split(b"\n")
    quoted = [b">" + line if line.lstrip(b">").startswith(b"From ") else line for line in lines]
    sender = "".join(c for c in sender if c.isprintable() and not c.isspace()) or "unknown"
    head = f"From {sender} {when:%a %b %d %H:%M:%S %Y}\n".encode("ascii", "replace")
    return head + b"\n".join(quoted).rstrip(b"\n") + b"\n\n"

"""What /readyz checks (README "Operations"): the database answers, its
migrations are current, the scheduler and the sender did a round recently
(their heartbeats), and no mail has waited in the outbox too long.  Each
check says ok or not, with a short reason that holds no secret (no address,
no password, no query: the error's kind and a number at most)."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass

from peewee import fn

from server.db import db, pending_migrations
from server.models import Heartbeat, Outbox, utcnow

WAITING = ("queued", "deferred")


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: str


def readiness(settings, now: dt.datetime | None = None) -> dict[str, Check]:
    """Every check by name; the database's first, the others only when it answers."""
    now = now or utcnow()
    try:
        db.connect(reuse_if_open=True)
        db.execute_sql("SELECT 1")
    except Exception as exc:  # noqa: BLE001 - unreachable, refused, bad password …
        return {"database": Check(False, f"unreachable ({exc.__class__.__name__})")}
    checks = {"database": Check(True, "answers")}
    try:
        checks["migrations"] = _migrations()
        beats = {
            row.name: row.beat_at for row in Heartbeat.select(Heartbeat.name, Heartbeat.beat_at)
        }
        for name in ("scheduler", "sender"):
            checks[name] = _fresh(
                name, beats.get(name), now, settings[f"READY_{name.upper()}_MAX_AGE"]
            )
        checks["outbox"] = _outbox(now, settings["READY_OUTBOX_MAX_AGE"])
    except Exception as exc:  # noqa: BLE001 - e.g. no tables yet
        checks["schema"] = Check(False, f"cannot be read ({exc.__class__.__name__})")
    return checks


def _migrations() -> Check:
    pending = pending_migrations()
    if pending:
        return Check(False, f"{len(pending)} not applied (pbem migrate): {', '.join(pending)}")
    return Check(True, "current")


def _fresh(name: str, beat: dt.datetime | None, now: dt.datetime, max_age: int) -> Check:
    if beat is None:
        return Check(False, "never ran")
    age = (now - beat).total_seconds()
    if age > max_age:
        return Check(False, f"last round {age:.0f} s ago (more than {max_age} s)")
    return Check(True, f"last round {max(age, 0):.0f} s ago")


def _outbox(now: dt.datetime, max_age: int) -> Check:
    # Notices to chat channels are left out: one player's broken channel
    # does not make the site unready (Settings shows it to its owner).
    oldest = (
        Outbox.select(fn.MIN(Outbox.created_at))
        .where(Outbox.status.in_(WAITING) & Outbox.channel.is_null())
        .scalar()
    )
    if oldest is None:
        return Check(True, "nothing waits")
    age = (now - oldest).total_seconds()
    if age > max_age:
        return Check(False, f"oldest waiting mail {age:.0f} s old (more than {max_age} s)")
    return Check(True, f"oldest waiting mail {max(age, 0):.0f} s old")


def as_json(checks: dict[str, Check]) -> dict:
    return {
        "status": "ready" if all(c.ok for c in checks.values()) else "not ready",
        "checks": {name: asdict(check) for name, check in checks.items()},
    }

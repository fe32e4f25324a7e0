"""Prometheus metrics (README "Operations", the list of metrics).

Counters and histograms are kept by the process that sees the event: moves
by whoever plays them (web worker, scheduler, receiver), sweep durations by
the scheduler, HTTP latency by the web workers.  Under gunicorn several
processes write them: prometheus-client's multiprocess mode, where each
process writes its values into files under PROMETHEUS_MULTIPROC_DIR (set
before prometheus_client is imported: config/gunicorn.conf.py does it for
the web workers; give the scheduler, sender and receiver on that machine
the same folder) and a scrape adds them up.  What the database knows
(mails by status, the outbox's depth and oldest mail, how long since the
last sweep) is read from it at each scrape: the same answer whichever
process is asked.
"""

from __future__ import annotations

import datetime as dt
import os

from peewee import fn
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

from server.db import db
from server.models import Heartbeat, Outbox, utcnow

# The log's actor names as the metric says them: a timeout is the clock's move.
ACTOR_LABELS = {"player": "player", "timeout": "clock", "bot": "bot", "moderator": "moderator"}
WAITING = ("queued", "deferred")
STATUSES = ("queued", "deferred", "sent", "bounced", "failed", "dropped")

MOVES = Counter(
    "pbem_moves", "Moves saved, by who played them (player, clock, bot, moderator)", ["actor"]
)
INBOUND = Counter(
    "pbem_inbound_mails",
    "Mails received as replies, by outcome (applied, refused, ignored, duplicate)",
    ["outcome"],
)
SWEEP_SECONDS = Histogram(
    "pbem_sweep_seconds",
    "How long one scheduler sweep took",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120),
)
HTTP_SECONDS = Histogram(
    "pbem_http_request_seconds",
    "Time to answer an HTTP request, by method and status class",
    ["method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)


def count_move(actor: str) -> None:
    """Count a move once its transaction committed (a rolled-back one never
    happened)."""
    label = ACTOR_LABELS.get(actor, "other")
    db.after_commit(lambda: MOVES.labels(label).inc())


def count_inbound(outcome: str) -> None:
    INBOUND.labels(outcome).inc()


class DatabaseCollector:
    """Gauges read from the database at each scrape."""

    def collect(self):
        up = GaugeMetricFamily("pbem_database_up", "1 when the database answered this scrape")
        try:
            with db.connection_context():
                found = self._read(utcnow())
        except Exception:  # noqa: BLE001 - a scrape must say "down", not fail
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield from found

    def _read(self, now: dt.datetime) -> list:
        by_status = {
            row.status: row.n
            for row in Outbox.select(Outbox.status, fn.COUNT(Outbox.id).alias("n")).group_by(
                Outbox.status
            )
        }
        mails = GaugeMetricFamily("pbem_mails", "Mails in the outbox, by status", labels=["status"])
        for status in sorted(set(STATUSES) | set(by_status)):
            mails.add_metric([status], by_status.get(status, 0))
        depth = GaugeMetricFamily(
            "pbem_outbox_depth", "Mails waiting to be sent (queued or deferred)"
        )
        depth.add_metric([], sum(by_status.get(s, 0) for s in WAITING))
        oldest = (
            Outbox.select(fn.MIN(Outbox.created_at))  # mails, not chat notices
            .where(Outbox.status.in_(WAITING) & Outbox.channel.is_null())
            .scalar()
        )
        age = GaugeMetricFamily(
            "pbem_outbox_oldest_age_seconds",
            "Age of the oldest mail waiting to be sent (0: none waits)",
        )
        age.add_metric([], _seconds(now, oldest))
        found = [mails, depth, age]
        beats = {
            row.name: row.beat_at for row in Heartbeat.select(Heartbeat.name, Heartbeat.beat_at)
        }
        for name, metric, text in (
            ("scheduler", "pbem_sweep_lag_seconds", "Seconds since the last sweep began"),
            ("sender", "pbem_sender_lag_seconds", "Seconds since the sender's last round"),
        ):
            gauge = GaugeMetricFamily(metric, text + " (-1: never)")
            gauge.add_metric([], _seconds(now, beats.get(name)) if name in beats else -1)
            found.append(gauge)
        return found


def _seconds(now: dt.datetime, then: dt.datetime | None) -> float:
    return max((now - then).total_seconds(), 0.0) if then else 0.0


class _ThisProcess:
    """Without a multiprocess folder: this process's own metrics."""

    def collect(self):
        return REGISTRY.collect()


def exposition() -> tuple[bytes, str]:
    """The scrape's text and its content type."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    registry.register(DatabaseCollector())
    return generate_latest(registry), CONTENT_TYPE_LATEST

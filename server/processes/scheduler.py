"""The scheduler process: ``python -m server.processes.scheduler``.

Runs the sweep (services/clock/sweep.py) every SCHEDULER_INTERVAL seconds with
APScheduler's BlockingScheduler, in a process of its own (one scheduler per
web worker would act N times).  No APScheduler job store: deadlines and
reminder times live in our tables, so a restart simply catches up: overdue
timeouts are played in deadline order, reminders that are past their
deadline are skipped.  Several scheduler processes may run at once; the
sweep claims each due row atomically, in the name of this process
(host:pid:nonce); a running scheduler frees every RELEASE_EVERY seconds the
claims of a dead one on the same host and acts on those seats at once,
instead of waiting out their lease (SCHEDULER_LEASE_SECONDS, what a
scheduler on another host waits).

While the database is down, each failed run is one log line and the next
try waits, doubling from the interval up to DATABASE_ERROR_BACKOFF_MAX.
"""

from __future__ import annotations

import datetime as dt
import logging
import sys
import time

from apscheduler.schedulers.blocking import BlockingScheduler

from server import settings as settings_module
from server.db import bind, make_database
from server.mail.compose import Mailer
from server.mail.smtp_sender import holder_id
from server.models import utcnow
from server.processes import logs
from server.processes.backoff import Backoff, drop_connection
from server.services import data_export, held_invitations, metrics, retention
from server.services.clock.sweep import release_dead_claims, run_bots, sweep

log = logging.getLogger("pbem.scheduler")
# How often a running scheduler looks for this host's dead schedulers' claims.
RELEASE_EVERY = 2.0


class Scheduler:
    """The jobs, sharing this process's claim name and one backoff (they
    share one database)."""

    def __init__(self, settings, database):
        self.settings, self.database = settings, database
        self.mailer = Mailer(settings)
        self.holder = holder_id()
        self.released_at = -RELEASE_EVERY  # time.monotonic() of the last look
        self.backoff = Backoff(
            "scheduler",
            log,
            settings["BOT_INTERVAL_SECONDS"],
            settings["DATABASE_ERROR_BACKOFF_MAX"],
        )

    def guarded(self, job) -> None:
        """Run ``job`` unless the backoff says wait; a failure is one line."""
        if not self.backoff.ready():
            return
        try:
            with self.database.connection_context():
                if self._release_dead() and job != self.sweep:
                    self.sweep()  # the dead one's due seats now, not at the next sweep
                job()
        except Exception as exc:  # noqa: BLE001 - a scheduler that exits stops every clock
            self.backoff.failed(exc)
            drop_connection(self.database, log)
            return
        self.backoff.succeeded()

    def _release_dead(self) -> int:
        """At start and then every RELEASE_EVERY seconds (the bots' job runs
        every BOT_INTERVAL_SECONDS), free the claims of this host's
        schedulers that died: a kill -9 leaves them until their lease ends,
        and a running scheduler takes them over within seconds."""
        if time.monotonic() - self.released_at < RELEASE_EVERY:
            return 0
        self.released_at = time.monotonic()
        freed = release_dead_claims(utcnow())
        if freed:
            log.warning("freed %d seat(s) claimed by a scheduler that is gone", freed)
        return freed

    def sweep(self) -> None:
        started = time.monotonic()
        report = sweep(self.settings, self.mailer, utcnow(), holder=self.holder)
        self.exports()
        self.held_invitations()
        metrics.SWEEP_SECONDS.observe(time.monotonic() - started)
        if report.outage:
            log.warning(
                "no sweep ran from %s to %s: clocks moved on",
                report.outage.began,
                report.outage.ended,
            )
        if (
            report.timeouts
            or report.reminders
            or report.digests
            or report.vacations
            or report.last_calls
        ):
            log.info(
                "%d timeouts (%d actions), %d reminders, %d last calls, %d digests, "
                "%d vacations started",
                report.timeouts,
                report.actions,
                report.reminders,
                report.last_calls,
                report.digests,
                report.vacations,
            )

    def exports(self) -> None:
        """Archives of players' data asked for (services/data_export.py)."""
        built = data_export.build_due(self.mailer, utcnow())
        if built:
            log.info("built %d data archive(s)", built)

    def held_invitations(self) -> None:
        """The one mail of invitations held back for an address, once its
        daily limit has room (services/held_invitations.py)."""
        written = held_invitations.send_due(self.settings, self.mailer, utcnow())
        if written:
            log.info("wrote %d mail(s) of held invitations", written)

    def purge(self) -> None:
        """What is past its retention window (services/retention.py), by
        one scheduler per PURGE_INTERVAL_SECONDS however many run."""
        now = utcnow()
        if not retention.claim_turn(now, self.settings["PURGE_INTERVAL_SECONDS"]):
            return
        purged = retention.purge(self.settings, now)
        log.info("purged: %s", ", ".join(purged.lines()))

    def bots(self) -> None:
        """The seats bots play (services/clock/sweep.py run_bots)."""
        report = run_bots(self.settings, self.mailer, utcnow(), holder=self.holder)
        if report.actions:
            log.info("bots played %d moves in %d turns", report.actions, report.timeouts)


def jobs(work: Scheduler, settings) -> list[tuple]:
    """The scheduler's job list: (what runs, every how many seconds, its
    first run if not one interval from now).  The sweep runs at once."""
    return [
        (work.sweep, settings["SCHEDULER_INTERVAL"], utcnow_aware()),
        (work.bots, settings["BOT_INTERVAL_SECONDS"], None),
        (work.purge, max(1, settings["PURGE_INTERVAL_SECONDS"]), None),
    ]


def main() -> None:
    with settings_module.exit_on_settings_error():
        settings = settings_module.load()
    logs.setup(settings)
    database = make_database(settings["DATABASE_URL"], settings)
    bind(database)
    work = Scheduler(settings, database)
    scheduler = BlockingScheduler(timezone="UTC")
    # coalesce + one instance: a late or slow run is not stacked up; the
    # grace time keeps a run that starts a little late from being dropped.
    for job, seconds, first_run in jobs(work, settings):
        scheduler.add_job(
            work.guarded,
            "interval",
            seconds=seconds,
            args=(job,),
            coalesce=True,
            max_instances=1,
            misfire_grace_time=30,
            **({"next_run_time": first_run} if first_run else {}),
        )
    log.info(
        "scheduler %s: sweeping every %s s, bots every %s s",
        work.holder,
        settings["SCHEDULER_INTERVAL"],
        settings["BOT_INTERVAL_SECONDS"],
    )
    scheduler.start()


def utcnow_aware() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)

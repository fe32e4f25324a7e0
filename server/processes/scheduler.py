"""The scheduler process: ``python -m server.processes.scheduler``.

Runs the sweep (services/sweep.py) every SCHEDULER_INTERVAL seconds with
APScheduler's BlockingScheduler, in a process of its own (one scheduler per
web worker would act N times).  No APScheduler job store: deadlines and
reminder times live in our tables, so a restart simply catches up: overdue
timeouts are played in deadline order, reminders that are past their
deadline are skipped.  Several scheduler processes may run at once; the
sweep claims each due row atomically.
"""
from __future__ import annotations

import datetime as dt
import logging
import sys

from apscheduler.schedulers.blocking import BlockingScheduler

from server import settings as settings_module
from server.db import bind, make_database
from server.mail.compose import Mailer
from server.models import utcnow
from server.processes import logs
from server.services.sweep import run_bots, sweep

log = logging.getLogger("pbem.scheduler")


def run_once(settings, mailer: Mailer, database) -> None:
    with database.connection_context():
        report = sweep(settings, mailer, utcnow())
    if report.outage:
        log.warning("no sweep ran from %s to %s: clocks moved on", report.outage.began,
                    report.outage.ended)
    if (report.timeouts or report.reminders or report.digests or report.vacations
            or report.last_calls):
        log.info("%d timeouts (%d actions), %d reminders, %d last calls, %d digests, "
                 "%d vacations started", report.timeouts, report.actions, report.reminders,
                 report.last_calls, report.digests, report.vacations)


def run_bots_once(settings, mailer: Mailer, database) -> None:
    """The seats bots play (services/sweep.py run_bots); errors are logged
    by APScheduler and the next run comes a few seconds later."""
    with database.connection_context():
        report = run_bots(settings, mailer, utcnow())
    if report.actions:
        log.info("bots played %d moves in %d turns", report.actions, report.timeouts)


def main() -> None:
    with settings_module.exit_on_settings_error():
        settings = settings_module.load()
    logs.setup(settings)
    database = make_database(settings["DATABASE_URL"], settings)
    bind(database)
    mailer = Mailer(settings)
    scheduler = BlockingScheduler(timezone="UTC")
    # coalesce + one instance: a late or slow run is not stacked up; the
    # grace time keeps a run that starts a little late from being dropped.
    scheduler.add_job(run_once, "interval", seconds=settings["SCHEDULER_INTERVAL"],
                      args=(settings, mailer, database), coalesce=True, max_instances=1,
                      misfire_grace_time=30, next_run_time=utcnow_aware())
    scheduler.add_job(run_bots_once, "interval", seconds=settings["BOT_INTERVAL_SECONDS"],
                      args=(settings, mailer, database), coalesce=True, max_instances=1,
                      misfire_grace_time=30)
    log.info("sweeping every %s s, bots every %s s", settings["SCHEDULER_INTERVAL"],
             settings["BOT_INTERVAL_SECONDS"])
    scheduler.start()


def utcnow_aware() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)

"""The sender process: ``python -m server.processes.sender``.

Drains the outbox (services/outbox.py over mail/smtp_sender.py, then the
notices to chat and push channels over notify/notice_sender.py) every
SENDER_INTERVAL seconds, and at once when a committed transaction wrote
into it (server/wakeup.py: LISTEN/NOTIFY on PostgreSQL, a datagram on
SQLite).  Several may run at once: each mail is claimed, for
seconds, right before it is sent.  It keeps its SMTP session from drain to
drain while mails keep coming (mail/smtp_sender.Connection), and beats its
heartbeat at most every BEAT_SECONDS: the heartbeat is read by people and a
readiness check counting minutes, and a round every 0.2 s would otherwise
write it five times a second.

It does not stop on trouble: a database error (the server restarting, a
locked SQLite file, a dropped schema) or an SMTP error in one round is
logged, the connection dropped, and the next round comes after a wait that
doubles up to SENDER_ERROR_BACKOFF_MAX.  Only SIGTERM or Ctrl-C end it.
Under ``scripts/serve.sh`` an exit would take the web server down with it.

Notices go out on a thread of their own, woken by the same wake-up: a chat
or push service that is slow to answer (each has seconds before it times
out) never holds a turn mail back.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
import time

from server import settings as settings_module
from server import wakeup
from server.db import bind, make_database
from server.mail import dkim_signing, smtp_sender
from server.models import utcnow
from server.processes import logs
from server.processes.backoff import DATABASE_ERRORS, drop_connection, first_line
from server.services import outbox

log = logging.getLogger("pbem.sender")
BEAT_SECONDS = 1.0
COUNTS = ("sent", "retry", "failed")


class Sender:
    """The mail rounds; with ``with_notices`` (a single loop, as tests and
    benches drive it) each round sends the notices after the mails."""

    what = "sender"  # names the loop in its log lines
    database_error_level = logging.ERROR

    def __init__(self, settings, database, with_notices: bool = True):
        self.settings, self.database = settings, database
        self.with_notices = with_notices
        self.holder = smtp_sender.holder_id()
        self.errors = 0  # rounds in a row that ended in an error
        self.probed = 0.0  # time.monotonic() of the last knock on a down server
        self.released = False
        self.session = smtp_sender.Connection(settings)  # kept across rounds
        self.beaten = -BEAT_SECONDS  # time.monotonic() of our last heartbeat

    def round(self) -> dict:
        """One round: free the claims of dead senders (once), drain, and knock
        on a server that was down.  Raises whatever goes wrong."""
        with self.database.connection_context():
            now = utcnow()
            if not self.released:
                freed = smtp_sender.release_dead_claims(now)
                self.released = True
                if freed:
                    log.warning("took over %d mail(s) claimed by a sender that is gone", freed)
            beat = time.monotonic() - self.beaten >= BEAT_SECONDS
            counts = outbox.deliver(self.settings, now, self.holder, self.session, beat)
            if beat:
                self.beaten = time.monotonic()
            if self.with_notices:
                noticed = outbox.deliver_notices(self.settings, self.holder, utcnow())
                counts = {k: counts.get(k, 0) + noticed.get(k, 0) for k in COUNTS}
            if time.monotonic() - self.probed >= self.settings["SENDER_PROBE_SECONDS"]:
                self.probed = time.monotonic()
                woken = smtp_sender.recover(self.settings, utcnow())
                if woken:
                    log.warning("the SMTP server answers again: %d waiting mail(s) due now", woken)
        return counts

    def step(self) -> float:
        """Run a round, catching anything; returns how long to sleep."""
        try:
            counts = self.round()
        except Exception as exc:  # noqa: BLE001 - a sender that exits takes the site down
            self.errors += 1
            wait = min(
                self.settings["SENDER_INTERVAL"] * 2 ** min(self.errors, 16),
                self.settings["SENDER_ERROR_BACKOFF_MAX"],
            )
            if isinstance(exc, DATABASE_ERRORS):  # one line, not a traceback a round
                log.log(
                    self.database_error_level,
                    "%s: round failed (%d in a row), database error: %s: %s; next try in %.1f s",
                    self.what,
                    self.errors,
                    exc.__class__.__name__,
                    first_line(exc),
                    wait,
                )
            else:
                log.exception(
                    "%s: round failed (%d in a row); next try in %.1f s",
                    self.what,
                    self.errors,
                    wait,
                )
            drop_connection(self.database, log)
            self.session.close()  # whatever state it was left in
            return wait
        if self.errors:
            log.warning("sender: working again after %d failed round(s)", self.errors)
        self.errors = 0
        if counts["sent"] or counts["retry"] or counts["failed"]:
            log.info("sender: %s", counts)
        return self.settings["SENDER_INTERVAL"]

    def close(self) -> None:
        self.session.close()


class NoticeSender(Sender):
    """The notices' rounds, on a thread beside the mails' (their own
    database connection: peewee's are per thread)."""

    what = "sender (notices)"
    # The mail loop reports the same database outage once a failure; a
    # second line a failure from this thread would only double the noise.
    database_error_level = logging.DEBUG

    def __init__(self, settings, database):
        super().__init__(settings, database, with_notices=False)

    def round(self) -> dict:
        with self.database.connection_context():
            return outbox.deliver_notices(self.settings, self.holder, utcnow())


def notice_loop(sender: NoticeSender, woken: threading.Event, stop: list) -> None:
    """Send notices every round's wait, or at once when the mail loop
    passes a wake-up on; ends once ``stop`` holds anything."""
    try:
        while not stop:
            wait = sender.step()
            deadline = time.monotonic() + wait
            while not stop and time.monotonic() < deadline:
                if woken.wait(min(0.2, max(deadline - time.monotonic(), 0))):
                    woken.clear()
                    if not sender.errors:
                        break
    finally:
        sender.close()


def run_forever(settings) -> None:
    database = make_database(settings["DATABASE_URL"], settings)
    bind(database)
    sender = Sender(settings, database, with_notices=False)
    stop: list = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    listener = wakeup.listen(database)
    notices_woken = threading.Event()
    notices = threading.Thread(
        target=notice_loop,
        args=(NoticeSender(settings, database), notices_woken, stop),
        name="pbem-notices",
        daemon=True,
    )
    notices.start()
    log.info("sender %s: draining every %s s", sender.holder, settings["SENDER_INTERVAL"])
    try:
        while not stop:
            wait = sender.step()
            deadline = time.monotonic() + wait
            while not stop and time.monotonic() < deadline:
                # Short slices: SIGTERM is seen within 0.2 s.
                woken = listener.wait(min(0.2, max(deadline - time.monotonic(), 0)))
                if woken:
                    notices_woken.set()  # one wake-up serves both loops
                if woken and not sender.errors:  # a failing round waits its backoff out
                    break
    finally:
        stop.append(1)
        listener.close()
        sender.close()
        notices.join(timeout=5)


def main() -> None:
    with settings_module.exit_on_settings_error():
        settings = settings_module.load()
        dkim_signing.check(settings)  # a key that cannot sign stops the start
    logs.setup(settings)
    try:
        run_forever(settings)
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()

"""Failing a process at a chosen step of handling an incoming mail, for the
crash tests (tests/server/mail/test_inbound_exactly_once.py).

The setting ``FAULT_INJECTION = "<action>@<step>"`` (empty: off; never set
it on a site) makes the process fail once, at that step:

- actions: ``kill`` sends the process SIGKILL (a crash, an OOM kill,
  ``kill -9``); ``cut`` has PostgreSQL end the process's connection
  (``pg_terminate_backend`` from a second connection, as a database restart
  or a failover does) and lets the process go on into the dead connection.
- steps, told apart by the SQL the process sends, so no code of the mail
  handling itself carries a test hook (a log row's INSERT may stand inside
  a WITH statement that writes the move's other rows too): ``before-record`` and
  ``after-record`` (the inbound_mail row), ``mid-move`` (after the first
  move's log row, that move half-written), ``between-moves`` (before the
  second move's log row), ``before-answer`` (before the first mail is
  queued), ``before-commit`` and ``after-commit`` (the transaction that
  holds the record).
"""

from __future__ import annotations

import logging
import os
import signal
import time

from server.db import make_database
from server.settings import SettingsError

log = logging.getLogger("pbem.faults")
ACTIONS = ("kill", "cut")
RECORD = 'INSERT INTO "inbound_mail"'
EVENT = 'INSERT INTO "event"'
OUTBOX = 'INSERT INTO "outbox"'
STEPS = (
    "before-record",
    "after-record",
    "mid-move",
    "between-moves",
    "before-answer",
    "before-commit",
    "after-commit",
)


def parse(spec: str) -> tuple[str, str]:
    action, _, step = spec.strip().partition("@")
    if action not in ACTIONS or step not in STEPS:
        raise SettingsError(
            f"FAULT_INJECTION={spec!r}: expected <{'|'.join(ACTIONS)}>@<{'|'.join(STEPS)}>"
        )
    return action, step


class Fault:
    """Watches a database's statements and commits; fails at ``step``.  The
    steps after the record count from the record's INSERT, whatever
    transaction they run in (so the same test fails on a design that
    commits the record first)."""

    def __init__(self, database, url: str, action: str, step: str):
        self.database, self.url, self.action, self.step = database, url, action, step
        self.recorded = False  # a record was written ...
        self.committed = False  # ... and a commit followed
        self.events = 0
        self.done = False
        self._execute_sql, self._commit = database.execute_sql, database.commit
        database.execute_sql, database.commit = self.execute_sql, self.commit

    def execute_sql(self, sql, params=None, *args, **kwargs):
        if sql.startswith(RECORD):
            self._at("before-record")
        elif self.recorded and EVENT in sql:
            self._at("between-moves" if self.events == 1 else "")
        elif self.recorded and sql.startswith(OUTBOX):
            self._at("before-answer")
        cursor = self._execute_sql(sql, params, *args, **kwargs)
        if sql.startswith(RECORD):
            self.recorded, self.committed, self.events = True, False, 0
            self._at("after-record")
        elif self.recorded and EVENT in sql:
            self.events += 1
            self._at("mid-move" if self.events == 1 else "")
        return cursor

    def commit(self):
        first = self.recorded and not self.committed
        if first:
            self._at("before-commit")
        result = self._commit()
        if first:
            self.committed = True
            self._at("after-commit")
        return result

    def _at(self, step: str) -> None:
        if self.done or step != self.step:
            return
        self.done = True
        log.warning("fault injection: %s at %s", self.action, step)
        if self.action == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
            time.sleep(10)  # the signal is on its way; nothing more runs
        self._cut()

    def _cut(self) -> None:
        """The server ends this process's connection; the process finds out
        at its next statement, as it would after a restart of PostgreSQL."""
        pid = self._execute_sql("SELECT pg_backend_pid()").fetchone()[0]
        admin = make_database(self.url)
        with admin.connection_context():
            admin.execute_sql("SELECT pg_terminate_backend(%s, 5000)", (pid,))


def install(database, settings) -> Fault | None:
    """The fault the settings ask for, watching ``database``; None when off."""
    spec = settings["FAULT_INJECTION"]
    if not spec:
        return None
    action, step = parse(spec)
    if action == "cut" and not settings["DATABASE_URL"].startswith("postgres"):
        raise SettingsError("FAULT_INJECTION=cut@…: only a PostgreSQL connection can be cut")
    log.warning("fault injection armed: %s", spec)
    return Fault(database, settings["DATABASE_URL"], action, step)

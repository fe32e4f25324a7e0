"""Waiting out a database that is down, for every long-running process.

A failure is one log line (what failed, how many in a row, the error's
first line, when the next try comes), not a traceback at every interval;
the wait doubles from the process's own interval up to a ceiling.  An error
that is not the database's is a bug: it keeps its traceback."""

from __future__ import annotations

import logging
import time

from peewee import DatabaseError, InterfaceError

from server.db import CommitUnknown

DATABASE_ERRORS = (DatabaseError, InterfaceError, CommitUnknown)


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [""])[0][:300]


class Backoff:
    def __init__(self, what: str, log: logging.Logger, base: float, ceiling: float):
        self.what, self.log = what, log
        self.base, self.ceiling = max(base, 0.1), max(ceiling, base)
        self.errors = 0  # failures in a row
        self.next_try = 0.0  # time.monotonic() before which nothing is tried

    def ready(self) -> bool:
        return time.monotonic() >= self.next_try

    def wait(self) -> float:
        """Seconds until the next try (0: now)."""
        return max(self.next_try - time.monotonic(), 0.0)

    def failed(self, exc: BaseException) -> float:
        """Log the failure in one line (a traceback for what is not the
        database's) and put the next try off; returns the wait."""
        self.errors += 1
        wait = min(self.base * 2 ** min(self.errors - 1, 16), self.ceiling)
        self.next_try = time.monotonic() + wait
        if isinstance(exc, DATABASE_ERRORS):
            self.log.error(
                "%s failed (%d in a row), database error: %s: %s; next try in %.0f s",
                self.what,
                self.errors,
                exc.__class__.__name__,
                first_line(exc),
                wait,
            )
        else:
            self.log.error(
                "%s failed (%d in a row); next try in %.0f s",
                self.what,
                self.errors,
                wait,
                exc_info=exc,
            )
        return wait

    def succeeded(self) -> None:
        if self.errors:
            self.log.warning("%s works again after %d failure(s)", self.what, self.errors)
        self.errors, self.next_try = 0, 0.0


def drop_connection(database, log: logging.Logger) -> None:
    """After an error: a connection that broke is closed, so the next try
    opens a new one."""
    try:
        if not database.is_closed():
            database.close()
    except Exception:  # noqa: BLE001 - a broken connection may fail to close; it is dropped
        log.debug("closing the broken connection failed", exc_info=True)

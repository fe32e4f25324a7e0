"""A committed mail or notice wakes a sender at once.

Without it a turn mail waits for the sender's next look at the outbox
(SENDER_INTERVAL, 2 s): two players answering each other at once are held
to that rhythm.  With it the transaction that writes an outbox row tells
the senders, and only once it has committed (a sender woken earlier would
find nothing yet, and a rolled-back move sends nothing):

- PostgreSQL: the transaction says ``NOTIFY`` on the outbox's channel (once,
  however many rows it writes); PostgreSQL delivers it at COMMIT and drops
  it on ROLLBACK.  Each sender LISTENs on a connection of its own.
- SQLite: the database cannot tell another process anything.  After its
  COMMIT the writing process sends one datagram to a Unix socket in Linux's
  abstract namespace named after the database file, which the sender bound.
  One sender per file hears it (``scripts/serve.sh`` runs one); a second
  sender on the same file, or a system without abstract sockets, keeps
  looking every SENDER_INTERVAL.

A wake-up is a hint, never the only way: a sender still looks every
SENDER_INTERVAL, so one that was reconnecting or not yet started when a
wake-up was sent finds the mail at its next look.  When nothing is written
nothing is sent, and the sender does no more database work than before.

The database classes (server/db.py) call ``committed``/``rolled_back``; the
outbox writers call ``outbox_written``; the sender uses ``listen``.
"""

from __future__ import annotations

import atexit
import errno
import hashlib
import logging
import os
import select
import socket
import threading
import time

from peewee import PostgresqlDatabase, SqliteDatabase

log = logging.getLogger("pbem.wakeup")
CHANNEL = "pbem_outbox"

# SQLite: databases (by id) this thread wrote outbox rows to in its open
# transaction; a datagram follows their COMMIT.
_pending = threading.local()


def channel_for(schema: str | None) -> str:
    """The NOTIFY channel of a database: one per schema, so test runs and
    benchmarks side by side in one PostgreSQL database do not wake each
    other's senders (a harmless but useless look)."""
    if not schema:
        return CHANNEL
    safe = "".join(c if c.isalnum() or c == "_" else "_" for c in schema.lower())
    return f"{CHANNEL}_{safe}"[:63]


def socket_name(database) -> bytes:
    """The abstract socket a SQLite database's sender listens on: named by
    the database file (its real path), so every process of one site finds it."""
    path = str(database.database)
    if not path.startswith("file:") and path != ":memory:":
        path = os.path.realpath(path)
    return b"\0pbem-outbox-" + hashlib.sha256(path.encode()).hexdigest()[:32].encode()


def outbox_written(database) -> None:
    """A row was just written into the outbox on ``database``'s connection
    of this thread: wake the senders when it is committed."""
    if isinstance(database, PostgresqlDatabase):
        _notify(database)
    elif isinstance(database, SqliteDatabase):
        if database.in_transaction():
            marks = getattr(_pending, "ids", None)
            if marks is None:
                marks = _pending.ids = set()
            marks.add(id(database))
        else:  # autocommitted: already visible
            poke(database)


def _notify(database) -> None:
    transactions = database._state.transactions
    outer = transactions[0] if transactions else None
    if outer is not None and getattr(outer, "pbem_notified", False):
        return  # PostgreSQL folds repeats into one anyway: spare the round trip
    database.execute_sql(f'NOTIFY "{getattr(database, "outbox_channel", CHANNEL)}"')
    if outer is not None:
        outer.pbem_notified = True


def committed(database) -> None:
    """After a COMMIT on ``database`` (SQLite: send the datagram owed)."""
    marks = getattr(_pending, "ids", None)
    if marks and id(database) in marks:
        marks.discard(id(database))
        poke(database)


def rolled_back(database) -> None:
    marks = getattr(_pending, "ids", None)
    if marks:
        marks.discard(id(database))


_poker: socket.socket | None = None
_poker_lock = threading.Lock()


def poke(database) -> None:
    """One datagram to the SQLite sender's socket; nobody listening, or a
    sender already flooded with wake-ups, is fine: it looks anyway."""
    global _poker
    if not hasattr(socket, "AF_UNIX"):
        return
    try:
        with _poker_lock:
            if _poker is None:
                _poker = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                _poker.setblocking(False)
                atexit.register(_poker.close)
            _poker.sendto(b"1", socket_name(database))
    except OSError as exc:  # ECONNREFUSED/ENOENT: no sender; EAGAIN: it is awake
        if exc.errno not in (errno.ECONNREFUSED, errno.ENOENT, errno.EAGAIN):
            log.debug("waking the sender failed: %s", exc)


class Polling:
    """No wake-ups: the sender only looks every SENDER_INTERVAL."""

    def wait(self, timeout: float) -> bool:
        time.sleep(max(timeout, 0))
        return False

    def close(self) -> None:
        pass


class SocketListener:
    """SQLite: the datagrams of the processes that wrote to the outbox."""

    def __init__(self, sock: socket.socket):
        self.sock = sock

    def wait(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.sock], [], [], max(timeout, 0))
        if not ready:
            return False
        try:
            while self.sock.recv(16):  # every wake-up so far: one look serves them all
                pass
        except BlockingIOError:
            pass
        return True

    def close(self) -> None:
        self.sock.close()


class PostgresListener:
    """PostgreSQL: LISTEN on a connection of its own (autocommit, outside the
    pool).  A connection that breaks is opened again at the next wait, and
    that wait answers "woken": what was notified meanwhile is not lost."""

    RETRY_SECONDS = 5.0  # between tries to reopen a broken listening connection

    def __init__(self, database):
        self.database = database
        self.channel = getattr(database, "outbox_channel", CHANNEL)
        self.conn = None
        self.next_try = 0.0
        self.open()

    def open(self) -> bool:
        import psycopg  # only where PostgreSQL is used

        try:
            params = dict(self.database.connect_params)
            params.setdefault("dbname", self.database.database)
            params["application_name"] = f"{params.get('application_name') or 'pbem'}-listen"[:63]
            self.conn = psycopg.connect(autocommit=True, **params)
            self.conn.execute(f'LISTEN "{self.channel}"')
            return True
        except psycopg.Error as exc:
            self.drop()
            self.next_try = time.monotonic() + self.RETRY_SECONDS
            log.warning("sender: cannot listen for new mail (%s); looking every interval", exc)
            return False

    def drop(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:  # noqa: BLE001 - a broken connection may fail to close
                pass
        self.conn = None

    def wait(self, timeout: float) -> bool:
        import psycopg

        if self.conn is None:
            if time.monotonic() < self.next_try:
                time.sleep(max(timeout, 0))
                return False
            return self.open()  # anything notified while it was closed: look now
        try:
            woken = any(True for _ in self.conn.notifies(timeout=max(timeout, 0), stop_after=1))
            if woken:
                for _ in self.conn.notifies(timeout=0):  # the rest: one look serves them all
                    pass
            return woken
        except psycopg.Error as exc:
            log.warning("sender: the listening connection broke (%s); reopening", exc)
            self.drop()
            return False

    def close(self) -> None:
        self.drop()


def listen(database):
    """What the sender waits on between two looks at the outbox."""
    if isinstance(database, PostgresqlDatabase):
        return PostgresListener(database)
    if isinstance(database, SqliteDatabase) and hasattr(socket, "AF_UNIX"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            sock.bind(socket_name(database))
        except OSError as exc:
            sock.close()
            # EADDRINUSE: another sender on this file hears the wake-ups.
            log.info("sender: no wake-ups here (%s); looking every interval", exc)
            return Polling()
        sock.setblocking(False)
        return SocketListener(sock)
    return Polling()

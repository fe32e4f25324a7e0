"""A rate-limit store in the site's own database (``pbem-db://``, the
default RATELIMIT_STORAGE_URI), so every web worker and every machine counts
against the same limits without a Redis.  It plugs into the ``limits``
library (Flask-Limiter's store layer) and supports its fixed-window strategy,
Flask-Limiter's default: one row per key with the count and the end of its
window, bumped by one atomic INSERT … ON CONFLICT DO UPDATE on SQLite and
PostgreSQL alike."""

from __future__ import annotations

import hashlib
import time

from limits.storage import Storage
from peewee import Case, DatabaseError

from server.db import db
from server.models import RateCount

KEY_MAX = 200
SWEEP_EVERY = 500  # counts between two sweeps of ended windows, per process


def row_key(key: str) -> str:
    """Keys hold a typed address (up to 254 characters): long ones are hashed."""
    if len(key) <= KEY_MAX:
        return key
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _connect() -> None:
    """Counting happens inside a request, whose connection is open already
    (and closed by its teardown); this only opens one where none is."""
    db.connect(reuse_if_open=True)


class DatabaseStorage(Storage):
    STORAGE_SCHEME = ["pbem-db"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.counted = 0

    @property
    def base_exceptions(self):
        return DatabaseError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        expired = RateCount.expires_at <= now
        query = (
            RateCount.insert(key=row_key(key), count=amount, expires_at=now + expiry)
            .on_conflict(
                conflict_target=[RateCount.key],
                update={
                    RateCount.count: Case(None, [(expired, amount)], RateCount.count + amount),
                    RateCount.expires_at: Case(
                        None, [(expired, now + expiry)], RateCount.expires_at
                    ),
                },
            )
            .returning(RateCount.count)
        )
        _connect()
        self.counted += 1
        if self.counted % SWEEP_EVERY == 0:
            self.sweep()
        return next(iter(query.execute())).count

    def _row(self, key: str) -> RateCount | None:
        _connect()
        return RateCount.get_or_none(
            (RateCount.key == row_key(key)) & (RateCount.expires_at > time.time())
        )

    def get(self, key: str) -> int:
        row = self._row(key)
        return row.count if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return row.expires_at if row else time.time()

    def check(self) -> bool:
        try:
            _connect()
            db.execute_sql("SELECT 1")
        except DatabaseError:
            return False
        return True

    def reset(self) -> int | None:
        _connect()
        return RateCount.delete().execute()

    def clear(self, key: str) -> None:
        _connect()
        RateCount.delete().where(RateCount.key == row_key(key)).execute()

    def sweep(self) -> int:
        """Forget the windows that have ended."""
        _connect()
        return RateCount.delete().where(RateCount.expires_at <= time.time()).execute()

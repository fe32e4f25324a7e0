"""The API's long poll, kept cheap: a wait holds one thread of a worker made
for waiting (gthread, config/gunicorn.conf.py), never a whole worker; it
gives its database connection back between looks; it ends well before any
worker or proxy timeout (API_WAIT_MAX_SECONDS, a client simply asks again);
and one account, or one token, holds only a few waits open at once, counted
in the site's rate-limit store so every worker sees the same count."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import abort, current_app

from engine.words import N_
from server.db import db
from server.web import rate_limits

TOO_MANY_WAITS = N_("You have too many waits open at once. Let one of them end, then ask again.")
# A worker killed mid-wait never gives its count back: the count expires.
SPARE_SECONDS = 60


def turns_within(timeout: int, turns) -> list[dict]:
    """``turns()`` as soon as it finds any, or [] after ``timeout`` seconds
    (at most API_WAIT_MAX_SECONDS)."""
    config = current_app.config
    end = time.monotonic() + min(timeout, config["API_WAIT_MAX_SECONDS"])
    every = config["API_WAIT_POLL_SECONDS"]
    while True:
        found = turns()
        left = end - time.monotonic()
        if found or left <= 0:
            return found
        if not db.in_transaction():
            db.close()  # back to the pool while nothing is asked of it
        time.sleep(min(every, left))


@contextmanager
def held(user_id: int, token_hash: str) -> Iterator[None]:
    """One open wait for the account and the token, or a 429 problem when
    either holds its limit (API_WAITS_PER_ACCOUNT, API_WAITS_PER_TOKEN)."""
    config = current_app.config
    counts = [
        (f"account/{user_id}", config["API_WAITS_PER_ACCOUNT"]),
        (f"token/{token_hash[:32]}", config["API_WAITS_PER_TOKEN"]),
    ]
    taken: list[str] = []
    try:
        for key, limit in counts:
            taken.append(key)
            if _add(key, 1) > limit:
                abort(429, TOO_MANY_WAITS)
        yield
    finally:
        for key in taken:
            _add(key, -1)


def _add(key: str, amount: int) -> int:
    storage = rate_limits.limiter.storage
    expiry = current_app.config["API_WAIT_MAX_SECONDS"] + SPARE_SECONDS
    prefix = current_app.config["RATELIMIT_KEY_PREFIX"]
    return storage.incr(f"{prefix}/api-waits/{key}", expiry, amount=amount)

"""Pooled database connections (peewee's playhouse pool): a
process reuses its PostgreSQL connections from request to request."""

from __future__ import annotations

import time

import pytest
from conftest import make_app

from server.db import TrustingPool, db, make_database


def backend_pids(app, requests: int) -> list[int]:
    pids = []
    for _ in range(requests):
        with app.app_context(), db.connection_context():
            pids.append(db.execute_sql("SELECT pg_backend_pid()").fetchone()[0])
    return pids


@pytest.mark.postgres
def test_requests_share_a_pooled_connection(pg_url, smtp, tmp_path):
    app = make_app(pg_url, smtp, tmp_path, DATABASE_POOL_MAX=2)
    try:
        assert len(set(backend_pids(app, 5))) == 1
        assert app.test_client().get("/login").status_code == 200
        assert len(set(backend_pids(app, 2))) == 1
    finally:
        db.obj.close_all()


@pytest.mark.postgres
def test_without_a_pool_each_request_connects_anew(pg_url, smtp, tmp_path):
    app = make_app(pg_url, smtp, tmp_path, DATABASE_POOL_MAX=0)
    assert len(set(backend_pids(app, 3))) == 3


class PingCounter:
    """Counts the pool's pings (SELECT 1 round trips) on the real adapter."""

    def __init__(self, pool):
        self.count, original = 0, pool._adapter.is_connection_closed

        def counted(conn):
            self.count += 1
            return original(conn)

        pool._adapter.is_connection_closed = counted


@pytest.mark.postgres
def test_a_connection_back_moments_ago_is_handed_out_without_a_ping(pg_url, smtp, tmp_path):
    """Each ping is a round trip per request: a connection that was idle in
    the pool for less than PING_AFTER seconds is trusted."""
    app = make_app(pg_url, smtp, tmp_path, DATABASE_POOL_MAX=2)
    try:
        pings = PingCounter(db.obj)
        assert len(set(backend_pids(app, 5))) == 1
        assert pings.count == 0
    finally:
        db.obj.close_all()


@pytest.mark.postgres
def test_a_connection_idle_longer_is_pinged_and_replaced_when_dead(
    pg_url, smtp, tmp_path, monkeypatch
):
    app = make_app(pg_url, smtp, tmp_path, DATABASE_POOL_MAX=2)
    pool = db.obj
    monkeypatch.setattr(TrustingPool, "PING_AFTER", 0.0)
    try:
        pings = PingCounter(pool)
        first = backend_pids(app, 1)[0]
        # The server ends the connection while it sits in the pool.
        admin = make_database(pg_url)
        admin.execute_sql("SELECT pg_terminate_backend(%s)", (first,))
        admin.close()
        time.sleep(0.2)
        second = backend_pids(app, 1)[0]
        assert pings.count >= 1 and second != first
    finally:
        pool.close_all()

"""Issue 17: "pooled database connections (peewee's playhouse pool)": a
process reuses its PostgreSQL connections from request to request."""
from __future__ import annotations

import pytest
from conftest import make_app

from server.db import db


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

"""``pbem backup`` and ``pbem restore``.  A database with
games in progress (player moves, timeouts, mail in the outbox) is backed up
while a site could be running, restored into a new database, and every
event log there replays to its snapshot (``pbem verify``); the rows are the
same as in the original."""

from __future__ import annotations

import os

import pytest
from conftest import PG_URL
from ops_helpers import games_in_progress, pbem

from server.db import make_database

TABLES = ("account", "game", "seat", "event", "snapshot", "outbox", "schema_migration")


def counts(url: str) -> dict:
    database = make_database(url)
    with database.connection_context():
        return {t: database.execute_sql(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}


def queued_count(url: str) -> int:
    database = make_database(url)
    with database.connection_context():
        return database.execute_sql(
            "SELECT COUNT(*) FROM outbox WHERE status IN ('queued', 'deferred')"
        ).fetchone()[0]


@pytest.fixture
def new_database(db_url, tmp_path):
    """An empty database of the same kind: a new SQLite file, or a new
    PostgreSQL database (the backup recreates its schema there)."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    name = f"pbem_restore_{os.getpid()}"
    admin = make_database(PG_URL)
    with admin.connection_context():
        admin.execute_sql(f"DROP DATABASE IF EXISTS {name}")
        admin.execute_sql(f"CREATE DATABASE {name}")
    schema = db_url.split("schema=")[1]
    yield f"{PG_URL.rsplit('/', 1)[0]}/{name}?schema={schema}"
    with admin.connection_context():
        admin.execute_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_backup_restore_into_a_new_database_and_every_log_replays(
    app, db_url, new_database, tmp_path
):
    games_in_progress(app, count=3, moves=10)
    before = counts(db_url)
    assert before["event"] > 30 and before["outbox"] > 0
    backup_file = tmp_path / "site.backup"
    made = pbem(db_url, tmp_path, "backup", str(backup_file))
    assert made.returncode == 0, made.stderr
    assert backup_file.stat().st_size > 0
    queued = queued_count(db_url)
    assert queued > 0
    restored = pbem(new_database, tmp_path, "restore", str(backup_file))
    assert restored.returncode == 0, restored.stderr
    assert counts(new_database) == before
    # The mail queued at the backup went out from the live site since: the
    # restore marks it not sent, and says so.
    assert f"{queued} queued mail(s) and notice(s) marked" in restored.stdout
    assert queued_count(new_database) == 0
    database = make_database(new_database)
    with database.connection_context():
        reasons = database.execute_sql(
            "SELECT COUNT(*) FROM outbox WHERE last_error = 'not sent: restored from backup'"
        ).fetchone()[0]
    assert reasons == queued
    checked = pbem(new_database, tmp_path, "verify")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip() == "3 game(s) checked, 0 differ"
    # A restore never goes over a site's data, and a backup never over a file.
    again = pbem(new_database, tmp_path, "restore", str(backup_file))
    assert again.returncode == 1
    assert "restore into a new, empty database" in again.stderr
    assert counts(new_database) == before
    twice = pbem(db_url, tmp_path, "backup", str(backup_file))
    assert twice.returncode == 1 and "exists already" in twice.stderr


def test_a_backup_of_an_unreachable_database_fails_with_one_line(tmp_path):
    url = "postgresql://postgres@127.0.0.1:1/none"
    done = pbem(url, tmp_path, "backup", str(tmp_path / "x.backup"))
    assert done.returncode == 1
    assert done.stderr.startswith("pbem: pg_dump failed:") and "Traceback" not in done.stderr
    assert not (tmp_path / "x.backup").exists()

"""The database URL is read by peewee's playhouse.db_url
and every parameter reaches the driver.  Against this machine's PostgreSQL,
which has no TLS: ``sslmode=disable`` connects, ``sslmode=require`` fails
with psycopg's own words (before, the parameter was dropped and both
connected without TLS)."""

from __future__ import annotations

import pytest
from conftest import PG_URL, postgres_available
from peewee import OperationalError

from server.db import make_database

pytestmark = pytest.mark.postgres


@pytest.fixture(autouse=True)
def needs_postgres():
    reason = postgres_available()
    if reason:
        pytest.skip(reason)


def test_sslmode_disable_connects_and_require_fails_with_psycopgs_error():
    plain = make_database(f"{PG_URL}?sslmode=disable")
    with plain.connection_context():
        assert plain.execute_sql("SELECT 1").fetchone() == (1,)
    tls = make_database(f"{PG_URL}?sslmode=require")
    with pytest.raises(OperationalError) as caught:
        tls.connect()
    assert "server does not support SSL, but SSL was required" in str(caught.value)


def test_every_parameter_reaches_psycopg():
    database = make_database(f"{PG_URL}?application_name=pbem-probe&connect_timeout=3")
    with database.connection_context():
        (name,) = database.execute_sql("SELECT current_setting('application_name')").fetchone()
    assert name == "pbem-probe"


def test_schema_is_still_the_search_path_beside_other_parameters():
    admin = make_database(PG_URL)
    with admin.connection_context():
        admin.execute_sql("DROP SCHEMA IF EXISTS pbem_url_probe CASCADE")
        admin.execute_sql("CREATE SCHEMA pbem_url_probe")
    try:
        database = make_database(
            f"{PG_URL}?schema=pbem_url_probe&sslmode=disable&application_name=probe"
        )
        with database.connection_context():
            (path,) = database.execute_sql("SHOW search_path").fetchone()
            (name,) = database.execute_sql("SELECT current_setting('application_name')").fetchone()
        assert (path, name) == ("pbem_url_probe", "probe")
    finally:
        with admin.connection_context():
            admin.execute_sql("DROP SCHEMA IF EXISTS pbem_url_probe CASCADE")


def test_a_password_with_reserved_characters_is_unquoted():
    database = make_database("postgresql://pbem:p%40ss%2Fword@db.example:6543/site")
    params = database.connect_params
    assert (
        database.database,
        params["user"],
        params["password"],
        params["host"],
        params["port"],
    ) == ("site", "pbem", "p@ss/word", "db.example", 6543)


def test_sqlite_parameters_are_sqlites_own(tmp_path):
    """``?mode=ro`` opens the file read-only: reads work, writes are refused
    by SQLite itself (before, "?mode=ro" became part of a new file's name)."""
    path = tmp_path / "site.sqlite3"
    writable = make_database(f"sqlite:///{path}")
    with writable.connection_context():
        writable.execute_sql("CREATE TABLE t (x INTEGER)")
        writable.execute_sql("INSERT INTO t VALUES (1)")
    readonly = make_database(f"sqlite:///{path}?mode=ro")
    with readonly.connection_context():
        assert readonly.execute_sql("SELECT x FROM t").fetchall() == [(1,)]
        with pytest.raises(OperationalError, match="readonly"):
            readonly.execute_sql("INSERT INTO t VALUES (2)")
    assert sorted(p.name for p in tmp_path.iterdir() if "mode" in p.name) == []


def test_an_unknown_scheme_is_refused_with_its_name():
    with pytest.raises(ValueError, match="mysql"):
        make_database("mysql://x@y/z")

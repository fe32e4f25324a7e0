"""Database lifecycle: build the peewee database from a URL, open per request,
close on teardown, and run the migrations (``flask --app server migrate``)."""
from __future__ import annotations

import time
from typing import Callable
from urllib.parse import parse_qs, unquote, urlparse

import click
from peewee import DatabaseProxy, PostgresqlDatabase, SqliteDatabase
from playhouse.migrations import Runner
from playhouse.pool import PooledPostgresqlDatabase

from server.settings import MIGRATIONS, instance_file

db = DatabaseProxy()

SQLITE_PRAGMAS = {
    "journal_mode": "wal",
    # Writers wait for each other instead of failing with "database is locked".
    "busy_timeout": 10000,
    "foreign_keys": 1,
    # WAL keeps a committed move durable across a crash of the process without
    # an fsync on every commit.
    "synchronous": "normal",
}


class TrustingPool(PooledPostgresqlDatabase):
    """peewee's pool pings every connection it hands out (``SELECT 1``: one
    more round trip for every request).  A connection that came back to the
    pool moments ago, idle, is handed out as it is; one that sat longer is
    pinged as before.  A server restart within that moment costs the
    request that meets the dead connection, which is then dropped."""

    PING_AFTER = 5.0        # seconds in the pool before a connection is pinged

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._returned_at: dict[int, float] = {}

    def _can_reuse(self, conn) -> bool:
        reusable = super()._can_reuse(conn)
        if reusable:
            self._returned_at[self.conn_key(conn)] = time.monotonic()
        return reusable

    def _is_closed(self, conn) -> bool:
        returned = self._returned_at.pop(self.conn_key(conn), None)
        if (returned is None or time.monotonic() - returned > self.PING_AFTER
                or conn.closed or self._adapter.txn_status(conn) != self._adapter.txn_idle):
            return super()._is_closed(conn)
        return False


def make_database(url: str, settings: dict | None = None):
    """A peewee database for ``sqlite:///file`` or ``postgresql://...``."""
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        path = url[len("sqlite:///"):]
        if settings is not None and not path.startswith("/"):
            path = str(instance_file(settings, path))
        # IMMEDIATE: a read-then-write transaction takes the write lock at
        # BEGIN, so two moves on the same game are serialised, not lost.
        return SqliteDatabase(path, pragmas=SQLITE_PRAGMAS, lock_type="IMMEDIATE",
                              timeout=10)
    if parsed.scheme in ("postgres", "postgresql"):
        extra = {}
        schema = parse_qs(parsed.query).get("schema")
        if schema:
            # ?schema=name: tables live in that schema (test runs side by side).
            extra["options"] = f"-c search_path={schema[0]}"
        pool = (settings or {}).get("DATABASE_POOL_MAX", 0)
        if pool > 0:
            # A new PostgreSQL connection costs ~15 ms: a process keeps up to
            # ``pool`` open and hands them from request to request.
            cls, extra = TrustingPool, dict(extra, max_connections=pool,
                                                        stale_timeout=300, timeout=30)
        else:
            cls = PostgresqlDatabase
        return cls(
            unquote(parsed.path.lstrip("/")), host=parsed.hostname or "127.0.0.1",
            port=parsed.port or 5432, user=unquote(parsed.username or "") or None,
            password=unquote(parsed.password or "") or None, **extra)
    raise ValueError(f"unsupported DATABASE_URL {url!r}")


class Prepared:
    """A SELECT whose SQL is built once instead of on every run.  peewee
    builds a query's SQL anew each time, and for the page's few small
    queries that is most of their cost (about 1 ms for a game row with its
    snapshot; bench/move_cost.py).  ``build`` makes the query from integer
    parameters; it is called once per kind of database with stand-ins, and
    each run sends that SQL with the real values in the stand-ins' places,
    reading the rows as the query itself would (joined models included)."""

    STAND_IN = -7_919_000_000       # parameter i is compiled as STAND_IN - i

    def __init__(self, build: Callable):
        self.build = build
        self.arity = build.__code__.co_argcount
        self._compiled: dict[tuple, tuple] = {}

    def _compile(self) -> tuple:
        query = self.build(*(self.STAND_IN - i for i in range(self.arity)))
        sql, params = query.sql()
        slots = {at: self.STAND_IN - value for at, value in enumerate(params)
                 if type(value) is int and 0 <= self.STAND_IN - value < self.arity}
        if sorted(slots.values()) != list(range(self.arity)):
            raise ValueError(f"{self.build.__name__}: each parameter must be a value in the SQL")
        return query, sql, params, slots

    def rows(self, *values: int) -> list:
        database = db.obj
        key = (type(database), database.param)
        if key not in self._compiled:
            self._compiled[key] = self._compile()
        query, sql, params, slots = self._compiled[key]
        params = list(params)
        for at, index in slots.items():
            params[at] = int(values[index])
        return list(query._get_cursor_wrapper(database.execute_sql(sql, params)))

    def first(self, *values: int):
        found = self.rows(*values)
        return found[0] if found else None


def bind(database) -> None:
    """Point the models at ``database`` (one per process)."""
    db.initialize(database)


def migrate(database=None) -> list[str]:
    """Apply pending migrations; returns their names."""
    database = database or db.obj
    with database.connection_context():
        return Runner(database, str(MIGRATIONS)).up()


def open_db() -> None:
    db.connect(reuse_if_open=True)


def close_db(exc=None) -> None:
    if not db.is_closed():
        db.close()


@click.command("migrate")
def migrate_command():
    """Create or update the tables."""
    for name in migrate():
        click.echo(f"applied {name}")
    click.echo("database is up to date")


def init_app(app) -> None:
    bind(make_database(app.config["DATABASE_URL"], app.config))
    app.before_request(open_db)
    app.teardown_appcontext(close_db)
    app.cli.add_command(migrate_command)

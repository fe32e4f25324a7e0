"""Database lifecycle: build the peewee database from a URL, open per request,
close on teardown, and run the migrations (``flask --app server migrate``)."""

from __future__ import annotations

import datetime as dt
import inspect
import threading
import time
from collections.abc import Callable
from urllib.parse import quote, urlencode, urlparse

import click
from peewee import (
    DatabaseProxy,
    DateTimeField,
    Field,
    ForeignKeyField,
    IntegerField,
    InterfaceError,
    OperationalError,
    PostgresqlDatabase,
    SqliteDatabase,
)
from playhouse import db_url
from playhouse.migrations import Runner
from playhouse.pool import PooledPostgresqlDatabase

from server import wakeup
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


class CommitUnknown(Exception):
    """The database connection failed during a COMMIT (or an autocommitted
    write): the change may or may not have been saved.  Nobody can say
    "nothing was changed"; the page says so and links what to look at."""


READS = ("SELECT", "SHOW", "PRAGMA")  # statements that save nothing of ours


def is_read(sql: str) -> bool:
    return sql.lstrip()[:6].upper().startswith(READS)


class RemembersWrites:
    """Each thread remembers whether it saved anything since
    ``forget_writes`` (the start of a request), so an error page says
    "nothing was changed" only when that is true."""

    _writes = threading.local()

    def commit(self):
        result = super().commit()
        RemembersWrites._writes.saved = True
        return result

    def execute_sql(self, sql, params=None):
        cursor = super().execute_sql(sql, params)
        if not self.in_transaction() and not is_read(sql):  # autocommitted
            RemembersWrites._writes.saved = True
        return cursor


class WakesSenders:
    """After a COMMIT, the wake-up owed to the senders for the outbox rows
    it made visible (server/wakeup.py); a ROLLBACK owes nothing."""

    def commit(self):
        result = super().commit()
        wakeup.committed(self)
        return result

    def rollback(self):
        wakeup.rolled_back(self)
        return super().rollback()


class HonestCommits(RemembersWrites):
    """PostgreSQL is over a network: a COMMIT whose answer is lost may have
    gone through.  Such a failure is raised as ``CommitUnknown``, and so is
    a lost connection during a statement that commits by itself."""

    def commit(self):
        try:
            return super().commit()
        except Exception as exc:
            raise CommitUnknown(str(exc)) from exc

    def execute_sql(self, sql, params=None):
        try:
            return super().execute_sql(sql, params)
        except (OperationalError, InterfaceError) as exc:
            if self.in_transaction() or is_read(sql):
                raise
            raise CommitUnknown(str(exc)) from exc


def saved_since_forget() -> bool:
    return getattr(RemembersWrites._writes, "saved", False)


def forget_writes() -> None:
    RemembersWrites._writes.saved = False


class TrackedSqliteDatabase(WakesSenders, RemembersWrites, SqliteDatabase):
    """SQLite is a local file: a failed COMMIT was rolled back, its fate is known."""


class HonestPostgresqlDatabase(HonestCommits, PostgresqlDatabase):
    """PostgreSQL whose failed COMMIT may still have been applied: HonestCommits says so."""


class TrustingPool(HonestCommits, PooledPostgresqlDatabase):
    """peewee's pool pings every connection it hands out (``SELECT 1``: one
    more round trip for every request).  A connection that came back to the
    pool moments ago, idle, is handed out as it is; one that sat longer is
    pinged as before.  A server restart within that moment costs the
    request that meets the dead connection, which is then dropped."""

    PING_AFTER = 5.0  # seconds in the pool before a connection is pinged

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
        if (
            returned is None
            or time.monotonic() - returned > self.PING_AFTER
            or conn.closed
            or self._adapter.txn_status(conn) != self._adapter.txn_idle
        ):
            return super()._is_closed(conn)
        return False


# sqlite3.connect's own keywords; every other parameter of a sqlite URL is
# SQLite's (mode=ro, immutable=1, cache=shared …) and goes into its file: URI.
SQLITE_CONNECT_KEYWORDS = ("timeout", "detect_types", "check_same_thread", "cached_statements")


def make_database(url: str, settings: dict | None = None):
    """A peewee database for ``sqlite:///file?…`` or ``postgresql://…?…``.

    The URL is read by peewee's ``playhouse.db_url``; every query parameter
    is kept: PostgreSQL's go to psycopg as they are (``sslmode=require``,
    ``connect_timeout=5``, ``application_name``…), except ``schema``, ours,
    which sets the search_path (test runs side by side).  SQLite's go into
    the ``file:`` URI SQLite opens (``?mode=ro``: read-only)."""
    scheme = urlparse(url).scheme
    if scheme == "sqlite":
        return _sqlite(db_url.parse(url), settings)
    if scheme in ("postgres", "postgresql"):
        return _postgres(db_url.parse(url, unquote_password=True, unquote_user=True), settings)
    raise ValueError(f"unsupported DATABASE_URL scheme {scheme!r}: sqlite or postgresql")


def _sqlite(params: dict, settings: dict | None):
    path = str(params.pop("database"))
    if settings is not None and path != ":memory:" and not path.startswith("/"):
        path = str(instance_file(settings, path))
    connect = {key: params.pop(key) for key in SQLITE_CONNECT_KEYWORDS if key in params}
    connect.setdefault("timeout", 10)
    if params:  # SQLite's own URI parameters
        query = urlencode({k: _url_text(v) for k, v in params.items()})
        path, connect["uri"] = f"file:{quote(path)}?{query}", True
    # IMMEDIATE: a read-then-write transaction takes the write lock at
    # BEGIN, so two moves on the same game are serialised, not lost.
    return TrackedSqliteDatabase(path, pragmas=SQLITE_PRAGMAS, lock_type="IMMEDIATE", **connect)


def _url_text(value) -> str:
    """db_url turns "true" into True and "1" into 1; SQLite wants the text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _postgres(params: dict, settings: dict | None):
    schema = params.pop("schema", None)
    if schema:
        # ?schema=name: tables live in that schema (test runs side by side).
        search_path = f"-c search_path={schema}"
        params["options"] = (
            f"{params['options']} {search_path}" if params.get("options") else search_path
        )
    params.setdefault("host", "127.0.0.1")
    params.setdefault("port", 5432)
    for key, value in list(params.items()):
        if isinstance(value, bool):  # db_url made sslcompression=1 … into Python values
            params[key] = int(value)
    pool = (settings or {}).get("DATABASE_POOL_MAX", 0)
    if pool > 0:
        # A new PostgreSQL connection costs ~15 ms: a process keeps up to
        # ``pool`` open and hands them from request to request.
        database: PostgresqlDatabase = TrustingPool(
            params.pop("database"), max_connections=pool, stale_timeout=300, timeout=30, **params
        )
    else:
        database = HonestPostgresqlDatabase(params.pop("database"), **params)
    database.outbox_channel = wakeup.channel_for(schema)
    return database


def locked(query, of=None):
    """``query`` with FOR UPDATE (of ``of``'s rows, in a join): the rows it
    reads stay locked until the transaction ends, so what is written from
    them is not lost to a writer who read them at the same moment.  SQLite
    has none and needs none: its writing transactions begin IMMEDIATE and
    run one at a time."""
    return query.for_update(of=of) if db.obj.for_update else query


class Prepared:
    """A query whose SQL is built once per shape instead of on every run.
    peewee builds a query's SQL anew each time, and for the page's few small
    queries that is most of their cost (about 1 ms for a game row with its
    snapshot; bench/move_cost.py).  ``build`` makes the query from its
    parameters; it is called once per kind of database (and, when it takes
    ``*values``, per number of them: an IN list of two ids is one shape)
    with stand-ins, and each run sends that SQL with the real values in the
    stand-ins' places, reading the rows as the query itself would (joined
    models included); ``run`` does the same for a write.  ``kinds``: the type
    of each named parameter (int unless told: str and datetime stand in
    too), or a model's field, whose own conversion the value goes through
    (JSON, a value that may be None); ``*values`` are ints."""

    STAND_IN = -7_919_000_000  # int parameter i is compiled as STAND_IN - i

    # A cursor wrapper's state that belongs to one run, not to the query.
    RUN_STATE = frozenset({"cursor", "count", "index", "initialized", "populated", "row_cache"})

    def __init__(self, build: Callable, kinds: tuple = ()):
        self.build = build
        self.arity = build.__code__.co_argcount
        self.varargs = bool(build.__code__.co_flags & inspect.CO_VARARGS)
        self.kinds = kinds + (int,) * (self.arity - len(kinds))
        self._compiled: dict[tuple, tuple] = {}
        self._reading: dict[tuple, dict] = {}

    def _stand_in(self, kind, i: int):
        """(the value given to ``build``, the parameter it becomes in the SQL)."""
        if isinstance(kind, Field):  # a column's own conversion (JSON, nullable)
            raw = self._stand_in(_raw_kind(kind), i)[0]
            return raw, kind.db_value(raw)
        if kind is int:
            return self.STAND_IN - i, self.STAND_IN - i
        if kind is str:
            return f"\x00pbem stand-in {i}\x00", f"\x00pbem stand-in {i}\x00"
        if kind is dt.datetime:
            return dt.datetime(1001, 1, 1, 1, 1, 1, i + 1), dt.datetime(1001, 1, 1, 1, 1, 1, i + 1)
        raise TypeError(f"no stand-in for {kind!r}")

    def _compile(self, count: int) -> tuple:
        kinds = self.kinds + (int,) * (count - self.arity)
        stand_ins = [self._stand_in(kind, i) for i, kind in enumerate(kinds)]
        query = self.build(*(given for given, _ in stand_ins))
        sql, params = query.sql()
        where = {(type(sent), sent): i for i, (_, sent) in enumerate(stand_ins)}
        slots = {
            at: where[(type(value), value)]
            for at, value in enumerate(params)
            if (type(value), value) in where
        }
        if set(slots.values()) != set(range(count)):  # a value may be used twice
            raise ValueError(f"{self.build.__name__}: each parameter must be a value in the SQL")
        return query, sql, params, slots, kinds

    def _sql(self, values) -> tuple:
        database = db.obj
        if len(values) != self.arity and not (self.varargs and len(values) > self.arity):
            raise TypeError(f"{self.build.__name__} takes {self.arity} values")
        key = (type(database), database.param, len(values))
        if key not in self._compiled:
            self._compiled[key] = self._compile(len(values))
        query, sql, params, slots, kinds = self._compiled[key]
        params = list(params)
        for at, index in slots.items():
            params[at] = _as(kinds[index], values[index])
        return key, query, sql, params

    def run(self, *values) -> int:
        """An UPDATE, DELETE or INSERT: the number of rows it changed."""
        database = db.obj
        _, _, sql, params = self._sql(values)
        return database.rows_affected(database.execute_sql(sql, params))

    def rows(self, *values) -> list:
        database = db.obj
        key, query, sql, params = self._sql(values)
        wrapper = query._get_cursor_wrapper(database.execute_sql(sql, params))
        # How rows become models (columns, converters, joined models) is
        # worked out from the first run's cursor and reused: the same SQL
        # gives the same columns.  peewee would work it out on every run.
        reading = self._reading.get(key)
        if reading is not None:
            vars(wrapper).update(reading)
            wrapper.initialized = True
        rows = list(wrapper)
        if reading is None and wrapper.initialized:
            self._reading[key] = {
                name: value for name, value in vars(wrapper).items() if name not in self.RUN_STATE
            }
        return rows

    def first(self, *values):
        found = self.rows(*values)
        return found[0] if found else None


def _raw_kind(field: Field) -> type:
    if isinstance(field, (IntegerField, ForeignKeyField)):
        return int
    if isinstance(field, DateTimeField):
        return dt.datetime
    return str


def _as(kind, value):
    """A value as the stand-in's type (an id read from a form is an int)."""
    if isinstance(kind, Field):
        return kind.db_value(value)
    if kind is dt.datetime:
        if not isinstance(value, dt.datetime):
            raise TypeError(f"a datetime, not {value!r}")
        return value
    return kind(value)


def bind(database) -> None:
    """Point the models at ``database`` (one per process)."""
    db.initialize(database)


def migrate(database=None) -> list[str]:
    """Apply pending migrations; returns their names."""
    database = database or db.obj
    with database.connection_context():
        return Runner(database, str(MIGRATIONS)).up()


def pending_migrations(database=None) -> list[str]:
    """The migrations not applied to the database yet (a connection must be open)."""
    database = database or db.obj
    return [
        m.name
        for m in Runner(database, str(MIGRATIONS)).status()
        if m.path is not None and not m.applied
    ]


def open_db() -> None:
    """A request starts with nothing saved yet.  The connection is opened by
    the first query (peewee's autoconnect), so a page that needs none, such
    as /healthz, answers while the database is down."""
    forget_writes()


def close_db(exc=None) -> None:
    try:
        if not db.is_closed():
            db.close()
    except Exception:  # noqa: BLE001 - a broken connection may fail to close; it is dropped
        pass


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

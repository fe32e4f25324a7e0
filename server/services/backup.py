"""``pbem backup FILE`` and ``pbem restore FILE`` (README "Backups").

SQLite: SQLite's online backup API (``sqlite3.Connection.backup``): a
consistent copy of the whole file while the site runs (writers wait for the
moment of each step), checked with ``PRAGMA integrity_check``.  PostgreSQL:
``pg_dump --format=custom`` (the schema named by ``?schema=``, or the whole
database) and ``pg_restore --single-transaction`` into an empty database;
the password goes to them in PGPASSWORD, never on the command line.

A restore goes into a new, empty database only (a site's tables there
make it refuse): restore, point DATABASE_URL at it, run ``pbem migrate``
and ``pbem verify``, then start the processes.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext
from peewee import PostgresqlDatabase, SqliteDatabase
from playhouse import db_url

from server.db import make_database


class BackupError(Exception):
    """Why a backup or restore could not be made; one line for the operator."""


def backup(url: str, target: Path, settings: dict | None = None) -> str:
    """Write a backup of the database at ``url`` to ``target``; a summary."""
    if target.exists():
        raise BackupError(f"{target} exists already: choose a new file name")
    database = make_database(url, settings)
    if isinstance(database, SqliteDatabase):
        return _sqlite_backup(database, target)
    if isinstance(database, PostgresqlDatabase):
        return _pg_dump(url, database, target)
    raise BackupError(f"no backup for {type(database).__name__}")


RESTORED = "not sent: restored from backup"


def restore(url: str, source: Path, settings: dict | None = None, resend: bool = False) -> str:
    """Restore ``source`` into the empty database at ``url``; a summary.

    Mail and notices that were queued when the backup was made have most
    likely gone out from the live site since: unless ``resend``, they are
    marked failed (for good, so no sender retries them) with ``RESTORED``
    as the reason, and the summary says how many."""
    summary = _restore(url, source, settings)
    if resend:
        return summary + "; queued mail and notices left queued: they go out again"
    return summary + "; " + _hold_queued(make_database(url, settings))


def _hold_queued(database) -> str:
    with database.connection_context(), database.atomic():
        held = database.execute_sql(
            "UPDATE outbox SET status = 'failed', permanent = %s, last_error = %s,"
            " claimed_until = NULL, claimed_by = ''"
            " WHERE status IN ('queued', 'deferred')".replace("%s", database.param),
            (True, RESTORED),
        ).rowcount
    return f"{held} queued mail(s) and notice(s) marked {RESTORED!r} (--resend-queued keeps them)"


def _restore(url: str, source: Path, settings: dict | None) -> str:
    if not source.is_file():
        raise BackupError(f"{source}: no such file")
    database = make_database(url, settings)
    with database.connection_context():
        if database.table_exists("game"):
            raise BackupError(
                "the target database has pbem's tables already: restore into a new, empty database"
            )
    if isinstance(database, SqliteDatabase):
        return _sqlite_restore(database, source)
    if isinstance(database, PostgresqlDatabase):
        return _pg_restore(database, source)
    raise BackupError(f"no restore for {type(database).__name__}")


# -- SQLite ---------------------------------------------------------------------
def _sqlite_backup(database: SqliteDatabase, target: Path) -> str:
    partial = target.with_name(target.name + ".partial")
    with database.connection_context():
        copy = sqlite3.connect(partial)
        try:
            database.connection().backup(copy)
            check = copy.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            copy.close()
    if check != "ok":
        partial.unlink()
        raise BackupError(f"the copy failed SQLite's integrity check: {check}")
    partial.rename(target)
    return f"SQLite backup written to {target} ({target.stat().st_size:,} bytes)"


def _sqlite_restore(database: SqliteDatabase, source: Path) -> str:
    backup_file = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        with database.connection_context():
            backup_file.backup(database.connection())
    finally:
        backup_file.close()
    return f"restored {source} into {database.database}"


# -- PostgreSQL ---------------------------------------------------------------
# psycopg's settings that are ours or the pool's, not libpq's.
NOT_LIBPQ = ("options",)


def _pg_command(tool: str, database: PostgresqlDatabase, *args: str) -> str:
    program = shutil.which(tool)
    if program is None:
        raise BackupError(f"{tool} is not installed (Debian: apt-get install postgresql-client)")
    params = {
        k: v for k, v in database.connect_params.items() if k not in NOT_LIBPQ and v is not None
    }
    env = dict(os.environ)
    password = params.pop("password", None)
    if password:
        env["PGPASSWORD"] = str(password)
    conninfo = " ".join(
        f"{k}={_quoted(v)}" for k, v in {"dbname": database.database, **params}.items()
    )
    done = subprocess.run(
        [program, *args, "--dbname", conninfo], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise BackupError(f"{tool} failed: {done.stderr.strip()}")
    return done.stdout


def _quoted(value) -> str:
    text = str(value).replace("\\", "\\\\").replace("'", "\\'")
    return f"'{text}'"


def _pg_dump(url: str, database: PostgresqlDatabase, target: Path) -> str:
    schema = db_url.parse(url).get("schema")
    partial = target.with_name(target.name + ".partial")
    args = ["--format=custom", "--no-owner", "--file", str(partial)]
    if schema:
        args += ["--schema", str(schema)]
    try:
        _pg_command("pg_dump", database, *args)
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    partial.rename(target)
    return f"PostgreSQL backup written to {target} ({target.stat().st_size:,} bytes)"


def _pg_restore(database: PostgresqlDatabase, source: Path) -> str:
    _pg_command(
        "pg_restore",
        database,
        "--no-owner",
        "--no-privileges",
        "--single-transaction",
        "--exit-on-error",
        str(source),
    )
    return f"restored {source} into database {database.database}"


# -- commands -------------------------------------------------------------------
@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(file: Path):
    """Write a backup of the site's database (DATABASE_URL) to FILE."""
    _run(backup, file)


@click.command("restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--resend-queued",
    is_flag=True,
    help="Leave the mail and notices queued in the backup queued: they go out again.",
)
@with_appcontext
def restore_command(file: Path, resend_queued: bool):
    """Restore FILE (made by pbem backup) into the database DATABASE_URL
    names, which must be new and empty; then run pbem verify.  Mail and
    notices queued in the backup are marked not sent (the live site most
    likely sent them since), unless --resend-queued."""
    _run(lambda url, source, settings: restore(url, source, settings, resend_queued), file)


def _run(action, file: Path) -> None:
    try:
        click.echo(action(current_app.config["DATABASE_URL"], file, current_app.config))
    except (BackupError, OSError, sqlite3.Error) as exc:
        click.echo(f"pbem: {exc}", err=True)
        raise SystemExit(1) from None

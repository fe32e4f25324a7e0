"""Whether the configured database is there and migrated, asked before a
command or a process uses it: ``pbem make-moderator`` on a fresh folder
used to create an empty SQLite file and die with a traceback; now it says
what to do (tests/server/processes/test_cli.py)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from peewee import DatabaseError
from playhouse.migrations import Runner

from server.db import make_database
from server.settings import MIGRATIONS, instance_file


def without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(
        parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1))
    )


def why_not_ready(settings: dict) -> str | None:
    """None when the database answers and every migration is applied, else
    the reason, in words an operator can act on.  Creates nothing: SQLite
    would make an empty file on connecting, so its file is looked for first."""
    url = settings["DATABASE_URL"]
    shown = without_password(url)
    if url.startswith("sqlite:///"):
        path = instance_file(settings, url[len("sqlite:///") :])
        if not path.is_file():
            return (
                f"there is no database at {path} (DATABASE_URL={shown}): run `pbem migrate` first"
            )
    try:
        database = make_database(url, dict(settings, DATABASE_POOL_MAX=0))
        with database.connection_context():
            pending = [
                m.name
                for m in Runner(database, str(MIGRATIONS)).status()
                if m.applied is None and m.path is not None
            ]
    except (DatabaseError, ValueError) as exc:
        return f"cannot use the database {shown}: {str(exc).strip()}"
    if pending:
        return (
            f"the database {shown} lacks {len(pending)} migration(s), from {pending[0]}: "
            f"run `pbem migrate` first"
        )
    return None

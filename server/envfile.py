"""The environment file of a deployment (/etc/pbem/env, deploy/env.example).

systemd reads it for the services (``EnvironmentFile=``) and ``pbem
--env-file FILE`` for the one-off commands, so both must read every line the
same way.  They would not for the whole of either format: systemd takes
quotes and backslash escapes out of a value and ignores ``export NAME=…``,
while dotenv readers keep the backslashes, cut ``# …`` after a value and
expand ``${NAME}``.  This reader takes the lines on which they agree,
``NAME=value`` (spaces around the value dropped), comments starting with #
or ; and blank lines, and refuses any other line, naming it, so a file that
works for one works for the other (tests/server/test_envfile.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# What systemd would read differently from the value as written.
AMBIGUOUS = {
    "\\": "a backslash (systemd reads it as an escape)",
    "\"'": "a quote at the start (systemd takes the quotes away)",
}


class EnvFileError(ValueError):
    """A line of the file that the services and the commands could read
    differently, or a file that cannot be read; the message says which."""


def read(path: str | os.PathLike) -> dict[str, str]:
    """NAME → value of every setting in the file at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise EnvFileError(f"cannot read the environment file {path}: {exc}") from None
    values = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        name, equals, value = stripped.partition("=")
        name, value = name.strip(), value.strip()
        problem = None if equals and NAME.fullmatch(name) else "not NAME=value"
        if problem is None and "\\" in value:
            problem = AMBIGUOUS["\\"]
        if problem is None and value[:1] in ("'", '"'):
            problem = AMBIGUOUS["\"'"]
        if problem:
            raise EnvFileError(f"{path}, line {number}: {problem}: {line.strip()[:60]!r}")
        values[name] = value
    return values


def load(path: str | os.PathLike, environ=os.environ) -> None:
    """Put the file's settings into ``environ``; a variable already set in
    the environment wins (``DATABASE_URL=… pbem --env-file FILE migrate``)."""
    for name, value in read(path).items():
        environ.setdefault(name, value)

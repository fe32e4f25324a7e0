"""Settings: config/settings.py, then environment variables of the same name.

Every setting declares its type in config/settings.py (``SMTP_PORT: int =
8025``); an environment value is parsed by that type, and one that does not
parse stops the start with a SettingsError naming the variable, the value and
the type expected.  Entry points wrap their start in ``exit_on_settings_error``
so that is one line on stderr, not a traceback.
"""

from __future__ import annotations

import math
import os
import re
import runpy
import secrets
import sys
import types
import typing
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A source checkout keeps config/, mail_templates/ and migrations/ at the top;
# an installed wheel carries them inside the package (pyproject.toml), and keeps its
# instance folder (SQLite file, secret key) where it is started.
CHECKOUT = (ROOT / "pyproject.toml").is_file() and (ROOT / "config").is_dir()
SHIPPED = ROOT if CHECKOUT else Path(__file__).resolve().parent
CONFIG_FILE = SHIPPED / ("config" if CHECKOUT else "_config") / "settings.py"
MAIL_TEMPLATES = SHIPPED / ("mail_templates" if CHECKOUT else "_mail_templates")
MIGRATIONS = SHIPPED / ("migrations" if CHECKOUT else "_migrations")
GUNICORN_CONFIG = SHIPPED / ("config" if CHECKOUT else "_config") / "gunicorn.conf.py"
DEFAULT_INSTANCE = ROOT / "instance" if CHECKOUT else Path.cwd() / "instance"


class SettingsError(ValueError):
    """A setting that cannot be used; the message says which and what it expects."""


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
# ASCII only: int() and float() also take "١٢" or "1_000", which nobody means.
INTEGER = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _int(text: str) -> int:
    if not INTEGER.fullmatch(text.strip()):
        raise ValueError(text)
    return int(text)


def _float(text: str) -> float:
    # float() would take "nan" and "inf": no interval or delay means those.
    if not DECIMAL.fullmatch(text.strip()) or not math.isfinite(float(text)):
        raise ValueError(text)
    return float(text)


def _bool(text: str) -> bool:
    word = text.strip().lower()
    if word not in TRUE + FALSE:
        raise ValueError(text)  # a typo must not quietly mean False
    return word in TRUE


PARSERS: dict[type, typing.Callable[[str], typing.Any]] = {
    int: _int,
    float: _float,
    bool: _bool,
    str: str,
}
EXPECTED = {
    int: "a whole number",
    float: "a number",
    bool: "one of " + ", ".join(f"{t}/{f}" for t, f in zip(TRUE, FALSE)),
    str: "text",
}
NAMES = {"int": int, "float": float, "bool": bool, "str": str, "None": type(None)}


def declared_type(annotation) -> tuple[type, bool]:
    """(base type, None allowed) of an annotation: int, float, bool, str, or
    one of them ``| None``; also as text (``from __future__ import annotations``)."""
    if isinstance(annotation, str):
        members = tuple(NAMES.get(part.strip()) for part in annotation.split("|"))
    elif typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = typing.get_args(annotation)
    else:
        members = (annotation,)
    optional = type(None) in members
    bases = [m for m in members if m is not type(None)]
    if len(bases) != 1 or bases[0] not in PARSERS:
        raise TypeError(f"unsupported setting type {annotation!r}")
    return bases[0], optional


def type_text(annotation) -> str:
    base, optional = declared_type(annotation)
    text = f"{base.__name__} ({EXPECTED[base]})"
    return text + ', or empty or "none" for none' if optional else text


def parse(name: str, text: str, annotation):
    """The environment's ``text`` for setting ``name`` as its declared type."""
    base, optional = declared_type(annotation)
    if optional and text.strip().lower() in ("", "none"):
        return None
    try:
        return PARSERS[base](text)
    except ValueError:
        raise SettingsError(
            f"setting {name}={text!r} from the environment is not valid: "
            f"expected {type_text(annotation)}"
        ) from None


def declared(namespace: dict) -> dict:
    """Each setting's annotation, checked: every upper-case name has one the
    parser knows, and its default is of that type."""
    annotations = namespace.get("__annotations__", {})
    found = {}
    for name, default in namespace.items():
        if not name.isupper():
            continue
        if name not in annotations:
            raise SettingsError(
                f"setting {name} in {CONFIG_FILE} has no declared type: "
                f"write it as {name}: int = ... (or float, bool, str, X | None)"
            )
        try:
            base, optional = declared_type(annotations[name])
        except TypeError as exc:
            raise SettingsError(f"setting {name} in {CONFIG_FILE}: {exc}") from None
        if not (
            type(default) is base
            or (optional and default is None)
            or (base is float and type(default) is int)
        ):
            raise SettingsError(
                f"setting {name} in {CONFIG_FILE}: the default {default!r} is not a {base.__name__}"
            )
        found[name] = annotations[name]
    return found


def load(environ=os.environ, overrides: dict | None = None) -> dict:
    """The settings as a dict; overrides (tests) win over the environment."""
    namespace = runpy.run_path(str(CONFIG_FILE))
    settings = {}
    for name, annotation in declared(namespace).items():
        settings[name] = (
            parse(name, environ[name], annotation) if name in environ else namespace[name]
        )
    settings["INSTANCE_PATH"] = settings.get("PBEM_INSTANCE") or str(DEFAULT_INSTANCE)
    for name in ("SECRET_KEY",):
        if name in environ:
            settings[name] = environ[name]
    settings.update(overrides or {})
    instance = Path(settings["INSTANCE_PATH"])
    try:
        instance.mkdir(parents=True, exist_ok=True)
    except OSError:
        # Needed only for a key file (which then says so, below) or a
        # relative SQLite path: with SECRET_KEY and PostgreSQL in the
        # environment a process runs without it.
        pass
    if "SECRET_KEY" not in settings:
        settings["SECRET_KEY"] = _instance_secret(instance)
    return settings


def _instance_secret(instance: Path) -> str:
    """A key made once per instance, so links in old mails survive restarts."""
    path = instance / "secret_key"
    try:
        if not path.exists():
            path.write_text(secrets.token_hex(32))
            path.chmod(0o600)
        return path.read_text().strip()
    except OSError as exc:
        raise SettingsError(
            f"no SECRET_KEY in the environment and the key file {path} "
            f"cannot be made or read ({exc.strerror}): set SECRET_KEY, or "
            f"give the instance folder (PBEM_INSTANCE) to this user"
        ) from None


def instance_file(settings: dict, relative: str) -> Path:
    path = Path(relative)
    return path if path.is_absolute() else Path(settings["INSTANCE_PATH"]) / path


@contextmanager
def exit_on_settings_error(status: int = 2):
    """For entry points: a bad setting ends the process with one line on
    stderr naming it (not a traceback) and exit status ``status``."""
    try:
        yield
    except SettingsError as exc:
        print(f"pbem: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(status) from None

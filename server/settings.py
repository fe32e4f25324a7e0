"""Settings: config/settings.py, then environment variables of the same name."""
from __future__ import annotations

import os
import runpy
import secrets
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG_FILE = ROOT / "config" / "settings.py"
MAIL_TEMPLATES = ROOT / "mail_templates"
MIGRATIONS = ROOT / "migrations"
DEFAULT_INSTANCE = ROOT / "instance"


def _coerce(default, text: str):
    """Turn an environment string into the type of the default it replaces."""
    if isinstance(default, bool):
        return text.strip().lower() in ("1", "true", "yes", "on")
    if isinstance(default, int):
        return int(text)
    if isinstance(default, float):
        return float(text)
    if default is None and text.strip().lower() in ("", "none"):
        return None
    return text


def load(environ=os.environ, overrides: dict | None = None) -> dict:
    """The settings as a dict; overrides (tests) win over the environment."""
    defaults = {k: v for k, v in runpy.run_path(str(CONFIG_FILE)).items() if k.isupper()}
    settings = dict(defaults)
    for name, default in defaults.items():
        if name in environ:
            settings[name] = _coerce(default, environ[name])
    settings["INSTANCE_PATH"] = environ.get("PBEM_INSTANCE", str(DEFAULT_INSTANCE))
    for name in ("SECRET_KEY",):
        if name in environ:
            settings[name] = environ[name]
    settings.update(overrides or {})
    Path(settings["INSTANCE_PATH"]).mkdir(parents=True, exist_ok=True)
    settings.setdefault("SECRET_KEY", _instance_secret(Path(settings["INSTANCE_PATH"])))
    return settings


def _instance_secret(instance: Path) -> str:
    """A key made once per instance, so links in old mails survive restarts."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def instance_file(settings: dict, relative: str) -> Path:
    path = Path(relative)
    return path if path.is_absolute() else Path(settings["INSTANCE_PATH"]) / path

"""Every setting the processes read from the environment is declared in
config/settings.py, and the settings guide lists each with its default and
meaning (it is written from config/settings.py and must not be stale)."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

from server import settings_guide
from server.settings import CONFIG_FILE, declared

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "docs" / "operators" / "settings.md"
# Where the server's code and its start-up files live.
CODE = ["server", "config", "scripts", "deploy", "wsgi.py"]
# Read as environment variables in code: os.environ.get("X"), os.environ["X"],
# os.getenv("X"), env.get("X") / env["X"] of a copy of the environment.
READ = re.compile(
    r"""(?:os\.environ|os\.getenv|\benv)(?:\.get\(|\[|\()\s*["']([A-Z][A-Z0-9_]+)["']"""
)
# Environment variables that are no pbem setting: the PostgreSQL password
# handed to pg_dump (written, not read); the test tools' axe-core file.
NOT_SETTINGS = {"PGPASSWORD", "PBEM_AXE_JS"}


def code_files():
    for part in CODE:
        path = ROOT / part
        files = [path] if path.is_file() else sorted(path.rglob("*"))
        for file in files:
            if file.is_file() and file.suffix in {".py", ".sh", ".example", ".service", ""}:
                yield file


def names_in_code() -> dict[str, set[str]]:
    """Each environment variable the code reads or names (PBEM_*), and where."""
    found: dict[str, set[str]] = {}
    for file in code_files():
        text = file.read_text(errors="replace")
        names = set(READ.findall(text)) | set(re.findall(r"\bPBEM_[A-Z0-9_]+", text))
        for name in names - NOT_SETTINGS:
            found.setdefault(name, set()).add(str(file.relative_to(ROOT)))
    return found


def test_every_setting_read_from_the_environment_is_declared_and_in_the_guide():
    known = set(declared(runpy.run_path(str(CONFIG_FILE))))
    guide = GUIDE.read_text()
    found = names_in_code()
    assert "PBEM_PORT" in found and "PBEM_WORKERS" in found  # the scan sees them
    missing = {name: where for name, where in found.items() if name not in known}
    assert not missing, f"read from the environment, not in config/settings.py: {missing}"
    unlisted = [name for name in found if f"| `{name}` |" not in guide]
    assert not unlisted, f"not in {GUIDE.relative_to(ROOT)}: {unlisted}"


def test_the_guide_is_written_from_config_settings():
    assert GUIDE.read_text() == settings_guide.markdown(), (
        "docs/operators/settings.md is stale: "
        "python -m server.settings_guide > docs/operators/settings.md"
    )


def test_the_guide_gives_each_setting_its_default_and_meaning():
    rows = {name: (default, meaning) for name, _, default, meaning in _rows()}
    assert rows["PBEM_PORT"][0] == "5000" and "pbem serve" in rows["PBEM_PORT"][1]
    assert rows["READY_SENDER_MAX_AGE"][1] == rows["READY_SCHEDULER_MAX_AGE"][1] != ""
    assert all(meaning for _, meaning in rows.values()), [
        name for name, (_, meaning) in rows.items() if not meaning
    ]


def _rows():
    return settings_guide.settings_with_comments(CONFIG_FILE.read_text())

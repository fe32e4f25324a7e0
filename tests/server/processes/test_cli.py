"""The ``pbem`` command as an operator meets it.
``--help`` and ``--version`` write nothing; a command that needs the
database says in one line that it is missing or not migrated, and creates
nothing; ``--env-file`` reads the file systemd reads, and refuses the lines
the two would read differently (server/envfile.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.version import Version
from playhouse.migrations import Runner

from server import envfile
from server.db import make_database
from server.settings import MIGRATIONS

ROOT = Path(__file__).resolve().parents[3]
PBEM = Path(sys.executable).with_name("pbem")


def run(folder: Path, *args, **env):
    environ = dict(
        os.environ,
        HOME=str(folder / "home"),
        PBEM_INSTANCE=str(folder / "instance"),
        DATABASE_URL=f"sqlite:///{folder / 'site.sqlite3'}",
    )
    for name, value in env.items():  # None: not set at all
        environ.pop(name) if value is None else environ.__setitem__(name, value)
    for name in ("SECRET_KEY", "PYTHONPATH"):
        environ.pop(name, None)
    (folder / "home").mkdir(exist_ok=True)
    return subprocess.run(
        [str(PBEM), *args], cwd=folder, env=environ, capture_output=True, text=True, timeout=120
    )


def files_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.name != "home")


def test_help_and_version_write_no_file(tmp_path):
    shown = run(tmp_path, "--help")
    assert shown.returncode == 0, shown.stderr
    for command in (
        "make-moderator",
        "migrate",
        "deploy-files",
        "web",
        "scheduler",
        "sender",
        "receiver",
        "imap-poller",
    ):
        assert f"  {command} " in shown.stdout
    assert "  pbem " not in shown.stdout  # no "pbem pbem make-moderator"
    version = run(tmp_path, "--version")
    # The version setuptools-scm made from git at install time, as
    # the installed package's metadata says (read outside the source tree,
    # where a build may have left a pbem.egg-info of another version).
    installed = subprocess.run(
        [sys.executable, "-c", "from importlib.metadata import version; print(version('pbem'))"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert version.returncode == 0 and version.stdout.strip() == f"pbem {installed}"
    assert Version(installed) > Version("0")
    assert run(tmp_path, "make-moderator", "--help").returncode == 0
    assert files_in(tmp_path) == []


def test_a_missing_database_is_named_not_created(tmp_path):
    refused = run(tmp_path, "make-moderator", "ann@example.org")
    assert refused.returncode == 1
    assert "Traceback" not in refused.stderr
    assert refused.stderr.strip().endswith("run `pbem migrate` first")
    assert str(tmp_path / "site.sqlite3") in refused.stderr
    assert not (tmp_path / "site.sqlite3").exists()
    for process in ("scheduler", "sender", "web"):
        assert "run `pbem migrate` first" in run(tmp_path, process).stderr, process
    assert not (tmp_path / "site.sqlite3").exists()


def test_a_database_without_every_migration_is_named(tmp_path):
    database = make_database(f"sqlite:///{tmp_path / 'site.sqlite3'}")
    with database.connection_context():
        runner = Runner(database, str(MIGRATIONS))
        runner.up(target=runner.migrations()[-2].name)  # all but the newest
    refused = run(tmp_path, "make-moderator", "ann@example.org")
    assert refused.returncode == 1 and "lacks 1 migration(s)" in refused.stderr
    done = run(tmp_path, "migrate")
    assert done.returncode == 0 and "database is up to date" in done.stdout
    missing = run(tmp_path, "make-moderator", "ann@example.org")
    assert missing.returncode != 0 and "ann@example.org" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_an_unreachable_database_is_named_without_its_password(tmp_path):
    refused = run(
        tmp_path,
        "make-moderator",
        "ann@example.org",
        DATABASE_URL="postgresql://pbem:s3cret@127.0.0.1:1/pbem",
    )
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "cannot use the database postgresql://pbem:***@127.0.0.1:1/pbem" in refused.stderr
    assert "s3cret" not in refused.stderr


def test_env_file_gives_the_settings_and_the_environment_wins(tmp_path):
    settings = tmp_path / "env"
    settings.write_text(
        f"# a comment\n; another\n\nDATABASE_URL = sqlite:///{tmp_path}/f.db\n"
        "MAIL_FROM=pbem <pbem@example.org>\n"
    )
    assert run(tmp_path, "--env-file", str(settings), "migrate", DATABASE_URL=None).returncode == 0
    assert (tmp_path / "f.db").exists() and not (tmp_path / "site.sqlite3").exists()
    settings.write_text(f"DATABASE_URL=sqlite:///{tmp_path}/g.db\n")
    os.remove(tmp_path / "f.db")
    environ = {"DATABASE_URL": f"sqlite:///{tmp_path}/f.db"}
    assert run(tmp_path, "-e", str(settings), "migrate", **environ).returncode == 0
    assert (tmp_path / "f.db").exists() and not (tmp_path / "g.db").exists()


@pytest.mark.parametrize(
    "line, problem",
    [
        ('SECRET_KEY="abc"', "quote"),
        ("SECRET_KEY='abc'", "quote"),
        ("SMTP_PASSWORD=a\\b", "backslash"),
        ("export LOG_LEVEL=INFO", "not NAME=value"),
        ("LOG_LEVEL", "not NAME=value"),
        ("1NAME=x", "not NAME=value"),
    ],
)
def test_env_file_refuses_lines_systemd_reads_otherwise(tmp_path, line, problem):
    settings = tmp_path / "env"
    settings.write_text(f"LOG_LEVEL=INFO\n{line}\n")
    with pytest.raises(envfile.EnvFileError, match=f"line 2: [^:]*{problem}"):
        envfile.read(settings)
    refused = run(tmp_path, "--env-file", str(settings), "migrate")
    assert refused.returncode == 2 and "line 2" in refused.stderr
    assert "Traceback" not in refused.stderr and not (tmp_path / "site.sqlite3").exists()


def test_the_shipped_env_file_reads_as_systemd_would():
    values = envfile.read(ROOT / "deploy" / "env.example")
    assert values["PUBLIC_BASE_URL"] == "https://pbem.example.org"
    assert values["PBEM_INSTANCE"] == "/var/lib/pbem/instance"


def test_deploy_files_writes_every_shipped_file_and_never_over_one(tmp_path):
    done = run(tmp_path, "deploy-files", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    postfix = ["pbem-postfix-main.cf", "pbem-postfix-master.cf"]
    postfix += ["pbem-postfix-recipients", "pbem-postfix-transport"]
    postfix += ["pbem-exim-main", "pbem-exim-rcpt-acl", "pbem-exim-router", "pbem-exim-transport"]
    assert written == sorted([p.name for p in (ROOT / "deploy").iterdir()] + postfix)
    assert {
        "pbem-web.service",
        "pbem-scheduler@.service",
        "pbem-sender@.service",
        "pbem-receiver.service",
        "pbem-imap-poller.service",
        "pbem-nginx.conf",
        "env.example",
    } <= set(written)
    (tmp_path / "out" / "env.example").write_text("mine")
    again = run(tmp_path, "deploy-files", str(tmp_path / "out"))
    assert again.returncode == 1 and "exists already" in again.stderr
    assert (tmp_path / "out" / "env.example").read_text() == "mine"

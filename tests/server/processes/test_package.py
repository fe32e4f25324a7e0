"""Promised to operators: "A package that installs and runs anywhere: the wheel carries
everything it needs; a ``pbem`` command (serve, migrate, make-moderator,
scheduler, sender, …)".  The wheel is built from this checkout, installed
into a fresh virtual environment, and run from a folder outside the tree."""

from __future__ import annotations

import configparser
import os
import re
import socket
import subprocess
import sys
import sysconfig
import tarfile
import time
import tomllib
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = ROOT / "deploy"


@pytest.fixture(scope="module")
def installed(tmp_path_factory, release):
    """A fresh venv with only the release's wheel installed; the dependencies
    come from this test run's environment through a path entry (no download)."""
    _, wheel = release
    env_dir = install_without_dependencies(tmp_path_factory.mktemp("wheel") / "venv", wheel)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    return env_dir, names


def install_without_dependencies(env_dir: Path, package: Path) -> Path:
    """A venv at ``env_dir`` with ``package`` installed, seeing this run's
    dependencies through a .pth file."""
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # This run's pip installs into that venv (--python): no pip inside it.
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            str(package),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    Path(site, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return env_dir


def run_pbem(env_dir: Path, cwd: Path, *args, **kw):
    env = dict(
        os.environ,
        PBEM_INSTANCE=str(cwd / "instance"),
        DATABASE_URL=f"sqlite:///{cwd / 'site.sqlite3'}",
    )
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [str(env_dir / "bin" / "pbem"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        **kw,
    )


def test_the_wheel_carries_templates_mail_templates_migrations_and_settings(installed):
    _, names = installed
    for wanted in (
        "server/web/templates/base.html",
        "server/web/static/pbem.css",
        "server/_mail_templates/turn.txt",
        "server/_mail_templates/turn.html",
        "server/_migrations/0001_initial.py",
        "server/_config/settings.py",
        "server/_config/gunicorn.conf.py",
        "server/_deploy/pbem-web.service",
        "server/_deploy/pbem-nginx.conf",
        "server/_deploy/env.example",
        *(f"server/translations/{lang}/LC_MESSAGES/messages.mo" for lang in ("nl", "de", "fr")),
        # A game's words travel with the game, in its own domain.
        *(
            f"engine/{game}/translations/{lang}/LC_MESSAGES/{game}.mo"
            for game in ("puerto_rico", "new_found_land")
            for lang in ("nl", "de", "fr")
        ),
    ):
        assert wanted in names, wanted
    assert any(n.endswith("entry_points.txt") for n in names)
    assert any(n.endswith("licenses/LICENSE") for n in names)


def test_pbem_migrates_and_serves_from_outside_the_source_tree(installed, tmp_path):
    env_dir, _ = installed
    done = run_pbem(env_dir, tmp_path, "migrate")
    assert done.returncode == 0, done.stderr
    assert "database is up to date" in done.stdout
    assert (tmp_path / "site.sqlite3").exists()
    help_text = run_pbem(env_dir, tmp_path, "--help").stdout
    for command in (
        "serve",
        "web",
        "scheduler",
        "sender",
        "receiver",
        "imap-poller",
        "make-moderator",
        "migrate",
    ):
        assert re.search(rf"^\s+{command}\s", help_text, re.M), command
    refused = run_pbem(env_dir, tmp_path, "make-moderator", "nobody@example.org")
    assert refused.returncode != 0 and "nobody@example.org" in refused.stderr

    env = dict(
        os.environ,
        PBEM_INSTANCE=str(tmp_path / "instance"),
        PBEM_WORKERS="1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
    )
    env.pop("PYTHONPATH", None)
    proc = subprocess.Popen(
        [str(env_dir / "bin" / "pbem"), "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            found = re.search(r"Open:\s+(http://\S+)", line)
            url = found.group(1) if found else None
        assert url, "pbem serve printed no address"
        page = None
        while page is None and time.monotonic() < deadline:
            try:
                page = urllib.request.urlopen(url, timeout=5).read().decode()
            except OSError:
                time.sleep(0.3)
        assert page and "pbem" in page
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_systemd_units_run_pbem_subcommands_that_exist(installed):
    """The unit files in deploy/ start commands the package has."""
    env_dir, _ = installed
    help_text = subprocess.run(
        [str(env_dir / "bin" / "pbem"), "--help"], capture_output=True, text=True, timeout=60
    ).stdout
    units = sorted(DEPLOY.glob("*.service"))
    assert {u.name for u in units} >= {
        "pbem-web.service",
        "pbem-sender@.service",
        "pbem-scheduler@.service",
    }
    for unit in units:
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.read(unit)
        command = parser["Service"]["ExecStart"].split()
        assert command[0].endswith("/pbem"), unit.name
        assert re.search(rf"^\s+{command[1]}\s", help_text, re.M), (unit.name, command[1])
        assert parser["Service"]["Restart"] in ("always", "on-failure")


def test_pbem_web_serves_pages_with_the_shipped_gunicorn_config(installed, tmp_path):
    env_dir, _ = installed
    assert run_pbem(env_dir, tmp_path, "migrate").returncode == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    home = tmp_path / "home"
    home.mkdir()
    env = dict(
        os.environ,
        PBEM_INSTANCE=str(tmp_path / "instance"),
        PBEM_WORKERS="1",
        PBEM_BIND=f"127.0.0.1:{port}",
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        HOME=str(home),
    )
    env.pop("XDG_RUNTIME_DIR", None)
    env.pop("PYTHONPATH", None)
    proc = subprocess.Popen(
        [str(env_dir / "bin" / "pbem"), "web"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        page, deadline = None, time.monotonic() + 60
        while page is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=5)
            except OSError:
                time.sleep(0.3)
        assert page is not None and page.status == 200
        assert "Content-Security-Policy" in page.headers
    finally:
        proc.terminate()
        _, errors = proc.communicate(timeout=30)
    assert "Booting worker" in errors  # gunicorn's own log, on stderr
    # gunicorn 25.1+ would open a control socket in ~/.gunicorn/.
    assert list(home.iterdir()) == []


def test_help_and_version_of_the_installed_command_write_nothing(installed, tmp_path):
    """Installed, the instance folder defaults to ./instance; --help used to
    write ./instance/secret_key into whatever folder it ran in."""
    env_dir, _ = installed
    env = dict(os.environ, HOME=str(tmp_path))
    for name in ("PYTHONPATH", "PBEM_INSTANCE", "DATABASE_URL", "SECRET_KEY"):
        env.pop(name, None)
    for args in (["--help"], ["--version"], ["make-moderator", "--help"]):
        done = subprocess.run(
            [str(env_dir / "bin" / "pbem"), *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_sdist_carries_the_deploy_files_and_the_constraints(release):
    sdist, _ = release
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    shipped = {f"deploy/{path.name}" for path in DEPLOY.iterdir()}
    assert shipped <= names and "constraints.txt" in names and "pyproject.toml" in names
    assert "setup.py" not in names


def test_every_package_folder_is_in_pyproject():
    """pyproject.toml lists the packages (setuptools cannot find the mapped
    folders itself): a new package folder must be added there."""
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for top in ("engine", "server")
        for path in (ROOT / top).rglob("__init__.py")
    }
    assert (
        found | {"server._config", "server._deploy", "server._mail_templates", "server._migrations"}
        == listed
    )


def test_constraints_pin_every_dependency_within_its_range():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = Version(version)
    wanted = project["dependencies"] + project["optional-dependencies"]["test"]
    for text in wanted:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"constraints.txt pins no version of {name}"
        assert requirement.specifier.contains(pins[name]), (text, str(pins[name]))
        if name != "tzdata":  # its versions are years (pyproject.toml says why)
            assert any(spec.operator == "<" for spec in requirement.specifier), text


def test_every_imported_package_is_a_declared_dependency():
    """What server/, engine/ and config/ import is declared in pyproject.toml,
    not merely there because another package pulled it in (babel, click,
    werkzeug were); zoneinfo needs tzdata where the system has no zones."""
    import ast
    from importlib.metadata import packages_distributions

    declared = {
        canonicalize_name(Requirement(text).name)
        for text in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    }
    providers = packages_distributions()
    imported = set()
    for top in ("server", "engine", "config"):
        for path in (ROOT / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    imported.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    imported.add(node.module.split(".")[0])
    third_party = imported - set(sys.stdlib_module_names) - {"server", "engine"}
    missing = {
        module: providers.get(module)
        for module in third_party
        if not {canonicalize_name(d) for d in providers.get(module, [])} & declared
    }
    assert missing == {}
    assert "zoneinfo" not in imported or "tzdata" in declared

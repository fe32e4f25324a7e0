"""A deploy a newcomer can follow on a fresh Debian server.

The commands of the operator's guide's "From an empty Debian server to a
site over https" (docs/operators/deploy.md) run here, as written and in
order, in one bash, as root would run them, with every absolute path moved into a temporary root folder.  What
needs the real machine is checked instead, by shell functions of the same
name: apt-get (the Debian packages exist), adduser, runuser for postgres
(the database is the test's PostgreSQL schema), certbot (a self-signed
certificate where certbot puts its), systemctl (the units exist), nginx -t
(the real nginx tests the site with that certificate), and the editor step
(the test's machine values).  Then systemd-analyze verifies the installed
units and rates their exposure, and the services' commands start with the
environment file as systemd reads it."""

from __future__ import annotations

import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import free_port

from server import envfile

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "docs" / "operators" / "deploy.md"
PART = "## From an empty Debian server"
EXPOSURE_AT_MOST = 4.0
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")

# Stand-ins for what needs the real machine; $ROOT, $WORK and $PYTHON come
# from the test.
SHIMS = r"""
set -euo pipefail
log() { echo "$*" >> "$WORK/commands.log"; }
apt-get() {
    log apt-get "$@"
    local p
    for p in "$@"; do
        case "$p" in -*|install) ;;
        *) apt-cache show "$p" >/dev/null 2>&1 || { echo "no Debian package $p" >&2; return 1; } ;;
        esac
    done
}
adduser() { log adduser "$@"; mkdir -p "$ROOT/var/lib/pbem"; }
runuser() {
    [ "$1" = -u ] && [ "$3" = -- ] || { echo "runuser $*: not -u USER -- COMMAND" >&2; return 1; }
    local user=$2; shift 3
    log "as $user:" "$@"
    if [ "$user" = postgres ]; then
        case "$1" in psql|createdb) return 0 ;; *) echo "postgres runs $1?" >&2; return 1 ;; esac
    fi
    "$@"
}
install() {      # no user or group pbem here: the rest of install is real
    local args=()
    while [ $# -gt 0 ]; do case "$1" in -o|-g) shift 2 ;; *) args+=("$1"); shift ;; esac; done
    command install "${args[@]}"
}
editor() { log editor "$@"; "$PYTHON" "$WORK/edit_env.py" "$1"; }
systemctl() {
    log systemctl "$@"
    case "$1" in
    daemon-reload) ;;
    reload|restart) [ "$2" = nginx ] ;;
    enable) shift; [ "$1" = --now ] && shift; printf '%s\n' "$@" >> "$WORK/enabled" ;;
    *) echo "systemctl $1?" >&2; return 1 ;;
    esac
}
certbot() {
    log certbot "$@"
    local site="" prev=""
    for a in "$@"; do [ "$prev" = -d ] && site=$a; prev=$a; done
    [ "$1" = certonly ] && [ -n "$site" ]
    mkdir -p "$ROOT/etc/letsencrypt/live/$site"
    openssl req -x509 -newkey rsa:2048 -nodes -subj "/CN=$site" -days 1 \
        -keyout "$ROOT/etc/letsencrypt/live/$site/privkey.pem" \
        -out "$ROOT/etc/letsencrypt/live/$site/fullchain.pem" 2>/dev/null
}
nginx() {
    log nginx "$@"
    [ "$1" = -t ]
    mkdir -p "$WORK/nginx"
    local site
    for site in "$ROOT"/etc/nginx/sites-enabled/*; do
        sed "s|/etc/letsencrypt/|$ROOT/etc/letsencrypt/|g" "$site" > "$WORK/nginx/$(basename "$site").conf"
    done
    printf 'user root;\npid %s/nginx.pid;\nerror_log %s/error.log;\nevents {}\nhttp { include %s/*.conf; }\n' \
        "$WORK/nginx" "$WORK/nginx" "$WORK/nginx" > "$WORK/nginx.conf"
    command nginx -q -t -p "$WORK/nginx" -c "$WORK/nginx.conf"
}
"""
# Python for the editor step: what an operator types, the test's values.
EDITOR = """
import sys
from pathlib import Path
path = Path(sys.argv[1])
# What the steps before must have filled in: the password, the key.
assert "CHANGE-ME" not in path.read_text(), "a CHANGE-ME is left in " + str(path)
values = {VALUES!r}
lines = path.read_text().splitlines()
names = [line.partition("=")[0] for line in lines]
lines = [f"{{n}}={{values.pop(n)}}" if n in values else line for n, line in zip(names, lines)]
path.write_text("\\n".join(lines + [f"{{n}}={{v}}" for n, v in values.items()]) + "\\n")
"""
ABSOLUTE = re.compile(r"(?<![\w$/.-])/(etc|opt|var|root)/")


def steps() -> list[tuple[int, str]]:
    """(step number, commands) of every command block in the guide's part,
    in order."""
    text = GUIDE.read_text()
    part = text[text.index(PART) :]
    end = part.find("\n## ")
    part = part if end < 0 else part[:end]
    found, number, block = [], None, []
    for line in part.splitlines() + [""]:
        if line.startswith("       ") and line.strip():
            block.append(line[7:])
            continue
        if block:
            found.append((number, "\n".join(block)))
            block = []
        heading = re.match(r"(\d+)\. ", line)
        number = int(heading.group(1)) if heading else number
    return found


def script(found, hooks: dict) -> str:
    """The guide's blocks as one bash script; a hook keyed (step, block)
    runs before that block of that step (blocks counted from 1)."""
    parts, hooks, seen = [SHIMS], dict(hooks), {}
    for number, commands in found:
        seen[number] = seen.get(number, 0) + 1
        parts.append(hooks.pop((number, seen[number]), ""))
        parts.append(f'echo "== step {number}" >> "$WORK/commands.log"')
        parts.append(ABSOLUTE.sub(lambda m: f"$ROOT/{m.group(1)}/", commands))
    parts.append(hooks.get("end", ""))
    return "\n".join(parts) + "\n"


def analyzable_root(root: Path) -> None:
    """systemd-analyze verify --root needs the system's own units and the
    commands the units name inside the root."""
    shutil.copytree(
        "/usr/lib/systemd/system",
        root / "usr/lib/systemd/system",
        symlinks=True,
        dirs_exist_ok=True,
    )
    (root / "usr/bin").mkdir(parents=True, exist_ok=True)
    shutil.copy2(shutil.which("kill") or "/usr/bin/kill", root / "usr/bin/kill")
    if not (root / "bin").exists():
        (root / "bin").symlink_to("usr/bin")


def exposure(unit: Path) -> float:
    shown = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return float(re.search(r"Overall exposure level for \S+: ([\d.]+)", shown.stdout).group(1))


@pytest.fixture
def walked(tmp_path, release, pg_url, smtp):
    """The guide's steps, run; (root, work folder, the log of commands)."""
    sdist, _ = release
    root, work = tmp_path / "root", tmp_path / "work"
    root.mkdir()
    work.mkdir()
    (root / "etc/nginx/sites-available").mkdir(parents=True)
    (root / "etc/nginx/sites-enabled").mkdir(parents=True)
    (root / "etc/nginx/sites-enabled/default").write_text("# Debian's default site\n")
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(sdist, work / sdist.name)
    shutil.copy(ROOT / "constraints.txt", work)
    web_port = free_port()
    values = {
        "DATABASE_URL": pg_url,
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(smtp.port),
        "PBEM_INSTANCE": str(root / "var/lib/pbem/instance"),
        "RATELIMIT_STORAGE_URI": "memory://",
        "PBEM_BIND": f"127.0.0.1:{web_port}",
        "PBEM_WORKERS": "1",
        "PBEM_ACCESS_LOG": "/dev/null",
    }
    (work / "edit_env.py").write_text(EDITOR.format(VALUES=values))
    deps = sysconfig.get_paths()["purelib"]
    hooks = {
        # The package's dependencies come from this test run (no download):
        # pip installs the release alone (PIP_NO_DEPS), a path entry the rest;
        # before step 3's second block, whose mypy needs its own dependencies.
        (
            3,
            2,
        ): f'printf "%s\\n" {deps!r} > "$(echo "$ROOT"/opt/pbem/lib/python3*/site-packages)/deps.pth"',
        # Someone signed up and confirmed before step 8.
        (8, 1): f'"$PYTHON" -c {make_user_code(pg_url)!r} "$ADMIN"',
        "end": 'declare -p SITE ADMIN DBPASS > "$WORK/variables"',
    }
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(work),
        "LANG": "C.UTF-8",
        "ROOT": str(root),
        "WORK": str(work),
        "PYTHON": sys.executable,
        "PIP_NO_DEPS": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        # This machine's package index (the real server uses PyPI).
        **{k: v for k, v in os.environ.items() if k.startswith("PIP_") and k != "PIP_NO_DEPS"},
    }
    done = subprocess.run(
        ["bash", "-c", script(steps(), hooks)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    log = (work / "commands.log").read_text() if (work / "commands.log").exists() else ""
    assert done.returncode == 0, f"{done.stderr[-3000:]}\n{log[-2000:]}"
    return root, work, log, values


def make_user_code(url: str) -> str:
    return (
        "import sys; from server.db import bind, make_database; "
        f"bind(make_database({url!r})); from server.models import User, utcnow; "
        "User.create(email=sys.argv[1], name='You', email_verified_at=utcnow(), "
        "password_hash='x')"
    )


def test_the_readme_steps_cover_the_whole_deployment():
    found = steps()
    assert [n for n, _ in found] == sorted(n for n, _ in found)
    text = "\n".join(commands for _, commands in found)
    assert "sudo" not in text and "flask" not in text and "xargs" not in text
    for needed in (
        "apt-get install",
        "adduser",
        "pbem deploy-files",
        "/etc/pbem/env",
        "pbem --env-file /etc/pbem/env migrate",
        "systemctl enable --now",
        "certbot",
        "nginx -t",
        "make-moderator",
    ):
        assert needed in text, needed


@pytest.mark.postgres
def test_a_newcomer_follows_the_readme_on_a_fresh_debian_server(walked):
    if SYSTEMD_ANALYZE is None:
        reason = "systemd-analyze is missing: scripts/test.sh installs Debian's systemd package"
        pytest.fail(reason) if os.environ.get("CI") else pytest.skip(reason)
    root, work, log, values = walked
    assert "as pbem: " + str(root / "opt/pbem/bin/pbem") + " --env-file" in log
    variables = (work / "variables").read_text()
    settings = envfile.read(root / "etc/pbem/env")
    assert stat.S_IMODE((root / "etc/pbem/env").stat().st_mode) == 0o640
    assert stat.S_IMODE((root / "etc/pbem").stat().st_mode) == 0o750
    assert "CHANGE-ME" not in (root / "etc/pbem/env").read_text()
    assert re.fullmatch(r"[0-9a-f]{64}", settings["SECRET_KEY"])
    site = re.search(r'SITE="([^"]+)"', variables).group(1)
    assert settings["PUBLIC_BASE_URL"] == f"https://{site}"
    assert settings["PROXY_FIX_X_FOR"] == settings["PROXY_FIX_X_PROTO"] == "1"
    assert not (root / "etc/nginx/sites-enabled/default").exists()
    assert (root / "etc/nginx/sites-enabled/pbem").resolve() == (
        root / "etc/nginx/sites-available/pbem"
    )
    assert f"server_name {site};" in (root / "etc/nginx/sites-available/pbem").read_text()

    enabled = (work / "enabled").read_text().split()
    assert {"pbem-web", "pbem-scheduler@1", "pbem-sender@1"} <= set(enabled)
    analyzable_root(root)
    units = sorted((root / "etc/systemd/system").glob("pbem-*.service"))
    assert {u.name for u in units} == {
        "pbem-web.service",
        "pbem-scheduler@.service",
        "pbem-sender@.service",
        "pbem-receiver.service",
        "pbem-imap-poller.service",
    }
    names = [f"/etc/systemd/system/{u.name.replace('@.', '@1.')}" for u in units]
    verified = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", f"--root={root}", *names],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verified.returncode == 0 and verified.stderr == "" and verified.stdout == "", (
        verified.stdout + verified.stderr
    )
    for unit in units:
        text = unit.read_text()
        assert "After=network-online.target postgresql.service redis-server.service" in text
        assert exposure(unit) <= EXPOSURE_AT_MOST, unit.name
        # One metrics folder for every process, so /metrics sees the
        # scheduler's sweeps and the receiver's moves too.
        assert "Environment=PROMETHEUS_MULTIPROC_DIR=/run/pbem/metrics" in text, unit.name
        assert "RuntimeDirectory=pbem/metrics" in text, unit.name
    started_as_systemd_would(root, enabled, settings, values)


def started_as_systemd_would(root: Path, enabled: list, settings: dict, values: dict) -> None:
    """Each enabled unit's ExecStart, with only the environment file's
    settings (systemd passes no other), keeps running; the pages answer."""
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **settings}
    procs = []
    try:
        for name in enabled:
            unit = root / "etc/systemd/system" / (re.sub(r"@\w+$", "@", name) + ".service")
            text = unit.read_text()
            command = re.search(r"^ExecStart=(.*)$", text, re.M).group(1).split()
            command[0] = str(root) + command[0]
            procs.append(
                (
                    name,
                    subprocess.Popen(
                        command,
                        env=env,
                        cwd=root / "var/lib/pbem",
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE,
                        text=True,
                    ),
                )
            )
        url = f"http://{values['PBEM_BIND']}/login"
        deadline, page = time.monotonic() + 60, None
        while page is None and time.monotonic() < deadline:
            try:
                page = urllib.request.urlopen(url, timeout=5)
            except OSError:
                time.sleep(0.3)
        assert page is not None and page.status == 200
        time.sleep(1)
        for name, proc in procs:
            assert proc.poll() is None, (name, proc.stderr.read()[-2000:])
    finally:
        for _, proc in procs:
            proc.terminate()
        for _, proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
            proc.stderr.close()
    host, port = values["PBEM_BIND"].rsplit(":", 1)
    with socket.socket() as probe:  # nothing left on the port
        assert probe.connect_ex((host, int(port))) != 0

"""pbem as the operator's guide's Deploy page (docs/operators/deploy.md) runs
it, on this machine: Debian's nginx (a child process, its prefix in a
temporary folder) with the shipped deploy/pbem-nginx.conf and a certificate
made with openssl, in front of the real ``pbem web`` (gunicorn) and ``pbem
sender`` processes, whose settings are deploy/env.example's with only the
machine-specific values changed."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

from conftest import free_port

from server import envfile

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PBEM = Path(sys.executable).with_name("pbem")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SITE_NAME = "pbem.example.org"
# The site file's values for a real server, and what this machine uses.
# Each must be in the shipped file exactly once (or, for the name, at all):
# a change there that the test no longer follows fails here.
SITE_EDITS = (
    ("listen 80;", "listen 127.0.0.1:{http_port};"),
    ("listen [::]:80;", ""),
    ("listen 443 ssl;", "listen 127.0.0.1:{https_port} ssl;"),
    ("listen [::]:443 ssl;", ""),
    ("/etc/letsencrypt/live/pbem.example.org/fullchain.pem", "{folder}/cert.pem"),
    ("/etc/letsencrypt/live/pbem.example.org/privkey.pem", "{folder}/key.pem"),
    ("proxy_pass http://127.0.0.1:8000;", "proxy_pass http://127.0.0.1:{web_port};"),
)
# Settings of env.example that name the real server; everything else
# (PROXY_FIX_* above all) is used as shipped.
MACHINE_SETTINGS = (
    "DATABASE_URL",
    "SECRET_KEY",
    "PUBLIC_BASE_URL",
    "PBEM_INSTANCE",
    "SMTP_HOST",
    "SMTP_PORT",
    "RATELIMIT_STORAGE_URI",
    "PBEM_BIND",
)


def site_config(folder: Path, **ports) -> str:
    text = (DEPLOY / "pbem-nginx.conf").read_text()
    for shipped, here in SITE_EDITS:
        assert text.count(shipped) == 1, f"deploy/pbem-nginx.conf: {shipped!r} not found once"
        text = text.replace(shipped, here.format(folder=folder, **ports))
    assert SITE_NAME in text
    return text.replace(SITE_NAME, "localhost")


def make_certificate(folder: Path) -> None:
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-subj",
            "/CN=localhost",
            "-days",
            "1",
            "-keyout",
            str(folder / "key.pem"),
            "-out",
            str(folder / "cert.pem"),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )


def nginx_config(folder: Path, site: Path) -> str:
    """The main file around the site file: every path inside ``folder``."""
    temp = {
        name: folder / "tmp" / name for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    }
    for path in temp.values():
        path.mkdir(parents=True, exist_ok=True)
    # As root, nginx's workers would become "nobody", which may not enter
    # the test's folders.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
        "events { worker_connections 64; }\n"
        # gzip on, as Debian's /etc/nginx/nginx.conf has it: the site file
        # must hold its own against that (BREACH, server/web/compression.py).
        "http {\n    access_log off;\n    gzip on;\n"
        + "".join(f"    {name}_temp_path {path};\n" for name, path in temp.items())
        + f"    include {site};\n}}\n"
    )


def wait_for_port(port: int, proc: subprocess.Popen, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{what} stopped with status {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{what} did not listen on {port} within {seconds} s")


def shipped_environment(
    folder: Path, smtp_port: int, https_port: int, web_port: int, **extra
) -> dict:
    """deploy/env.example as pbem --env-file reads it, with this machine's values."""
    shipped = envfile.read(DEPLOY / "env.example")
    assert set(MACHINE_SETTINGS) <= set(shipped)
    env = dict(os.environ, **shipped)
    env.pop("PYTHONPATH", None)
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'pbem.sqlite3'}",
        SECRET_KEY="https-test-key",
        PUBLIC_BASE_URL=f"https://localhost:{https_port}",
        PBEM_INSTANCE=str(folder / "instance"),
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(smtp_port),
        RATELIMIT_STORAGE_URI="memory://",
        PBEM_BIND=f"127.0.0.1:{web_port}",
        PBEM_WORKERS="1",
        SENDER_INTERVAL="0.2",
        PBEM_ACCESS_LOG="/dev/null",
        LOG_LEVEL="WARNING",
        **extra,
    )
    return env


def start(stack: ExitStack, command: list, env: dict, log: Path) -> subprocess.Popen:
    out = stack.enter_context(open(log, "w"))
    proc = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)

    def stop():
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    stack.callback(stop)
    return proc


@contextmanager
def https_site(folder: Path, smtp_port: int, **extra):
    """Yields (base URL, the processes' environment); stops everything after."""
    https_port, http_port, web_port = free_port(), free_port(), free_port()
    env = shipped_environment(folder, smtp_port, https_port, web_port, **extra)
    migrated = subprocess.run(
        [str(PBEM), "migrate"], env=env, capture_output=True, text=True, timeout=120
    )
    assert migrated.returncode == 0, migrated.stderr
    make_certificate(folder)
    site = folder / "pbem-site.conf"
    site.write_text(
        site_config(folder, http_port=http_port, https_port=https_port, web_port=web_port)
    )
    (folder / "nginx.conf").write_text(nginx_config(folder, site))
    with ExitStack() as stack:
        web = start(stack, [str(PBEM), "web"], env, folder / "web.log")
        start(stack, [str(PBEM), "sender"], env, folder / "sender.log")
        nginx = start(
            stack,
            [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
            env,
            folder / "nginx.log",
        )
        wait_for_port(web_port, web, "pbem web")
        wait_for_port(https_port, nginx, "nginx")
        yield f"https://localhost:{https_port}", env

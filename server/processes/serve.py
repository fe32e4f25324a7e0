"""``bash scripts/serve.sh``: every process of the embedded setup under one
parent.  Migrates, starts the mail catcher (unless SMTP_HOST is set), the mail
sender, the reply receiver (when REPLY_DOMAIN is set, as it is with the
catcher), the web server and the scheduler; Ctrl-C stops all."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from server import settings as settings_module
from server.db import make_database, migrate
from server.mail.catcher import free_port

PY = sys.executable


def port_is_free(port: int) -> bool:
    """Whether the web server can listen on ``port``.  SO_REUSEADDR as
    gunicorn binds: the connections of a server stopped a moment ago
    (TIME_WAIT) do not keep the port."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def embedded_environment() -> dict:
    """The environment of the children.  Cookies follow PUBLIC_BASE_URL (plain
    http on loopback: not Secure), so nothing about them is set here."""
    env = dict(os.environ)
    port = settings_module.parse("PBEM_PORT", env.get("PBEM_PORT", "5000"), int)
    workers = settings_module.parse("PBEM_WORKERS", env.get("PBEM_WORKERS") or "0", int)
    env["PBEM_WORKERS"] = str(workers or 2)  # a try-out needs no more
    if not port_is_free(port):
        # Never another port: PUBLIC_BASE_URL, bookmarks and the links in
        # mails already sent name this one.
        raise settings_module.SettingsError(
            f"port {port} on 127.0.0.1 is taken (is pbem running already?); "
            "stop what listens there, or set PBEM_PORT to a free port"
        )
    env["PBEM_PORT"] = str(port)
    env.setdefault("PUBLIC_BASE_URL", f"http://127.0.0.1:{port}")
    # The shipped gunicorn.conf.py logs every request; a try-out needs none,
    # and of the processes' own logs the warnings (LOG_LEVEL=INFO: all).
    env.setdefault("PBEM_ACCESS_LOG", "/dev/null")
    env.setdefault("LOG_LEVEL", "WARNING")
    if "SMTP_HOST" not in env:
        env["SMTP_HOST"], env["SMTP_PORT"] = "127.0.0.1", str(free_port())
        env.setdefault("MAIL_CATCHER_DIR", "caught_mail")
        # Moves by reply: the catcher's Reply form mails the receiver.
        env.setdefault("REPLY_DOMAIN", "reply.localhost")
    if env.get("REPLY_DOMAIN") and "RECEIVER_PORT" not in env:
        env["RECEIVER_PORT"] = str(free_port())
    return env


def commands(env: dict, settings: dict) -> dict[str, list[str]]:
    procs = {}
    if env.get("MAIL_CATCHER_DIR") and "SMTP_HOST" not in os.environ:
        folder = settings_module.instance_file(settings, env["MAIL_CATCHER_DIR"])
        procs["catcher"] = [
            PY,
            "-m",
            "server.processes.catcher",
            "--dir",
            str(folder),
            "--port",
            env["SMTP_PORT"],
        ]
    procs["sender"] = [PY, "-m", "server.processes.sender"]
    if env.get("REPLY_DOMAIN"):
        procs["receiver"] = [PY, "-m", "server.processes.receiver"]
    procs["web"] = [
        PY,
        "-m",
        "gunicorn",
        "-c",
        str(settings_module.GUNICORN_CONFIG),
        "--bind",
        f"127.0.0.1:{env['PBEM_PORT']}",
        "--workers",
        env["PBEM_WORKERS"],
        "--log-level",
        "warning",
        "server.wsgi:app",
    ]
    procs["scheduler"] = [PY, "-m", "server.processes.scheduler"]
    return procs


def main() -> int:
    # A bad setting stops here, before any child starts, with one line.
    with settings_module.exit_on_settings_error():
        env = embedded_environment()
        settings = settings_module.load(env)
    applied = migrate(make_database(settings["DATABASE_URL"], settings))
    if applied:
        print(f"migrations applied: {len(applied)} ({applied[0]} ... {applied[-1]})")
    # The children share this instance folder (SQLite file, secret key).
    env["PBEM_INSTANCE"] = settings["INSTANCE_PATH"]
    cwd = settings_module.ROOT if settings_module.CHECKOUT else None
    children = {
        name: subprocess.Popen(cmd, env=env, cwd=cwd)
        for name, cmd in commands(env, settings).items()
    }
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(1))
    url = env["PUBLIC_BASE_URL"]
    answered = wait_until_answering(
        f"http://127.0.0.1:{env['PBEM_PORT']}/login", children, stopping
    )
    code = 0 if answered or stopping else 1
    if answered:
        # The address comes last, once the page answers: it is what to act on.
        print(f"\npbem is running ({', '.join(children)}).  Press Ctrl-C to stop.")
        if "catcher" in children:
            print(f"  Caught mail: {url}/dev/mail/")
        print(f"  Open:        {url}/\n", flush=True)
    while not stopping and code == 0:
        dead = [n for n, p in children.items() if p.poll() is not None]
        if dead:
            print(f"{', '.join(dead)} stopped; stopping the rest.", file=sys.stderr)
            code = 1
            break
        time.sleep(0.5)
    stop(children)
    return code


def wait_until_answering(url: str, children: dict, stopping: list, seconds: float = 120) -> bool:
    """Whether ``url`` answered before a child died, Ctrl-C or ``seconds``."""
    deadline = time.monotonic() + seconds
    while not stopping and time.monotonic() < deadline:
        dead = [n for n, p in children.items() if p.poll() is not None]
        if dead:
            print(f"{', '.join(dead)} stopped; stopping the rest.", file=sys.stderr)
            return False
        try:
            with urllib.request.urlopen(url, timeout=5):
                return True
        except urllib.error.HTTPError:
            return True  # an answer, if not a page
        except OSError:
            time.sleep(0.2)
    if not stopping:
        print(f"the web server did not answer at {url}; stopping.", file=sys.stderr)
    return False


def stop(children: dict) -> None:
    for proc in children.values():
        if proc.poll() is None:
            proc.terminate()
    deadline = time.time() + 10
    for proc in children.values():
        try:
            proc.wait(timeout=max(deadline - time.time(), 0.1))
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    sys.exit(main())

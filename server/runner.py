"""``bash scripts/serve.sh``: every process of the embedded setup under one
parent.  Migrates, starts the mail catcher (unless SMTP_HOST is set), the mail
sender, the web server and, once it exists, the scheduler; Ctrl-C stops all."""
from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time

from server import settings as settings_module
from server.catcher import free_port
from server.db import make_database, migrate

PY = sys.executable
# The scheduler of the next issue plugs in here: a module with a __main__
# block that runs its own BlockingScheduler.  Started only when it exists.
OPTIONAL = {"scheduler": "server.scheduler"}


def port_is_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def embedded_environment() -> dict:
    env = dict(os.environ)
    port = int(env.get("PBEM_PORT", "5000"))
    if not port_is_free(port):
        port = free_port()
    env["PBEM_PORT"] = str(port)
    env.setdefault("PUBLIC_BASE_URL", f"http://127.0.0.1:{port}")
    # Plain HTTP on loopback: a Secure cookie would never come back.
    env.setdefault("SESSION_COOKIE_SECURE", "0")
    env.setdefault("REMEMBER_COOKIE_SECURE", "0")
    if "SMTP_HOST" not in env:
        env["SMTP_HOST"], env["SMTP_PORT"] = "127.0.0.1", str(free_port())
        env.setdefault("MAIL_CATCHER_DIR", "caught_mail")
    return env


def commands(env: dict, settings: dict) -> dict[str, list[str]]:
    procs = {}
    if env.get("MAIL_CATCHER_DIR") and "SMTP_HOST" not in os.environ:
        folder = settings_module.instance_file(settings, env["MAIL_CATCHER_DIR"])
        procs["catcher"] = [PY, "-m", "server.catcher", "--dir", str(folder),
                            "--port", env["SMTP_PORT"]]
    procs["sender"] = [PY, "-m", "server.sender"]
    procs["web"] = [PY, "-m", "gunicorn", "--bind", f"127.0.0.1:{env['PBEM_PORT']}",
                    "--workers", env.get("PBEM_WORKERS", "2"), "--log-level", "warning",
                    "wsgi:app"]
    for name, module in OPTIONAL.items():
        if importlib.util.find_spec(module) is not None:
            procs[name] = [PY, "-m", module]
    return procs


def main() -> int:
    env = embedded_environment()
    settings = settings_module.load(env)
    for name in migrate(make_database(settings["DATABASE_URL"], settings)):
        print(f"migration applied: {name}")
    children = {name: subprocess.Popen(cmd, env=env, cwd=settings_module.ROOT)
                for name, cmd in commands(env, settings).items()}
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(1))
    time.sleep(1.0)
    url = env["PUBLIC_BASE_URL"]
    print(f"\npbem is running ({', '.join(children)}).\n  Open:        {url}/")
    if "catcher" in children:
        print(f"  Caught mail: {url}/dev/mail/")
    print("Press Ctrl-C to stop.\n", flush=True)
    code = 0
    while not stopping:
        dead = [n for n, p in children.items() if p.poll() is not None]
        if dead:
            print(f"{', '.join(dead)} stopped; stopping the rest.", file=sys.stderr)
            code = 1
            break
        time.sleep(0.5)
    stop(children)
    return code


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

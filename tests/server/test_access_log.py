"""PBEM_ACCESS_LOG names where gunicorn's access log goes, however it is
started, and no line of it carries a token (confirmation links and the like
are masked)."""

from __future__ import annotations

import logging
import logging.config
import runpy
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from conftest import free_port

from server.db import make_database, migrate
from server.processes.serve import commands, embedded_environment

ROOT = Path(__file__).resolve().parents[2]


def test_the_access_log_goes_to_the_named_file_with_tokens_masked(tmp_path, monkeypatch, capsys):
    log = tmp_path / "access.log"
    monkeypatch.setenv("PBEM_ACCESS_LOG", str(log))
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    conf = runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))
    token = "Mg.awsptA.p7IZthcbYam16Z48x_eYWkzGX6A"
    try:
        logging.config.dictConfig(conf["logconfig_dict"])
        logging.getLogger("gunicorn.access").info(
            '%(h)s "%(r)s" %(s)s "%(f)s"',
            {
                "h": "127.0.0.1",
                "r": f"GET /confirm/{token}?next=/games/7 HTTP/1.1",
                "s": "200",
                "f": f"https://example.org/login?link={token}",
            },
        )
        for handler in logging.getLogger("gunicorn.access").handlers:
            handler.flush()
        written = log.read_text()
    finally:
        logging.config.dictConfig({"version": 1, "disable_existing_loggers": False})
    assert "GET /confirm/[token]?next=/games/7" in written, written
    assert token not in written
    assert "GET /confirm" not in capsys.readouterr().err


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        exc.close()
        return exc.code


def test_the_server_as_pbem_serve_runs_it_writes_the_named_access_log_without_tokens(
    sqlite_url, tmp_path, monkeypatch
):
    """A real gunicorn, started the way `pbem serve` starts it (its LOG_LEVEL
    WARNING and --log-level warning included), and real requests."""
    log, port = tmp_path / "access.log", free_port()
    for name, value in {
        "PBEM_ACCESS_LOG": str(log),
        "PBEM_PORT": str(port),
        "DATABASE_URL": sqlite_url,
        "PBEM_INSTANCE": str(tmp_path / "instance"),
        "SECRET_KEY": "test-secret",
        "SMTP_HOST": "127.0.0.1",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("LOG_LEVEL", raising=False)
    env = embedded_environment()
    migrate(make_database(sqlite_url, {}))
    web = subprocess.Popen(
        commands(env, {})["web"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    secrets = {
        "confirm": "Mg.awsptA.p7IZthcbYam16Z48x_eYWkzGX6A",
        "reset": "eyJ1IjoxLCJwIjoiYWJjIn0.aQ2kPw.Zk3bQ9n0xYtF1m2",
        "api": "pbem_Q2l5XzN0a2VuLXNlY3JldC1xdWVyeQ",
        "short": "s3cr3t",
    }
    try:
        for _ in range(200):  # the workers may still be starting
            try:
                get(f"{base}/healthz")
                break
            except OSError:
                time.sleep(0.1)
        get(f"{base}/confirm/{secrets['confirm']}?next=/games/7")
        get(f"{base}/reset/{secrets['reset']}")
        get(f"{base}/api/v1/games?access_token={secrets['api']}")
        get(f"{base}/login?code={secrets['short']}")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "/login" not in read(log):
            time.sleep(0.1)
    finally:
        web.terminate()
        errors = web.communicate(timeout=30)[1].decode()
    written = read(log)
    assert "GET /confirm/[token]?next=/games/7" in written, (written, errors)
    assert "GET /reset/[token]" in written and "access_token=[token]" in written
    assert "GET /login?code=[token]" in written
    for secret in secrets.values():
        assert secret not in written and secret not in errors


def read(path: Path) -> str:
    return path.read_text() if path.exists() else ""

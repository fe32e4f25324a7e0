"""The run command's process tree: migrates, serves, sends mail to the built-in
catcher whose page shows it, and stops everything on Ctrl-C (SIGINT)."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from conftest import free_port

ROOT = Path(__file__).resolve().parents[3]


def wait_for(predicate, timeout=30.0):
    end = time.time() + timeout
    while time.time() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


def test_serve_runs_everything_and_ctrl_c_stops_it(tmp_path):
    port = free_port()
    env = dict(
        os.environ,
        PBEM_INSTANCE=str(tmp_path),
        PBEM_PORT=str(port),
        SENDER_INTERVAL="0.2",
        PBEM_WORKERS="1",
    )
    for name in ("SMTP_HOST", "SMTP_PORT", "MAIL_CATCHER_DIR", "DATABASE_URL", "PUBLIC_BASE_URL"):
        env.pop(name, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.processes.serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        lines = []
        while not any("Open:" in line for line in lines):
            line = proc.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        out = "".join(lines)
        # The address is the last line, printed once the page answers.
        assert lines[-1] == f"  Open:        {base}/\n" and f"{base}/dev/mail/" in out
        assert "Press Ctrl-C" in out
        # Quiet: one line for the migrations, then the address block.
        assert len([line for line in lines if line.strip()]) <= 4, out
        assert urllib.request.urlopen(f"{base}/login", timeout=5).status == 200
        assert (tmp_path / "pbem.sqlite3").exists()

        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        page = wait_for(lambda: fetch(opener, f"{base}/signup"))
        post(
            opener,
            f"{base}/signup",
            page,
            name="Ann",
            email="ann@example.org",
            password="long enough pw",
        )
        confirm = wait_for(lambda: caught_link(opener, base, "ann@example.org", "/confirm/"))
        post(opener, confirm, fetch(opener, confirm))
        page = fetch(opener, f"{base}/games/new")
        lobby = post(
            opener,
            f"{base}/games/new",
            page,
            kind="puerto_rico",
            name="Served",
            seats="3",
            move_hours="24",
            reminder_hours="6",
        )
        game = re.search(r"/games/(\d+)/invite", lobby).group(1)
        post(opener, f"{base}/games/{game}/invite", lobby, emails="bob@example.org")
        assert wait_for(lambda: caught_link(opener, base, "bob@example.org", "/j/"))
    finally:
        # Ctrl-C in a terminal signals the whole foreground process group.
        os.killpg(proc.pid, signal.SIGINT)
        code = proc.wait(timeout=20)
        rest = proc.stdout.read()
        proc.stdout.close()
    assert code == 0, rest
    # Nothing of the process group is left: the web port is closed.
    try:
        urllib.request.urlopen(base, timeout=2)
        raise AssertionError("the web server is still answering")
    except OSError:
        pass  # refused: the web server is gone, as it should be
    assert subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True).stdout == b""


def caught_link(opener, base, email, part) -> str:
    """A link from a mail the built-in catcher shows at /dev/mail/, or ""."""
    inbox = fetch(opener, f"{base}/dev/mail/")
    for row in re.findall(r"<tr>.*?</tr>", inbox, re.S):
        name = re.search(r'href="/dev/mail/([0-9a-f]{32}\.eml)"', row)
        if email in row and name:
            found = re.findall(
                r'https?://[^\s"<]+' + re.escape(part) + r'[^\s"<]+',
                fetch(opener, f"{base}/dev/mail/{name.group(1)}"),
            )
            if found:
                return found[0].replace("&amp;", "&")
    return ""


def fetch(opener, url):
    try:
        with opener.open(url, timeout=5) as resp:
            return resp.read().decode()
    except OSError:
        return ""


def post(opener, url, page, **fields):
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(dict(fields, csrf_token=token)).encode()
    with opener.open(url, data=data, timeout=10) as resp:
        return resp.read().decode()

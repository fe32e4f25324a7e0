"""`pbem serve` on a port something else listens on: an error naming the
port and the setting to change, a non-zero exit, and nothing started on
another port (the links in mails name the one set)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_a_taken_port_is_an_error_that_names_it_and_the_setting(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = dict(
            os.environ,
            PBEM_PORT=str(port),
            PBEM_INSTANCE=str(tmp_path / "instance"),
            DATABASE_URL=f"sqlite:///{tmp_path / 'pbem.sqlite3'}",
            SECRET_KEY="test-secret",
        )
        env.pop("PUBLIC_BASE_URL", None)
        done = subprocess.run(
            [sys.executable, "-m", "server.processes.serve"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode != 0
    said = done.stderr.strip()
    assert f"port {port}" in said and "PBEM_PORT" in said, said
    assert "Traceback" not in said and "pbem is running" not in done.stdout
    assert not (tmp_path / "pbem.sqlite3").exists()  # stopped before anything

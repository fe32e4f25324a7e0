"""A real IMAP server for the poller's tests: Debian's dovecot, run from a
configuration in a temporary folder (no system configuration, no root-owned
files), listening on 127.0.0.1 and a free port, one user with a password."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from conftest import free_port

DOVECOT = "/usr/sbin/dovecot"
USER, PASSWORD = "pbem", "imap-secret"

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{root}/mail/%u
first_valid_uid = 1
default_internal_user = {internal}
default_internal_group = {group}
default_login_user = {login}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service stats {{
  unix_listener stats-reader {{
    user = {internal}
  }}
  unix_listener stats-writer {{
    user = {internal}
  }}
}}
"""


@contextmanager
def dovecot():
    """Yields (host, port, user, password) of a running dovecot."""
    if not Path(DOVECOT).exists():
        raise RuntimeError(f"{DOVECOT} is missing: scripts/test.sh installs dovecot-imapd")
    # Not under pytest's tmp_path: its 0700 parents keep dovecot's own users out.
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-", dir="/tmp"))
    root.chmod(0o755)
    if os.geteuid() == 0:
        # Dovecot refuses to run mail processes as root: they run as nobody,
        # its internal processes as Debian's dovecot users.
        mail_user = pwd.getpwnam("nobody")
        internal, login = "dovecot", "dovenull"
    else:
        mail_user = pwd.getpwuid(os.geteuid())
        internal = login = mail_user.pw_name
    group = grp.getgrgid(pwd.getpwnam(internal).pw_gid).gr_name
    for sub in ("run", "state", "mail", "home"):
        (root / sub).mkdir()
    if os.geteuid() == 0:
        for sub in ("mail", "home"):
            os.chown(root / sub, mail_user.pw_uid, mail_user.pw_gid)
    (root / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    port = free_port()
    (root / "dovecot.conf").write_text(
        CONFIG.format(
            root=root,
            port=port,
            internal=internal,
            login=login,
            uid=mail_user.pw_uid,
            gid=mail_user.pw_gid,
            group=group,
        )
    )
    with open(root / "console.log", "wb") as console:
        proc = subprocess.Popen(
            [DOVECOT, "-F", "-c", str(root / "dovecot.conf")],
            stdout=console,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_port(port, proc, root)
        yield "127.0.0.1", port, USER, PASSWORD
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(root, ignore_errors=True)


def wait_for_port(port: int, proc, root: Path, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            logs = [root / "console.log", root / "dovecot.log"]
            raise RuntimeError(
                "dovecot stopped: " + " ".join(log.read_text() for log in logs if log.exists())
            )
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("dovecot did not listen in time")

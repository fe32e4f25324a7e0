"""The IMAP poller: ``python -m server.processes.imap_poller``.

For a hosted mailbox that receives the replies (a catch-all or plus-address
mailbox for REPLY_DOMAIN) when no mail server can hand them to the receiver.
Every IMAP_INTERVAL seconds it reads the unseen mails of IMAP_FOLDER, hands
each to services/replies.py, then marks it seen and, when IMAP_DONE_FOLDER
is set, moves it there.  A mail is handled in one transaction (its record,
its moves, its answers) and marked only after that committed: a poller that
dies or loses the database before the commit left nothing behind and reads
the mail again at the next poll; one that dies after it reads it again and
finds its Message-ID, so it is played and answered once.  A mail that is
too large or malformed is kept as ignored and marked, never read again and
again.  Use ``--once`` to poll a single time (cron, tests).
"""

from __future__ import annotations

import argparse
import imaplib
import logging
import signal
import ssl
import sys
import time
from email.utils import getaddresses

from imap_tools import (
    AND,
    MailBox,
    MailBoxStartTls,
    MailBoxUnencrypted,
    MailMessageFlags,
)
from imap_tools.errors import ImapToolsError

from server import settings as settings_module
from server.db import bind, make_database
from server.mail.compose import Mailer
from server.processes import faults, logs
from server.processes.backoff import DATABASE_ERRORS, drop_connection, first_line
from server.services import replies

log = logging.getLogger("pbem.imap")
BATCH = 100


def connect(settings):
    host, port, tls = settings["IMAP_HOST"], settings["IMAP_PORT"], settings["IMAP_TLS"].lower()
    if tls == "ssl":
        box = MailBox(host, port, ssl_context=ssl.create_default_context())
    elif tls == "starttls":
        box = MailBoxStartTls(host, port, ssl_context=ssl.create_default_context())
    elif tls == "none":
        box = MailBoxUnencrypted(host, port)
    else:
        raise settings_module.SettingsError(
            f"setting IMAP_TLS={tls!r}: expected ssl, starttls or none"
        )
    return box.login(settings["IMAP_USER"], settings["IMAP_PASSWORD"], settings["IMAP_FOLDER"])


def poll_once(settings, database, mailer: Mailer | None = None) -> dict:
    """Read the unseen mails once; returns counts of handled and failed."""
    mailer = mailer or Mailer(settings)
    counts = {"handled": 0, "failed": 0}
    done_folder = settings["IMAP_DONE_FOLDER"]
    with connect(settings) as box:
        if done_folder and not box.folder.exists(done_folder):
            box.folder.create(done_folder)
        if done_folder:
            # Seen but not moved: handled by a poller that died between the
            # two steps.  They are done; move them on.
            left = [
                m.uid
                for m in box.fetch(AND(seen=True), mark_seen=False, headers_only=True, bulk=True)
            ]
            if left:
                box.move(left, done_folder)
        for msg in box.fetch(AND(seen=False), mark_seen=False, limit=BATCH, bulk=True):
            raw = msg.obj.as_bytes()
            return_path = msg.obj.get("Return-Path")
            envelope_from = None
            if return_path is not None:
                found = [a for _, a in getaddresses([str(return_path)])]
                envelope_from = found[0] if found else ""
            try:
                with database.connection_context():
                    replies.receive(raw, mailer, "imap", envelope_from=envelope_from)
            except DATABASE_ERRORS:
                raise  # the rest waits too: the poller backs off
            except Exception:  # left unseen: tried again at the next poll
                log.exception("imap: could not handle mail uid %s", msg.uid)
                counts["failed"] += 1
                continue
            box.flag(msg.uid, MailMessageFlags.SEEN, True)
            if done_folder:
                box.move(msg.uid, done_folder)
            counts["handled"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description="pbem: read replies from an IMAP mailbox")
    parser.add_argument("--once", action="store_true", help="poll once and exit")
    args = parser.parse_args()
    with settings_module.exit_on_settings_error():
        settings = settings_module.load()
        for name in ("REPLY_DOMAIN", "IMAP_HOST", "IMAP_USER"):
            if not settings[name]:
                raise settings_module.SettingsError(f"{name} is empty: the poller needs it")
        logs.setup(settings)
        database = make_database(settings["DATABASE_URL"], settings)
        bind(database)
        faults.install(database, settings)
    mailer = Mailer(settings)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    log.info(
        "reading %s@%s folder %s every %s s",
        settings["IMAP_USER"],
        settings["IMAP_HOST"],
        settings["IMAP_FOLDER"],
        settings["IMAP_INTERVAL"],
    )
    errors = 0
    while not stop:
        try:
            counts = poll_once(settings, database, mailer)
        except (OSError, imaplib.IMAP4.error, ImapToolsError) as exc:  # try again later
            errors += 1
            log.error("mailbox trouble (%d in a row): %s: %s", errors, exc.__class__.__name__, exc)
        except DATABASE_ERRORS as exc:  # one line a failure, not a traceback
            errors += 1
            log.error(
                "poll failed (%d in a row), database error: %s: %s",
                errors,
                exc.__class__.__name__,
                first_line(exc),
            )
            drop_connection(database, log)
        except Exception:  # noqa: BLE001 - a bug must not end the poller either
            errors += 1
            log.exception("poll failed (%d in a row)", errors)
            drop_connection(database, log)
        else:
            errors = 0
            if counts["handled"] or counts["failed"]:
                log.info("%s", counts)
        if args.once:
            break
        # Back off while it fails: twice the interval per failure, up to 10 minutes.
        wait = min(settings["IMAP_INTERVAL"] * 2 ** min(errors, 8), 600)
        deadline = time.monotonic() + wait
        while not stop and time.monotonic() < deadline:
            time.sleep(min(0.5, max(deadline - time.monotonic(), 0)))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)

"""The outbox sender: delivers queued mails over SMTP, outside any request.

Each due row is claimed with a conditional UPDATE, so two senders never send
the same row at once.  A failure is retried with exponential backoff and the
same Message-ID, so a receiver that got it once can drop the duplicate.
"""
from __future__ import annotations

import datetime as dt
import signal
import smtplib
import ssl
import sys
import time
from email.message import EmailMessage
from email.utils import format_datetime, getaddresses

from server.db import bind, make_database
from server.models import Outbox, utcnow
from server import settings as settings_module

LEASE = dt.timedelta(minutes=5)


def build_message(row: Outbox, mail_from: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = mail_from
    msg["To"] = row.to_addr
    msg["Subject"] = row.subject
    msg["Message-ID"] = row.message_id
    msg["Date"] = format_datetime(row.created_at.replace(tzinfo=dt.timezone.utc))
    if row.in_reply_to:
        msg["In-Reply-To"] = row.in_reply_to
        msg["References"] = row.references
    # Tells vacation responders not to answer the server.
    msg["Auto-Submitted"] = "auto-generated"
    for name, value in (row.headers or {}).items():
        msg[name] = value
    msg.set_content(row.body_text)
    msg.add_alternative(row.body_html, subtype="html")
    return msg


def backoff(settings, attempts: int) -> dt.timedelta:
    seconds = settings["SENDER_RETRY_BASE"] * 2 ** max(attempts - 1, 0)
    return dt.timedelta(seconds=min(seconds, settings["SENDER_RETRY_MAX"]))


def claim_due(settings, now: dt.datetime) -> list[Outbox]:
    candidates = (Outbox.select(Outbox.id)
                  .where((Outbox.status == "pending") & (Outbox.next_attempt_at <= now)
                         & (Outbox.claimed_until.is_null() | (Outbox.claimed_until < now)))
                  .order_by(Outbox.id)
                  .limit(settings["SENDER_BATCH"]))
    claimed = []
    for row in list(candidates):
        won = (Outbox.update(claimed_until=now + LEASE)
               .where((Outbox.id == row.id) & (Outbox.status == "pending")
                      & (Outbox.claimed_until.is_null() | (Outbox.claimed_until < now)))
               .execute())
        if won == 1:
            claimed.append(Outbox.get_by_id(row.id))
    return claimed


class Connection:
    """One SMTP session per drain, opened on first use."""

    def __init__(self, settings):
        self.settings = settings
        self.smtp = None

    def send(self, msg: EmailMessage, to_addr: str) -> None:
        if self.smtp is None:
            self.smtp = self._open()
        from_addr = getaddresses([self.settings["MAIL_FROM"]])[0][1]
        self.smtp.send_message(msg, from_addr=from_addr, to_addrs=[to_addr])

    def _open(self):
        s = self.settings
        timeout = s["SMTP_TIMEOUT"]
        if s["SMTP_TLS"] == "ssl":
            smtp = smtplib.SMTP_SSL(s["SMTP_HOST"], s["SMTP_PORT"], timeout=timeout,
                                    context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(s["SMTP_HOST"], s["SMTP_PORT"], timeout=timeout)
            if s["SMTP_TLS"] == "starttls":
                smtp.starttls(context=ssl.create_default_context())
        if s["SMTP_USER"]:
            smtp.login(s["SMTP_USER"], s["SMTP_PASSWORD"])
        return smtp

    def reset(self) -> None:
        self.close()

    def close(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except (smtplib.SMTPException, OSError):
                pass        # the session is being dropped anyway; a failed QUIT changes nothing
            self.smtp = None


def drain(settings, now: dt.datetime | None = None) -> dict:
    """Send every due mail once; returns counts of sent, retried and failed."""
    now = now or utcnow()
    counts = {"sent": 0, "retry": 0, "failed": 0}
    conn = Connection(settings)
    try:
        for row in claim_due(settings, now):
            try:
                conn.send(build_message(row, settings["MAIL_FROM"]), row.to_addr)
            except (smtplib.SMTPException, OSError) as exc:
                conn.reset()
                counts[_record_failure(settings, row, exc, now)] += 1
                continue
            (Outbox.update(status="sent", sent_at=utcnow(), attempts=row.attempts + 1,
                           claimed_until=None)
             .where(Outbox.id == row.id).execute())
            counts["sent"] += 1
    finally:
        conn.close()
    return counts


def _record_failure(settings, row: Outbox, exc: Exception, now: dt.datetime) -> str:
    attempts = row.attempts + 1
    permanent = isinstance(exc, smtplib.SMTPRecipientsRefused)
    gave_up = permanent or attempts >= settings["SENDER_MAX_ATTEMPTS"]
    (Outbox.update(attempts=attempts, claimed_until=None, last_error=repr(exc)[:1000],
                   status="failed" if gave_up else "pending",
                   next_attempt_at=now + backoff(settings, attempts))
     .where(Outbox.id == row.id).execute())
    return "failed" if gave_up else "retry"


def run_forever(settings) -> None:
    database = make_database(settings["DATABASE_URL"], settings)
    bind(database)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    while not stop:
        with database.connection_context():
            counts = drain(settings)
        if counts["sent"] or counts["retry"] or counts["failed"]:
            print(f"sender: {counts}", flush=True)
        time.sleep(settings["SENDER_INTERVAL"])


if __name__ == "__main__":
    try:
        run_forever(settings_module.load())
    except KeyboardInterrupt:
        sys.exit(0)

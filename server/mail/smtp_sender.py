"""Delivering the outbox over SMTP, outside any request: the sender process
(processes/sender.py) calls ``drain`` in a loop.

A mail's status says where it is:

    queued    written, not tried yet
    deferred  tried and refused for now (4xx, or the server unreachable):
              tried again after an exponential backoff, same Message-ID
    sent      the SMTP server took it; ``smtp_reply`` holds its answer
    bounced   taken, then bounced back (services/outbox.handle_bounce)
    failed    refused for good (5xx: ``permanent``), or still not out after
              SENDER_MAX_ATTEMPTS tries

Failed is what people see, not the end: a mail that failed for a passing
reason (4xx, server unreachable) is still tried every SENDER_RETRY_MAX
seconds, and as soon as an unreachable server answers again (``recover``)
every mail that waited for it is due at once.  A permanent failure waits
for a moderator's retry.  No mail is ever dropped.

Claims are short leases: a sender claims rows for SENDER_LEASE_SECONDS,
naming itself in ``claimed_by``, right before sending them: on SQLite one
at a time, on PostgreSQL up to CLAIM_CHUNK by one UPDATE (``_claims``: a
row is sent only while half its lease is left).  A sender killed
mid-drain holds at most those rows, and only for seconds (at once when a
sender on the same host starts again: ``release_dead_claims``); the row it
was sending is the only one that may go out twice, under the same
Message-ID.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import random
import re
import secrets
import smtplib
import socket
import ssl
import sys
import time
from email import policy
from email.generator import NLCRE, BytesGenerator
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import format_datetime, getaddresses
from io import BytesIO
from typing import Any

from peewee import fn

from server import wakeup
from server.db import Prepared, db
from server.mail import dkim_signing
from server.mail.bounces import ReturnPaths
from server.models import Outbox, utcnow


class Headers(HeaderRegistry):
    """The email package's header factory, doing less again for every mail:
    HeaderRegistry makes a new class for each header it parses (here once
    per header name), and the values many mails repeat (From, To,
    MIME-Version, Content-Type before its boundary…) are parsed once
    (``_repeated``).  A header object is never changed once made (setting a
    parameter or a boundary makes a new one), so one may stand in many
    messages; the bytes are those the default factory's headers give."""

    def __init__(self):
        super().__init__()
        self._classes: dict[str, type] = {}

    def __getitem__(self, name):
        key = name.lower()
        made = self._classes.get(key)
        if made is None:
            made = self._classes[key] = super().__getitem__(name)
        return made

    def __call__(self, name, value):
        if name.lower() in REPEATED and "boundary" not in value:
            return _repeated(name, value)
        return super().__call__(name, value)


# Headers whose values recur from mail to mail (a boundary is random: never).
REPEATED = frozenset(
    {
        "from",
        "to",
        "auto-submitted",
        "list-unsubscribe-post",
        "mime-version",
        "content-type",
        "content-transfer-encoding",
    }
)
HEADERS = Headers()


@functools.lru_cache(maxsize=512)
def _repeated(name: str, value: str):
    header = HeaderRegistry.__call__(HEADERS, name, value)
    header.wire_folds = {}  # WirePolicy keeps its folded bytes here
    return header


class WirePolicy(EmailPolicy):
    """Folds a repeated header (``_repeated``) once per way of folding and
    keeps the bytes with it: a header's folding depends on nothing but the
    header and these settings of the policy."""

    def fold_binary(self, name, value):
        folds = getattr(value, "wire_folds", None)
        if folds is None:
            return super().fold_binary(name, value)
        how = (self.linesep, self.max_line_length, self.utf8, self.cte_type)
        folded = folds.get(how)
        if folded is None:
            folded = folds[how] = super().fold_binary(name, value)
        return folded


# How a mail is built: the default policy (its 78-character lines decide
# how a body is encoded) with the header factory above.
BUILD = policy.default.clone(header_factory=HEADERS)
# policy.SMTP (CRLF), with lines up to RFC 5322's limit: the default 78
# makes the email package RFC 2047-encode a long header without spaces, such
# as List-Unsubscribe's URL, which no client then recognises.
WIRE = WirePolicy(linesep="\r\n", max_line_length=998, header_factory=HEADERS)
# last_error of a mail that waited because the server could not be reached.
UNREACHABLE = "SMTP server unreachable: "
OPEN = ("queued", "deferred")


def holder_id() -> str:
    """Who claims rows: host, process id and a nonce (a reused pid is not us)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def build_message(row: Outbox, mail_from: str, at: dt.datetime | None = None) -> EmailMessage:
    """The mail as it goes out at ``at`` (UTC; default: now): its Date is
    when it is handed to SMTP, not when it was written, so a mail written
    before an outage and sent after it is not dated in the past (spam
    filters count that against it)."""
    msg = EmailMessage(policy=BUILD)
    headers = dict(row.headers or {})
    msg["From"] = mail_from
    msg["To"] = row.to_addr
    msg["Subject"] = row.subject
    msg["Message-ID"] = row.message_id
    msg["Date"] = format_datetime((at or dt.datetime.now(dt.UTC)).replace(tzinfo=dt.UTC))
    if row.in_reply_to:
        msg["In-Reply-To"] = row.in_reply_to
        msg["References"] = row.references
    # Tells vacation responders not to answer the server; an answer to a
    # player's own mail says "auto-replied" (RFC 3834), set when queued.
    msg["Auto-Submitted"] = headers.pop("Auto-Submitted", "auto-generated")
    for name, value in headers.items():
        msg[name] = value
    msg.set_content(row.body_text)
    msg.add_alternative(row.body_html, subtype="html")
    return msg


def wire_bytes(msg: EmailMessage) -> bytes:
    """``msg.as_bytes(policy=WIRE)``, byte for byte, by the generator below."""
    out = BytesIO()
    WireGenerator(out, mangle_from_=False, policy=WIRE).flatten(msg, unixfrom=False)
    return out.getvalue()


class WireGenerator(BytesGenerator):
    """The email package's BytesGenerator with two of its loops made cheap,
    the bytes unchanged: a body goes out in one write instead of two a line,
    and a new boundary is looked for in the text as a plain string before a
    regular expression is compiled for it (new for every mail: a random
    boundary misses re's cache)."""

    def _write_lines(self, lines):
        # As the original: each line ends with the wire's line end, the
        # last one only when the text did.
        if lines:
            self.write(self._NL.join(NLCRE.split(lines)))

    @classmethod
    def _make_boundary(cls, text=None):
        token = random.randrange(sys.maxsize)  # the same draw as the original's
        boundary = ("=" * 15) + (_BOUNDARY_DIGITS % token) + "=="
        if text is None or ("--" + boundary).encode("ascii") not in text:
            return boundary  # no line of the text can be the boundary
        # It is in there (all but never): the original's search, as it is.
        found, counter = boundary, 0
        while cls._compile_re("^--" + re.escape(found) + "(--)?$", re.MULTILINE).search(text):
            found = f"{boundary}.{counter}"
            counter += 1
        return found


_BOUNDARY_DIGITS = "%%0%dd" % len(repr(sys.maxsize - 1))  # as email.generator's _fmt


def backoff(settings, attempts: int) -> dt.timedelta:
    seconds = settings["SENDER_RETRY_BASE"] * 2 ** min(max(attempts - 1, 0), 30)
    return dt.timedelta(seconds=min(seconds, settings["SENDER_RETRY_MAX"]))


# -- claims -------------------------------------------------------------------
def _unclaimed(now: dt.datetime):
    return Outbox.claimed_until.is_null() | (Outbox.claimed_until < now)


def _sendable():
    return Outbox.status.in_(OPEN) | ((Outbox.status == "failed") & (Outbox.permanent == False))  # noqa: E712


def due_ids(settings, now: dt.datetime) -> list[int]:
    return [r.id for r in DUE.rows(now, settings["SENDER_BATCH"])]


# Asked by every sender every SENDER_INTERVAL: its SQL is built once.
DUE = Prepared(
    lambda now, batch: (
        Outbox.select(Outbox.id)
        .where(_due(now, now))
        .order_by(Outbox.next_attempt_at, Outbox.id)
        .limit(batch)
    ),
    kinds=(dt.datetime, int),
)


def claim(row_id: int, holder: str, now: dt.datetime, lease: dt.timedelta) -> Outbox | None:
    """The row, claimed by ``holder`` until ``now + lease``; None when another
    sender holds it or it was sent meanwhile."""
    if db.obj.returning_clause:  # PostgreSQL: the claimed row comes back with the claim
        return CLAIMED.first(row_id, holder, now, now + lease)
    won = CLAIM.run(row_id, holder, now, now + lease)
    return OUTBOX_ROW.first(row_id) if won == 1 else None


# Each mail is claimed, read and marked sent: their SQL is built once.
CLAIM = Prepared(
    lambda row_id, holder, now, until: Outbox.update(claimed_until=until, claimed_by=holder).where(
        (Outbox.id == row_id) & _sendable() & _unclaimed(now)
    ),
    kinds=(int, str, dt.datetime, dt.datetime),
)
OUTBOX_ROW = Prepared(lambda row_id: Outbox.select().where(Outbox.id == row_id).limit(1))
CLAIMED = Prepared(
    lambda row_id, holder, now, until: (
        Outbox.update(claimed_until=until, claimed_by=holder)
        .where((Outbox.id == row_id) & _sendable() & _unclaimed(now))
        .returning(Outbox)
    ),
    kinds=(int, str, dt.datetime, dt.datetime),
)
SENT = Prepared(
    lambda row_id, at, attempts, reply: Outbox.update(
        status="sent",
        sent_at=at,
        attempts=attempts,
        claimed_until=None,
        claimed_by="",
        smtp_reply=reply,
        permanent=False,
    ).where(Outbox.id == row_id),
    kinds=(int, dt.datetime, int, Outbox.smtp_reply),
)


# Rows a PostgreSQL sender claims in one statement (``claim_due``).
CLAIM_CHUNK = 10


def claim_due(
    holder: str, due_at: dt.datetime, now: dt.datetime, lease: dt.timedelta, limit: int
) -> list[Outbox]:
    """PostgreSQL: up to ``limit`` of the oldest mails due at ``due_at``,
    claimed by ``holder`` until ``now + lease``, oldest first: their ids read
    (the one statement of a round with nothing due), then all claimed by one
    UPDATE … RETURNING.  The UPDATE checks again that each row is sendable
    and unclaimed, so of two senders racing for a row one gets it; the other
    goes without it (it may get fewer than were due)."""
    ids = [row.id for row in DUE_AT.rows(due_at, now, limit)]
    if not ids:
        return []
    rows = CLAIM_IDS.rows(holder, now, now + lease, *ids)
    return sorted(rows, key=lambda row: (row.next_attempt_at, row.id))


def _due(due_at: dt.datetime, now: dt.datetime):
    return (
        _sendable()
        & (Outbox.next_attempt_at <= due_at)
        & _unclaimed(now)
        # Notices to channels: server/notify/notice_sender.py.
        & Outbox.channel.is_null()
    )


DUE_AT = Prepared(
    lambda due_at, now, limit: (
        Outbox.select(Outbox.id)
        .where(_due(due_at, now))
        .order_by(Outbox.next_attempt_at, Outbox.id)
        .limit(limit)
    ),
    kinds=(dt.datetime, dt.datetime, int),
)
CLAIM_IDS = Prepared(
    lambda holder, now, until, *ids: (
        Outbox.update(claimed_until=until, claimed_by=holder)
        .where(Outbox.id.in_(ids) & _sendable() & _unclaimed(now))
        .returning(Outbox)
    ),
    kinds=(str, dt.datetime, dt.datetime),
)


def release(rows: list[Outbox], holder: str) -> int:
    """Let claimed rows go unsent (they are due again at once)."""
    return (
        Outbox.update(claimed_until=None, claimed_by="")
        .where(Outbox.id.in_([row.id for row in rows]) & (Outbox.claimed_by == holder))
        .execute()
    )


def release_dead_claims(now: dt.datetime, host: str | None = None) -> int:
    """Free the rows held by senders of this host that are no longer running
    (a kill -9 leaves its claim behind); returns how many."""
    host = host or socket.gethostname()
    holders = (
        Outbox.select(Outbox.claimed_by)
        .distinct()
        .where((Outbox.claimed_until >= now) & Outbox.claimed_by.startswith(f"{host}:"))
    )
    freed = 0
    for row in holders:
        holder = row.claimed_by
        if not holder_running(holder):
            freed += (
                Outbox.update(claimed_until=None, claimed_by="")
                .where(Outbox.claimed_by == holder)
                .execute()
            )
    return freed


def holder_running(holder: str) -> bool:
    """Whether the process named in ``holder`` (host:pid:nonce) still runs
    on this host."""
    try:
        pid = int(holder.split(":")[1])
        os.kill(pid, 0)
    except (IndexError, ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True  # somebody else's process: alive
    return True


# -- SMTP ---------------------------------------------------------------------
class Unreachable(Exception):
    """The SMTP server could not be reached or greeted."""


class Connection:
    """An SMTP session, opened on first use.  ``drain`` makes one per drain
    unless given one; the sender process keeps one across its drains
    (``start_drain``), which spares every mail a TCP (and TLS) handshake,
    EHLO, a login and QUIT.  A kept session is let go after
    SESSION_IDLE_SECONDS without a mail (servers drop idle clients: Postfix
    under stress after 10 s) or SESSION_MAX_MAILS mails (some relays cap a
    session).  When a kept session turns out dead at the first command of a
    mail (the server hung up, or answered 421: closing), nothing of the mail
    was taken and it is tried at once on a new session.

    Once the server cannot be reached, every further mail of this drain
    fails the same way at once instead of waiting for its own timeout."""

    def __init__(self, settings):
        self.settings = settings
        self.smtp = None
        self.down: Unreachable | None = None
        self.opened = False  # a session was opened since start_drain
        self.mails = 0  # mails sent on this session
        self.used_at = 0.0  # time.monotonic() of the session's last mail
        # DKIM_PRIVATE_KEY_FILE's signer (None: unsigned); a bad key is a
        # SettingsError here, which the sender process reports at its start.
        self.signer = dkim_signing.check(settings)

    def start_drain(self) -> None:
        """A new drain: try the server again, and let a session go that sat
        idle too long or carried enough mails."""
        self.down, self.opened = None, False
        if self.smtp is not None and (
            time.monotonic() - self.used_at > SESSION_IDLE_SECONDS
            or self.mails >= SESSION_MAX_MAILS
        ):
            self.close()

    def send(self, msg: EmailMessage, to_addr: str, from_addr: str) -> str:
        """Send one mail; the server's final answer ("250 2.0.0 Ok: queued
        as …").  Raises Unreachable, or smtplib's errors for a refusal."""
        if self.down is not None:
            raise self.down
        if self.smtp is None:
            self._start_session()
            code, answer = self.smtp.mail(from_addr)
        else:
            try:
                code, answer = self.smtp.mail(from_addr)
            except (smtplib.SMTPServerDisconnected, OSError):
                code, answer = 421, b""
            if code == 421:  # the kept session is gone: nothing was taken
                self.reset()
                self._start_session()
                code, answer = self.smtp.mail(from_addr)
        smtp = self.smtp
        if code != 250:
            smtp.rset()
            raise smtplib.SMTPSenderRefused(code, answer, from_addr)
        code, answer = smtp.rcpt(to_addr)
        if code not in (250, 251):
            smtp.rset()
            raise smtplib.SMTPRecipientsRefused({to_addr: (code, answer)})
        data = wire_bytes(msg)
        if self.signer is not None:
            data = self.signer.sign(data)
        code, answer = smtp.data(data)
        if code != 250:
            smtp.rset()
            raise smtplib.SMTPDataError(code, answer)
        self.mails, self.used_at = self.mails + 1, time.monotonic()
        return f"{code} {answer.decode('utf-8', 'replace')}"[:1000]

    def _start_session(self) -> None:
        try:
            self.smtp = self._open()
        except (smtplib.SMTPException, OSError) as exc:
            self.down = Unreachable(f"{exc.__class__.__name__}: {exc}")
            raise self.down from exc
        self.opened, self.mails = True, 0

    def _open(self):
        s = self.settings
        timeout = s["SMTP_TIMEOUT"]
        if s["SMTP_TLS"] == "ssl":
            smtp = smtplib.SMTP_SSL(
                s["SMTP_HOST"],
                s["SMTP_PORT"],
                timeout=timeout,
                context=ssl.create_default_context(),
            )
        else:
            smtp = smtplib.SMTP(s["SMTP_HOST"], s["SMTP_PORT"], timeout=timeout)
            if s["SMTP_TLS"] == "starttls":
                smtp.starttls(context=ssl.create_default_context())
        if s["SMTP_USER"]:
            smtp.login(s["SMTP_USER"], s["SMTP_PASSWORD"])
        smtp.ehlo_or_helo_if_needed()
        return smtp

    def reset(self) -> None:
        self.close()

    def close(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except (smtplib.SMTPException, OSError):
                # The session is being dropped anyway; a failed QUIT changes
                # nothing but leaves the socket open.
                self.smtp.close()
            self.smtp = None


# A kept session (Connection) is let go after this long without a mail, or
# after this many mails.
SESSION_IDLE_SECONDS = 10.0
SESSION_MAX_MAILS = 50


def envelope_from(settings, row: Outbox) -> str:
    """MAIL FROM: the mail's own signed return path (VERP) when BOUNCE_DOMAIN
    is set, so a bounce names the mail it is about; else MAIL_FROM."""
    paths = ReturnPaths.from_settings(settings)
    if paths.enabled:
        return paths.for_outbox(row.id)
    return getaddresses([settings["MAIL_FROM"]])[0][1]


# -- draining -----------------------------------------------------------------
class Observer:
    """What the services want to hear of a drain (services/outbox.py).

    What became of a mail is written in one transaction with what the
    observer changes because of it.  ``lock`` comes first in it, before the
    row is written: it locks what ``sent`` or ``failed`` will change (a
    seat, then the mails of its turn), so that the scheduler, which locks
    the seat before it reads those mails, sees either the mail waiting or
    the mail sent, never a mix; ``sent`` and ``failed`` get what it returned."""

    def lock(self, row: Outbox) -> Any:
        return None

    def sent(self, row: Outbox, now: dt.datetime, locked: Any = None) -> None: ...

    def failed(self, row: Outbox, now: dt.datetime, locked: Any = None) -> None: ...


def drain(
    settings,
    now: dt.datetime | None = None,
    holder: str | None = None,
    observer: Observer | None = None,
    session: Connection | None = None,
) -> dict:
    """Send every due mail once; returns counts of sent, retried and failed.
    ``session``: an SMTP session kept across drains (the sender's), else
    one is opened for this drain and closed at its end."""
    start, started = now or utcnow(), time.monotonic()
    holder = holder or holder_id()
    lease = dt.timedelta(seconds=settings["SENDER_LEASE_SECONDS"])
    observer = observer or Observer()
    counts = {"sent": 0, "retry": 0, "failed": 0}
    conn = session or Connection(settings)
    conn.start_drain()
    try:
        for row, now in _claims(settings, start, started, holder, lease):
            try:
                reply = conn.send(
                    build_message(row, settings["MAIL_FROM"]),
                    row.to_addr,
                    envelope_from(settings, row),
                )
            except (Unreachable, smtplib.SMTPException, OSError) as exc:
                if not isinstance(exc, Unreachable):
                    conn.reset()
                with db.atomic():
                    locked = observer.lock(row)
                    # The backoff counts from the drain's time (the caller's clock).
                    outcome = _record_failure(settings, row, exc, start)
                    if outcome == "failed" and row.status != "failed":
                        observer.failed(row, now, locked)
                counts[outcome] += 1
                continue
            with db.atomic():
                locked = observer.lock(row)
                SENT.run(row.id, utcnow(), row.attempts + 1, reply)
                observer.sent(row, now, locked)
            counts["sent"] += 1
    finally:
        if session is None:
            conn.close()
    # A new session got a mail through: the server answers again, and the
    # mails that waited for it are due now.  (A session kept from an earlier
    # drain proves nothing new; ``recover`` knocks every SENDER_PROBE_SECONDS
    # for mails that another sender could not get out.)
    if counts["sent"] and conn.opened:
        _requeue_waiting(start)
    return counts


def _claims(settings, start: dt.datetime, started: float, holder: str, lease: dt.timedelta):
    """The drain's due mails (SENDER_BATCH at most), each claimed by
    ``holder``, with the time it is sent at.  Leases count from the real time
    (``start`` plus the time since ``started``), not from the drain's start.

    SQLite: one row at a time, its id read first.  PostgreSQL: up to
    CLAIM_CHUNK rows at a time, their ids read, then claimed in one
    statement.  A row of
    a chunk is sent only while at least half its lease is left; once the
    sends of a chunk took longer (a slow server), the rest is let go and
    claimed again, so no mail starts out on a lease about to run out (the
    first of a chunk always goes: its lease is new)."""

    def clock() -> dt.datetime:
        return start + dt.timedelta(seconds=time.monotonic() - started)

    if not db.obj.returning_clause:
        for row_id in due_ids(settings, start):
            now = clock()
            row = claim(row_id, holder, now, lease)
            if row is not None:
                yield row, now
        return
    left = settings["SENDER_BATCH"]
    while left > 0:
        asked, claimed_at = min(CLAIM_CHUNK, left), clock()
        chunk = claim_due(holder, start, claimed_at, lease, asked)
        for at, row in enumerate(chunk):
            now = clock()
            if at and now - claimed_at > lease / 2:
                release(chunk[at:], holder)
                break
            left -= 1
            yield row, now
        else:
            if len(chunk) < asked:
                return  # nothing more was due (or another sender has it)


def _record_failure(settings, row: Outbox, exc: Exception, now: dt.datetime) -> str:
    attempts = row.attempts + 1
    code = _reply_code(exc)
    permanent = code is not None and 500 <= code < 600
    gave_up = permanent or attempts >= settings["SENDER_MAX_ATTEMPTS"]
    error = (UNREACHABLE + str(exc)) if isinstance(exc, Unreachable) else repr(exc)
    # A failure for a passing reason keeps being tried, at the longest interval.
    wait = (
        dt.timedelta(seconds=settings["SENDER_RETRY_MAX"])
        if gave_up
        else backoff(settings, attempts)
    )
    (
        Outbox.update(
            attempts=attempts,
            claimed_until=None,
            claimed_by="",
            last_error=error[:1000],
            permanent=permanent,
            status="failed" if gave_up else "deferred",
            next_attempt_at=now + wait,
        )
        .where(Outbox.id == row.id)
        .execute()
    )
    return "failed" if gave_up else "retry"


def _reply_code(exc: Exception) -> int | None:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        return codes[0] if codes else None
    return getattr(exc, "smtp_code", None)


# -- after an outage --------------------------------------------------------------
def waiting_for_server(now: dt.datetime) -> int:
    """Mails that wait because the server could not be reached."""
    return (
        Outbox.select()
        .where(
            _sendable() & (Outbox.next_attempt_at > now) & Outbox.last_error.startswith(UNREACHABLE)
        )
        .count()
    )


def _requeue_waiting(now: dt.datetime) -> int:
    return (
        Outbox.update(next_attempt_at=now)
        .where(
            _sendable() & (Outbox.next_attempt_at > now) & Outbox.last_error.startswith(UNREACHABLE)
        )
        .execute()
    )


def recover(settings, now: dt.datetime | None = None) -> int:
    """When mails wait for an unreachable server, knock (connect, NOOP); if
    it answers, they are all due now.  Returns how many were made due."""
    now = now or utcnow()
    if not waiting_for_server(now):
        return 0
    conn = Connection(settings)
    try:
        conn.smtp = conn._open()
        code, _ = conn.smtp.noop()
    except (smtplib.SMTPException, OSError):
        return 0
    finally:
        conn.close()
    return _requeue_waiting(now) if code == 250 else 0


def retry(row_id: int, now: dt.datetime) -> bool:
    """Make a failed or bounced mail due again (a moderator's retry)."""
    due_again = (
        Outbox.update(
            status="queued",
            attempts=0,
            next_attempt_at=now,
            permanent=False,
            claimed_until=None,
            claimed_by="",
            bounced_at=None,
        )
        .where(
            (Outbox.id == row_id)
            & Outbox.status.in_(("failed", "bounced"))
            # services/retention.py blanked its bodies: nothing left to send.
            & Outbox.body_purged_at.is_null()
        )
        .execute()
    ) == 1
    if due_again:
        wakeup.outbox_written(db.obj)
    return due_again


def counts_by_status() -> dict[str, int]:
    return {
        row.status: row.n
        for row in (
            Outbox.select(Outbox.status, fn.COUNT(Outbox.id).alias("n")).group_by(Outbox.status)
        )
    }

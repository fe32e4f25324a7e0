"""The reply receiver: ``python -m server.processes.receiver``.

An SMTP (or, with RECEIVER_PROTOCOL=lmtp, LMTP) server on RECEIVER_HOST:
RECEIVER_PORT that the mail server hands the replies for REPLY_DOMAIN to
(Postfix: the ``pbem`` transport that ``pbem deploy-files`` writes,
server/postfix_files.py).  Each
message goes to services/replies.py; a bounce addressed to one of our signed
return paths (bounce+…@BOUNCE_DOMAIN) goes to services/outbox.py.

It checks before it reads:
- RCPT: a recipient that is not one of our addresses with a valid
  signature is refused (550), so the mail server bounces it and nothing
  else piles up (a revoked but genuine address is taken and answered);
- MAIL's declared SIZE and the data itself larger than INBOUND_MAX_BYTES:
  552 (aiosmtpd's own check of ``data_size_limit``);
- a malformed mail (NUL bytes, more nested MIME parts than a reply has):
  554, for good, so the sending server returns it to its sender.
Whether a mail is authenticated (DKIM keys and DMARC records from DNS) is
checked first, in a pool of MAIL_AUTH_THREADS threads of its own and
outside any database transaction: a mail whose name server never answers
waits there for at most its DNS budget, holding up no other mail, and the
checks' CPU work is bounded by mail/authentication.py (key size, exponent,
signature count).  Should a check still overrun its budget by CHECK_SLACK
seconds, the mail is handled as not authenticated (held for confirmation).
A mail is handled in one transaction (services/replies.receive): a failure
of the database answers 451 and nothing of the mail stays, so the mail
server's retry handles it afresh; a mail that did get through is known by
its Message-ID and not played twice.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP

from server import settings as settings_module
from server.db import bind, make_database
from server.mail import authentication, inbound
from server.mail.bounces import ReturnPaths
from server.mail.compose import Mailer
from server.mail.signed_addresses import AddressError
from server.processes import faults, logs
from server.processes.backoff import DATABASE_ERRORS, Backoff
from server.services import outbox, replies
from server.services.reply_menu import addresses

log = logging.getLogger("pbem.receiver")
TRY_LATER = "451 4.3.0 Could not handle the mail now; try again later"
# Seconds a mail's check may take beyond its DNS budget (the CPU work).
CHECK_SLACK = 4.0


class ReplyHandler:
    def __init__(self, settings, database, via: str = "smtp"):
        self.settings, self.database, self.via = settings, database, via
        self.mailer = Mailer(settings)
        self.addresses = addresses(settings)
        self.return_paths = ReturnPaths.from_settings(settings)
        self.backoff = Backoff("receiver", log, 1.0, settings["DATABASE_ERROR_BACKOFF_MAX"])
        # The public suffix list (0.3 s to load) now, not in many first checks at once.
        authentication.organizational_domain("example.org")
        self.checks = ThreadPoolExecutor(
            max_workers=max(1, int(settings["MAIL_AUTH_THREADS"])), thread_name_prefix="mail-auth"
        )

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if not self.signed(address):
            log.info("mail to %s: refused at RCPT, not one of our addresses", masked(address))
            return "550 5.1.1 Not a reply address of this server"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    def signed(self, address: str) -> bool:
        """One of our reply addresses or return paths, its signature good."""
        for known in (self.addresses, self.return_paths):
            try:
                known.read(address)
                return True
            except (AddressError, ValueError):
                continue
        return False

    async def handle_DATA(self, server, session, envelope):
        """The mail's answer, and one line at INFO saying what became of it."""
        answer, outcome = await self.handle_mail(envelope)
        log.info(
            "mail from %s to %s: %s (%s)",
            masked(envelope.mail_from or ""),
            ", ".join(masked(rcpt) for rcpt in envelope.rcpt_tos),
            outcome,
            answer[:3],
        )
        return answer

    async def handle_mail(self, envelope) -> tuple[str, str]:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        if not self.backoff.ready():  # the database failed moments ago: no new try yet
            return TRY_LATER, "deferred, the database failed moments ago"
        if len(raw) > self.settings["INBOUND_MAX_BYTES"]:
            return "552 5.3.4 Message too big for this server", "refused, too big"
        reason = inbound.malformed(raw)
        if reason:
            return f"554 5.6.0 Malformed mail: {reason}", "refused, malformed"
        loop = asyncio.get_running_loop()
        rcpt_tos = list(envelope.rcpt_tos)
        verdict = await self.authenticate(loop, raw, envelope.mail_from, rcpt_tos)
        try:
            done = await loop.run_in_executor(
                None, self.receive, raw, envelope.mail_from, rcpt_tos, verdict
            )
        except DATABASE_ERRORS as exc:  # one line; the mail server keeps the mail and retries
            self.backoff.failed(exc)
            return TRY_LATER, "deferred, database error"
        except Exception:  # a bug with this mail: its traceback, and a retry later
            log.exception("receiver: could not handle a mail")
            return TRY_LATER, "deferred, could not handle it"
        self.backoff.succeeded()
        return "250 2.0.0 Message accepted", outcome_of(done)

    async def authenticate(self, loop, raw: bytes, mail_from, rcpt_tos) -> authentication.Verdict:
        """The mail's verdict, checked in the checks' own threads."""
        limit = float(self.settings["MAIL_AUTH_DNS_BUDGET"]) + CHECK_SLACK
        try:
            return await asyncio.wait_for(
                loop.run_in_executor(self.checks, self.check, raw, mail_from, rcpt_tos), limit
            )
        except TimeoutError:
            log.warning("receiver: checking a mail took over %s s; held as unproven", limit)
            return authentication.Verdict(False, f"temperror: checking took over {limit:g} s")

    def check(self, raw: bytes, mail_from, rcpt_tos) -> authentication.Verdict:
        if any(self.return_paths.is_ours(rcpt) for rcpt in rcpt_tos):
            return authentication.Verdict(False, "not checked")  # a bounce
        try:
            mail = inbound.parse(raw, rcpt_tos, mail_from)
            return replies.authenticate(mail, raw, self.settings)
        except Exception:  # noqa: BLE001 - unreadable or a bug: proves nothing
            log.exception("receiver: could not check a mail")
            return authentication.Verdict(False, "the check failed")

    def receive(
        self,
        raw: bytes,
        mail_from: str | None,
        rcpt_tos: list[str],
        verdict: authentication.Verdict | None = None,
    ):
        with self.database.connection_context():
            if any(self.return_paths.is_ours(rcpt) for rcpt in rcpt_tos):
                return outbox.handle_bounce(raw, self.settings, envelope_to=rcpt_tos)
            return replies.receive(
                raw,
                self.mailer,
                self.via,
                envelope_from=mail_from,
                envelope_to=rcpt_tos,
                verdict=verdict,
            )


def masked(address: str) -> str:
    """An address without what identifies a person or opens a seat: the
    domain, and of our own addresses only the kind (play+…, bounce+…)."""
    local, at, domain = address.strip("<>").rpartition("@")
    if not at:
        return "<>" if not address.strip("<>") else "…"
    kind, plus, _ = local.partition("+")
    return f"{kind}+…@{domain}" if plus else f"…@{domain}"


def outcome_of(done) -> str:
    """What services made of an accepted mail: a bounce's True/False, an
    inbound row (its status) or None (seen before)."""
    if done is None:
        return "seen before (same Message-ID), not acted on again"
    if isinstance(done, bool):
        return "bounce recorded" if done else "bounce naming no mail of ours"
    return str(getattr(done, "status", done))


def quiet_protocol_log() -> None:
    """aiosmtpd logs every SMTP command, addresses in full, at INFO on
    "mail.log": that chatter shows only when the processes log at DEBUG."""
    chatter = logging.getLogger("mail.log")
    debugging = logging.getLogger().getEffectiveLevel() <= logging.DEBUG
    chatter.setLevel(logging.DEBUG if debugging else logging.WARNING)
    if not any(isinstance(f, AsDebug) for f in chatter.filters):
        chatter.addFilter(AsDebug())


class AsDebug(logging.Filter):
    """Shows aiosmtpd's INFO lines as what they are to an operator: DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.INFO:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


class ReceiverController(Controller):
    def __init__(self, handler, protocol: str, **kwargs):
        self.protocol = protocol
        # aiosmtpd answers 552 to a larger declared SIZE and to more data.
        super().__init__(handler, data_size_limit=handler.settings["INBOUND_MAX_BYTES"], **kwargs)

    def stop(self, *args, **kwargs):
        super().stop(*args, **kwargs)
        self.handler.checks.shutdown(wait=False, cancel_futures=True)

    def factory(self):
        server_class = LMTP if self.protocol == "lmtp" else SMTP
        return server_class(self.handler, **self.SMTP_kwargs)


def start(
    settings,
    database,
    host: str | None = None,
    port: int | None = None,
    protocol: str | None = None,
) -> ReceiverController:
    """A running receiver (in a thread of this process); ``.port`` tells where."""
    protocol = (protocol or settings["RECEIVER_PROTOCOL"]).lower()
    if protocol not in ("smtp", "lmtp"):
        raise settings_module.SettingsError(
            f"setting RECEIVER_PROTOCOL={protocol!r}: expected smtp or lmtp"
        )
    quiet_protocol_log()
    controller = ReceiverController(
        ReplyHandler(settings, database, protocol),
        protocol,
        hostname=host or settings["RECEIVER_HOST"],
        port=port or settings["RECEIVER_PORT"],
    )
    controller.start()
    return controller


def main() -> None:
    with settings_module.exit_on_settings_error():
        settings = settings_module.load()
        logs.setup(settings)
        if not settings["REPLY_DOMAIN"]:
            raise settings_module.SettingsError(
                "REPLY_DOMAIN is empty: set the domain the reply addresses use"
            )
        database = make_database(settings["DATABASE_URL"], settings)
        bind(database)
        faults.install(database, settings)
        controller = start(settings, database)
    log.info(
        "%s on %s:%s for *@%s",
        settings["RECEIVER_PROTOCOL"],
        settings["RECEIVER_HOST"],
        settings["RECEIVER_PORT"],
        settings["REPLY_DOMAIN"],
    )
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    done.wait()
    controller.stop()


if __name__ == "__main__":
    main()

"""The reply receiver: ``python -m server.processes.receiver``.

An SMTP (or, with RECEIVER_PROTOCOL=lmtp, LMTP) server on RECEIVER_HOST:
RECEIVER_PORT that the mail server hands the replies for REPLY_DOMAIN to
(Postfix: a transport ``lmtp:inet:127.0.0.1:8026`` for that domain).  Each
message goes to services/replies.py; a bounce addressed to one of our signed
return paths (bounce+…@BOUNCE_DOMAIN) goes to services/deliveries.py.

It checks before it reads:
- RCPT: a recipient that is not one of our addresses with a valid
  signature is refused (550), so the mail server bounces it and nothing
  else piles up (a revoked but genuine address is taken and answered);
- MAIL's declared SIZE and the data itself larger than INBOUND_MAX_BYTES:
  552 (aiosmtpd's own check of ``data_size_limit``);
- a malformed mail (NUL bytes, more nested MIME parts than a reply has):
  554, for good, so the sending server returns it to its sender.
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

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP

from server import settings as settings_module
from server.db import bind, make_database
from server.mail import inbound
from server.mail.bounces import ReturnPaths
from server.mail.compose import Mailer
from server.mail.signed_addresses import AddressError
from server.processes import faults, logs
from server.processes.backoff import DATABASE_ERRORS, Backoff
from server.services import deliveries, replies
from server.services.reply_menu import addresses

log = logging.getLogger("pbem.receiver")
TRY_LATER = "451 4.3.0 Could not handle the mail now; try again later"


class ReplyHandler:
    def __init__(self, settings, database, via: str = "smtp"):
        self.settings, self.database, self.via = settings, database, via
        self.mailer = Mailer(settings)
        self.addresses = addresses(settings)
        self.return_paths = ReturnPaths.from_settings(settings)
        self.backoff = Backoff("receiver", log, 1.0, settings["DATABASE_ERROR_BACKOFF_MAX"])

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if not self.signed(address):
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
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        if not self.backoff.ready():  # the database failed moments ago: no new try yet
            return TRY_LATER
        if len(raw) > self.settings["INBOUND_MAX_BYTES"]:
            return "552 5.3.4 Message too big for this server"
        reason = inbound.malformed(raw)
        if reason:
            return f"554 5.6.0 Malformed mail: {reason}"
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(
                None, self.receive, raw, envelope.mail_from, list(envelope.rcpt_tos)
            )
        except DATABASE_ERRORS as exc:  # one line; the mail server keeps the mail and retries
            self.backoff.failed(exc)
            return TRY_LATER
        except Exception:  # a bug with this mail: its traceback, and a retry later
            log.exception("receiver: could not handle a mail")
            return TRY_LATER
        self.backoff.succeeded()
        return "250 2.0.0 Message accepted"

    def receive(self, raw: bytes, mail_from: str | None, rcpt_tos: list[str]):
        with self.database.connection_context():
            if any(self.return_paths.is_ours(rcpt) for rcpt in rcpt_tos):
                return deliveries.handle_bounce(raw, self.settings, envelope_to=rcpt_tos)
            return replies.receive(
                raw, self.mailer, self.via, envelope_from=mail_from, envelope_to=rcpt_tos
            )


class ReceiverController(Controller):
    def __init__(self, handler, protocol: str, **kwargs):
        self.protocol = protocol
        # aiosmtpd answers 552 to a larger declared SIZE and to more data.
        super().__init__(handler, data_size_limit=handler.settings["INBOUND_MAX_BYTES"], **kwargs)

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

"""Outbox rows for the sender's tests: plain test mails queued, the rows read
back in order, and an SMTP server running a handler for a test."""

from __future__ import annotations

from contextlib import contextmanager

from aiosmtpd.controller import Controller
from conftest import free_port

from server.db import db
from server.models import Outbox


def queue(app, count: int = 1, **fields) -> list[int]:
    """``count`` test mails queued (``fields`` set or replace columns); their ids."""
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        return [
            Outbox.create(
                **{
                    "kind": "test",
                    "to_addr": f"p{i}@example.org",
                    "subject": f"mail {i}",
                    "body_text": "hi",
                    "body_html": "<p>hi</p>",
                    "message_id": mailer.new_message_id(),
                    **fields,
                }
            ).id
            for i in range(count)
        ]


def rows(app) -> list[Outbox]:
    with app.app_context(), db.connection_context():
        return list(Outbox.select().order_by(Outbox.id))


@contextmanager
def smtp_server(handler, **smtp_options):
    """An SMTP server on a free port answering with ``handler`` (its port in
    ``handler.port``) while the block runs."""
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(), **smtp_options)
    controller.start()
    handler.port = controller.port
    try:
        yield handler
    finally:
        controller.stop()

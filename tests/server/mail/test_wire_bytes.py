"""The sender's cheaper way from an outbox row to bytes (mail/smtp_sender.py:
header objects made once, folds kept, the generator's loops shortened) gives
the bytes the email package gives by its own defaults, byte for byte, and
again for a second mail with the same headers (a shared header object is
not changed by use)."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import sys
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime

from server.mail import smtp_sender
from server.models import Outbox


def reference(row: Outbox, mail_from: str) -> bytes:
    """build_message and wire_bytes as they were, with the email package's defaults."""
    msg = EmailMessage()
    msg["From"] = mail_from
    msg["To"] = row.to_addr
    msg["Subject"] = row.subject
    msg["Message-ID"] = row.message_id
    msg["Date"] = format_datetime(row.created_at.replace(tzinfo=dt.UTC))
    if row.in_reply_to:
        msg["In-Reply-To"] = row.in_reply_to
        msg["References"] = row.references
    msg["Auto-Submitted"] = "auto-generated"
    for name, value in (row.headers or {}).items():
        msg[name] = value
    msg.set_content(row.body_text)
    msg.add_alternative(row.body_html, subtype="html")
    return msg.as_bytes(policy=policy.SMTP.clone(max_line_length=998))


SUBJECTS = ["Your turn: choose a role, Game 1", "Je beurt: kies een rol — “é”", "Lang " * 70]
ADDRESSES = ["anna@example.org", "Anna.Long+tag@sub.example.co.uk"]
TEXTS = ["hi\n", ("long " * 60 + "\n") * 12, "naïve café\n" * 15, "no end", "a\r\nb\rc\n\n"]
HTMLS = ["<p>hi</p>", "<tr><td>" + "cell " * 50 + "</td></tr>\n" * 30, "<p>é</p>\n" * 20]
HEADERS = [
    {},
    {
        "List-Unsubscribe": "<http://pbem.example/mail/unsubscribe/" + "A" * 120 + ">",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Reply-To": "g12.s1.abcdef@reply.example.org",
    },
]


def test_the_wire_bytes_are_the_email_packages_own():
    cases = itertools.product(SUBJECTS, ADDRESSES, TEXTS, HTMLS, HEADERS, ["", "<t@x>"])
    for n, (subject, to, text, html, headers, thread) in enumerate(cases):
        row = Outbox(
            to_addr=to,
            subject=subject,
            message_id=f"<m{n}@pbem.example>",
            created_at=dt.datetime(2026, 11, 25, 13, n % 60),
            in_reply_to=thread,
            references=thread,
            headers=headers,
            body_text=text,
            body_html=html,
        )
        for mail_from in ("pbem <pbem@example.org>", "noreply@pbem.example"):
            random.seed(n)  # the multipart boundary is drawn at random
            expected = reference(row, mail_from)
            random.seed(n)
            assert (
                smtp_sender.wire_bytes(smtp_sender.build_message(row, mail_from, row.created_at))
                == expected
            )


def test_a_boundary_found_in_the_text_is_looked_for_as_before():
    """The email package's own search runs when the boundary it drew is in
    the text (it does not see one at a CRLF line end: neither does ours)."""
    for seed in range(5):
        random.seed(seed)
        drawn = "=" * 15 + smtp_sender._BOUNDARY_DIGITS % random.randrange(sys.maxsize) + "=="
        for text in (f"--{drawn}\n", f"x --{drawn} y\n", f"a\n--{drawn}--\n"):
            row = Outbox(
                to_addr="a@example.org",
                subject="s",
                message_id="<b@x>",
                created_at=dt.datetime(2026, 1, 1),
                in_reply_to="",
                references="",
                headers={},
                body_text=text,
                body_html="<p>x</p>",
            )
            random.seed(seed)
            expected = reference(row, "p@example.org")
            random.seed(seed)
            assert (
                smtp_sender.wire_bytes(
                    smtp_sender.build_message(row, "p@example.org", row.created_at)
                )
                == expected
            )

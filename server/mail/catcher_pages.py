"""Development only: the pages that show the mails the built-in catcher
(catcher.py) caught.  Registered only when MAIL_CATCHER_DIR is set."""

from __future__ import annotations

import email
import re
import smtplib
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid, parseaddr
from pathlib import Path

from flask import (
    Blueprint,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_datetime

from server.mail.authentication import catcher_authserv_id
from server.mail.compose import clean_header
from server.settings import instance_file

bp = Blueprint("devmail", __name__, url_prefix="/dev/mail", template_folder="templates")
NAME = re.compile(r"^[0-9a-f]{32}\.eml$")
# The site's policy (web/protection.py) plus inline style: a mail's HTML is
# shown in a sandboxed srcdoc frame, which inherits this page's policy, and
# mail HTML styles itself inline.  Still no script, and not framable.
MESSAGE_CSP = (
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)


def folder() -> Path:
    return instance_file(current_app.config, current_app.config["MAIL_CATCHER_DIR"])


def read(path: Path) -> dict:
    msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    text = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    return {
        "name": path.name,
        "to": msg["To"],
        "subject": msg["Subject"],
        "date": _said_date(msg["Date"]),
        "from": msg["From"] or "",
        "reply_to": msg["Reply-To"] or "",
        "message_id": msg["Message-ID"],
        "in_reply_to": msg["In-Reply-To"] or "",
        "text": text.get_content() if text else "",
        "html": html.get_content() if html else "",
        "mtime": path.stat().st_mtime,
    }


def _said_date(header) -> str:
    """A mail's Date header as the reader's language writes a time (Babel),
    not the header's English "Sun, 29 Nov"."""
    when = getattr(header, "datetime", None)
    return format_datetime(when) if when is not None else str(header or "")


@bp.get("/")
def inbox():
    paths = folder().glob("*.eml") if folder().exists() else []
    mails = sorted((read(p) for p in paths), key=lambda m: m["mtime"], reverse=True)
    return render_template("devmail/inbox.html", mails=mails[:200], total=len(mails))


@bp.get("/<name>")
def message(name: str):
    if not NAME.match(name) or not (folder() / name).exists():
        abort(404)
    response = make_response(render_template("devmail/message.html", mail=read(folder() / name)))
    response.headers["Content-Security-Policy"] = MESSAGE_CSP
    return response


@bp.post("/<name>/reply")
def reply(name: str):
    """Answer a caught mail as its recipient would from a mail client: a real
    SMTP mail to the reply receiver (RECEIVER_HOST:RECEIVER_PORT), the typed
    text on top of the quoted original.  The catcher stands for the
    operator's mail server, so it vouches for the sender the way such a
    server does: an Authentication-Results header under its own authserv-id,
    which the receiver trusts only while MAIL_CATCHER_DIR is set."""
    if not NAME.match(name) or not (folder() / name).exists():
        abort(404)
    mail = read(folder() / name)
    if not mail["reply_to"]:
        abort(400, "This mail has no reply address.")
    config = current_app.config
    msg = reply_message(mail, request.form.get("text", "")[:5000], catcher_authserv_id(config))
    try:
        with smtplib.SMTP(config["RECEIVER_HOST"], config["RECEIVER_PORT"], timeout=10) as smtp:
            smtp.send_message(msg)
    except (smtplib.SMTPException, OSError) as exc:
        abort(502, f"The reply receiver did not take the mail: {exc}")
    return redirect(url_for("devmail.inbox", sent=1))


def reply_message(mail: dict, text: str, authserv_id: str = "") -> EmailMessage:
    msg = EmailMessage()
    sender = clean_header(str(mail["to"]), 254)
    domain = parseaddr(sender)[1].rpartition("@")[2]
    if authserv_id and domain:
        msg["Authentication-Results"] = f"{authserv_id}; dmarc=pass header.from={domain}"
    msg["From"] = sender
    msg["To"] = clean_header(str(mail["reply_to"]), 254)
    msg["Subject"] = clean_header(f"Re: {mail['subject']}")
    msg["Message-ID"] = make_msgid(domain="catcher.localhost")
    if mail["message_id"]:
        msg["In-Reply-To"] = msg["References"] = clean_header(str(mail["message_id"]), 250)
    quoted = "\n".join(f"> {line}" for line in mail["text"].splitlines())
    msg.set_content(f"{text.strip()}\n\nOn {mail['date']}, {mail['from']} wrote:\n{quoted}\n")
    return msg

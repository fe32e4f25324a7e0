"""Development only: read the mails caught by the built-in mail catcher.
Registered only when MAIL_CATCHER_DIR is set."""
from __future__ import annotations

import email
import re
from email import policy
from pathlib import Path

from flask import Blueprint, abort, current_app, render_template

from server.settings import instance_file

bp = Blueprint("devmail", __name__, url_prefix="/dev/mail")
NAME = re.compile(r"^[0-9a-f]{32}\.eml$")


def folder() -> Path:
    return instance_file(current_app.config, current_app.config["MAIL_CATCHER_DIR"])


def read(path: Path) -> dict:
    msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    text = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    return {"name": path.name, "to": msg["To"], "subject": msg["Subject"], "date": msg["Date"],
            "message_id": msg["Message-ID"], "in_reply_to": msg["In-Reply-To"] or "",
            "text": text.get_content() if text else "", "html": html.get_content() if html else "",
            "mtime": path.stat().st_mtime}


@bp.get("/")
def inbox():
    paths = folder().glob("*.eml") if folder().exists() else []
    mails = sorted((read(p) for p in paths), key=lambda m: m["mtime"], reverse=True)
    return render_template("devmail/inbox.html", mails=mails[:200], total=len(mails))


@bp.get("/<name>")
def message(name: str):
    if not NAME.match(name) or not (folder() / name).exists():
        abort(404)
    return render_template("devmail/message.html", mail=read(folder() / name))

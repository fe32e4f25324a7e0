"""/privacy: what the site keeps about people, why, for how long, who sees
it and how to have it deleted or sent, written from the settings that
decide it (services/retention.py applies the same windows)."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

bp = Blueprint("privacy", __name__)


@bp.get("/privacy")
def page():
    config = current_app.config
    return render_template(
        "privacy/page.html",
        controller=config["PRIVACY_CONTROLLER_NAME"].strip(),
        contact=config["PRIVACY_CONTROLLER_CONTACT"].strip(),
        inbound_days=max(0, config["RETAIN_INBOUND_MAIL_DAYS"]),
        body_days=max(0, config["RETAIN_SENT_MAIL_BODY_DAYS"]),
        notice_days=max(0, config["RETAIN_NOTICE_DELIVERIES_DAYS"]),
        session_days=config["PERMANENT_SESSION_LIFETIME_DAYS"],
    )

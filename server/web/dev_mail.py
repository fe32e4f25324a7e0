"""/dev/mail, the pages of the built-in development mail catcher
(mail/catcher_pages.py), exist only where that catcher runs: MAIL_CATCHER_DIR
is set and mail goes to a catcher on this machine (SMTP_HOST on loopback, as
``pbem serve`` sets it up).  Even then they answer only a browser on this
machine, asking directly: another client, or any request that came through a
proxy (X-Forwarded-For), gets a 404 as if the pages did not exist, since the
caught mails hold every sign-in and seat link of the site."""

from __future__ import annotations

import ipaddress

from flask import abort, request

LOOPBACK_NAMES = ("localhost",)


def is_loopback(address: str | None) -> bool:
    if not address:
        return False
    if address.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


def catcher_runs(config) -> bool:
    return bool(config["MAIL_CATCHER_DIR"]) and is_loopback(config["SMTP_HOST"])


def only_this_machine():
    if request.blueprint != "devmail":
        return
    if (
        not is_loopback(request.remote_addr)
        or "X-Forwarded-For" in request.headers
        or "Forwarded" in request.headers
    ):
        abort(404)


def init_app(app) -> None:
    if not catcher_runs(app.config):
        return
    from server.mail import catcher_pages

    # On the app, not the blueprint: the blueprint is registered on many apps.
    app.before_request(only_this_machine)
    app.register_blueprint(catcher_pages.bp)

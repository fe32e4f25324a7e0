"""The pbem server.  ``create_app`` builds the Flask app (the Flask tutorial's
factory); the rest is laid out by layer, each importing only those below it:

    web/        the pages: one blueprint per area, templates/<area>/
    processes/  long-running entry points: scheduler, sender, mail catcher,
                inbound mail (receiver, IMAP poller), serve
    services/   what the server does, one module per noun it owns: games, moves,
                moderation, clocks, accounts, preferences, ...
    mail/       composing mail into the outbox, delivering it, signed links,
                reading the replies that come in, the development catcher and its pages
    notify/     chat and push notices beside mail: channels, texts, delivery
    settings.py, db.py, models.py   the bottom: settings, database, tables
    wsgi.py, cli.py   entry points beside the factory: gunicorn's module
                (``server.wsgi:app``) and the ``pbem`` command

web → services → mail → notify → bottom; processes → services.  Nothing imports web/
except this factory, and nothing imports processes/.  Nothing in server/
names a particular game: games live in engine/ behind one interface.
tests/server/processes/test_layers.py holds these rules.
"""

from __future__ import annotations

import datetime as dt
import logging
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from engine import BROKEN
from server import settings as settings_module


def create_app(test_config: dict | None = None) -> Flask:
    settings = settings_module.load(overrides=test_config)
    from server.web import speedups

    app = speedups.app_class(settings)(
        __name__,
        instance_path=settings["INSTANCE_PATH"],
        template_folder="web/templates",
        static_folder="web/static",
    )
    speedups.sessions(app, settings)
    app.config.update(settings)
    app.config["PERMANENT_SESSION_LIFETIME"] = dt.timedelta(
        days=settings["PERMANENT_SESSION_LIFETIME_DAYS"]
    )
    app.config["REMEMBER_COOKIE_DURATION"] = dt.timedelta(
        days=settings["REMEMBER_COOKIE_DURATION_DAYS"]
    )
    # The session's row ends its lifetime after it began, however often the
    # browser comes back (models.Session): the cookie is written when what it
    # holds changes, not signed anew on every request.
    app.config["SESSION_REFRESH_EACH_REQUEST"] = False
    secure_cookies(app)

    from server import db, web
    from server.mail.compose import Mailer
    from server.web import dev_mail, transport
    from server.web.protection import BoundedInt

    transport.init_app(app)  # inside ProxyFix: the forwarded Host is checked too
    behind_proxy(app)

    # Before any blueprint adds a rule: every <int:...> in a URL is then
    # bounded, so an id the database cannot hold is a 404, not an overflow.
    app.url_map.converters["int"] = BoundedInt
    db.init_app(app)
    app.extensions["pbem_mailer"] = Mailer(app.config)
    web.init_app(app)
    dev_mail.init_app(app)
    for name, error in BROKEN.items():
        logging.getLogger("pbem.games").warning(
            "the game %s is installed but does not load, so it is left out: %s", name, error
        )
    return app


def secure_cookies(app: Flask) -> None:
    """Cookies are Secure exactly when the public address is https: always
    there (whatever else is configured), and never on plain http, where the
    browser would not send a Secure cookie back."""
    secure = urlsplit(app.config["PUBLIC_BASE_URL"]).scheme.lower() == "https"
    app.config["SESSION_COOKIE_SECURE"] = app.config["REMEMBER_COOKIE_SECURE"] = secure


def behind_proxy(app: Flask) -> None:
    """Trust X-Forwarded-* from as many proxies as configured (none by default:
    without a proxy of ours in front, anyone could set those headers)."""
    hops = {part: app.config[f"PROXY_FIX_X_{part.upper()}"] for part in ("for", "proto", "host")}
    if any(hops.values()):
        # Flask's way to put middleware in front: the instance's wsgi_app
        # shadows the method (through vars(): mypy forbids patching a method).
        vars(app)["wsgi_app"] = ProxyFix(
            app.wsgi_app,
            x_for=hops["for"],
            x_proto=hops["proto"],
            x_host=hops["host"],
            x_port=0,
            x_prefix=0,
        )

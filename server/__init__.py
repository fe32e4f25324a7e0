"""The pbem web server: ``create_app`` builds the Flask app (Flask tutorial
layout: one blueprint per area, services in plain modules)."""
from __future__ import annotations

import datetime as dt

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from server import settings as settings_module

csrf = CSRFProtect()


def create_app(test_config: dict | None = None) -> Flask:
    settings = settings_module.load(overrides=test_config)
    app = Flask(__name__, instance_path=settings["INSTANCE_PATH"])
    app.config.update(settings)
    app.config["PERMANENT_SESSION_LIFETIME"] = dt.timedelta(
        days=settings["PERMANENT_SESSION_LIFETIME_DAYS"])
    app.config["REMEMBER_COOKIE_DURATION"] = dt.timedelta(
        days=settings["REMEMBER_COOKIE_DURATION_DAYS"])

    from server import auth, db, devmail, errors, lobby, moderation, play, prefs
    from server.mail import Mailer

    db.init_app(app)
    csrf.init_app(app)
    auth.init_app(app)
    errors.init_app(app)
    app.extensions["pbem_mailer"] = Mailer(app.config)
    app.register_blueprint(auth.bp)
    app.register_blueprint(lobby.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(prefs.bp)
    moderation.init_app(app)
    if app.config["MAIL_CATCHER_DIR"]:
        app.register_blueprint(devmail.bp)
    return app

"""Rate limits (Flask-Limiter) on what a stranger can repeat to guess a
password or to make the server mail somebody: signing in, signing up, reset,
invitations, new seat links.  Counted per client address and per typed email
address; the limits are settings (RATELIMIT_*), and RATELIMIT_STORAGE_URI
points at a store the web workers share (Redis) when there are several."""
from __future__ import annotations

from flask import current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from flask_login import current_user

from server.services.accounts import normal_email
from server.web.errors import page

limiter = Limiter(key_func=get_remote_address)


def setting(name: str):
    return lambda: current_app.config[name]


def typed_address() -> str:
    return "address:" + normal_email(request.form.get("email", ""))[:254]


def signed_in_user() -> str:
    return f"user:{current_user.id if current_user.is_authenticated else request.remote_addr}"


def per_client(name: str):
    return limiter.limit(setting(name), methods=["POST"])


def per_address(name: str, scope: str):
    """Shared by every route that mails or checks the typed address."""
    return limiter.shared_limit(setting(name), scope=scope, key_func=typed_address,
                                methods=["POST"])


def per_user(name: str):
    return limiter.limit(setting(name), key_func=signed_in_user, methods=["POST"])


def init_app(app) -> None:
    limiter.init_app(app)

    @app.errorhandler(RateLimitExceeded)
    def too_many(exc):
        return page(429, "Too many attempts in a short time. Wait a while and try again; "
                         "nothing was changed.")

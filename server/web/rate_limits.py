"""Rate limits (Flask-Limiter) on what a stranger can repeat to guess a
password or to make the server mail somebody: signing in, signing up, reset,
invitations, new seat links.  The limits are settings (RATELIMIT_*).

Signing in is limited three ways, each counting failed attempts:
- per client (RATELIMIT_SIGNIN_PER_CLIENT): one machine guessing many accounts;
- per client and typed address (RATELIMIT_SIGNIN_PER_CLIENT_ADDRESS): one
  machine guessing one account;
- per typed address (RATELIMIT_SIGNIN_PER_ADDRESS), higher, and only for
  browsers that have not signed in to that address before (a signed
  "known browser" cookie set at each sign-in): many machines guessing one
  account.  A stranger's wrong passwords can thus never lock the owner out of
  the browser they use.

The counts live where every web worker sees them: the site's database by
default (web/rate_store.py), or Redis (RATELIMIT_STORAGE_URI=redis://…).
``memory://`` counts in each process apart; the start logs a warning then.
"""

from __future__ import annotations

import hashlib
import logging
from functools import partial

import flask_limiter
from flask import after_this_request, current_app, request
from flask.globals import request_ctx
from flask_limiter import RateLimitExceeded
from flask_limiter.util import get_remote_address
from flask_login import current_user
from itsdangerous import BadSignature, URLSafeSerializer

from server.services.accounts import normal_email
from server.web import rate_store  # noqa: F401  (registers the pbem-db:// store)
from server.web.errors import page


class Limiter(flask_limiter.Limiter):
    """Flask-Limiter, minus its work on the requests no limit here concerns.

    Its hook before every request looks for the limits it applies there:
    application, default and meta limits, an in-memory fallback (this site
    sets none) and blueprint limits (the API's).  Every other limit is a
    decorator on its view, checked when the view runs.  Yet the hook
    resolved and filtered an empty list on every request (a quarter of
    /healthz's time).  It now runs only where such a limit may apply; the
    decorators' own checks are as before."""

    def _check_request_limit(self, callable_name=None, in_middleware=True) -> None:
        if in_middleware and not self.may_apply_here():
            return
        super()._check_request_limit(callable_name, in_middleware)

    def may_apply_here(self) -> bool:
        """Whether the hook before this request may have a limit to check.
        Read from Flask-Limiter's own state each time (a limit added later
        counts); a name it no longer has counts as a limit (the hook runs)."""
        manager = self.limit_manager
        if any(
            getattr(owner, name, True)
            for owner, name in (
                (manager, "_application_limits"),
                (manager, "_default_limits"),
                (self, "_meta_limits"),
                (self, "_in_memory_fallback_enabled"),
            )
        ):
            return True
        # Flask-Limiter applies the limits of the request's blueprint and of
        # the blueprints it is nested in (named by the parts of its name).
        limited = getattr(manager, "_blueprint_limits", None)
        if not isinstance(limited, dict):
            return True
        return any(part in limited for part in (request.blueprint or "").split("."))


limiter = Limiter(key_func=get_remote_address)
log = logging.getLogger("pbem.web")
KNOWN_COOKIE = "pbem_known"
KNOWN_KEEP = 5  # addresses a browser is remembered for
KNOWN_DAYS = 365


def setting(name: str):
    return lambda: current_app.config[name]


def typed_address() -> str:
    return "address:" + normal_email(request.form.get("email", ""))[:254]


def client_and_address() -> str:
    return f"{get_remote_address()}|{typed_address()}"


def signed_in_user() -> str:
    return f"user:{current_user.id if current_user.is_authenticated else request.remote_addr}"


def failed(response) -> bool:
    """A sign-in that did not get through: the form came back with errors."""
    return response.status_code == 400


def per_client(name: str):
    return limiter.limit(setting(name), methods=["POST"])


def per_address(name: str, scope: str):
    """Shared by every route that mails or checks the typed address."""
    return limiter.shared_limit(
        setting(name), scope=scope, key_func=typed_address, methods=["POST"]
    )


def per_user(name: str):
    return limiter.limit(setting(name), key_func=signed_in_user, methods=["POST"])


def sign_in_limits(view):
    """The three sign-in limits of the module's docstring."""
    view = limiter.limit(
        setting("RATELIMIT_SIGNIN_PER_CLIENT"), methods=["POST"], deduct_when=failed
    )(view)
    view = limiter.limit(
        setting("RATELIMIT_SIGNIN_PER_CLIENT_ADDRESS"),
        methods=["POST"],
        key_func=client_and_address,
        deduct_when=failed,
    )(view)
    return limiter.shared_limit(
        setting("RATELIMIT_SIGNIN_PER_ADDRESS"),
        scope="signin-address",
        key_func=typed_address,
        methods=["POST"],
        deduct_when=failed,
        exempt_when=known_browser,
    )(view)


# -- the "known browser" cookie -------------------------------------------------
def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="pbem-known-browser")


def _mark(email: str) -> str:
    return hashlib.sha256(normal_email(email).encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _known_marks() -> list[str]:
    try:
        marks = _serializer().loads(request.cookies.get(KNOWN_COOKIE, ""))
    except BadSignature:
        return []
    return [m for m in marks if isinstance(m, str)] if isinstance(marks, list) else []


def known_browser() -> bool:
    """Whether this browser has signed in to the typed address before."""
    return _mark(request.form.get("email", "")[:254]) in _known_marks()


def remember_sign_in(email: str) -> None:
    """Mark this browser as one its owner signs in from (see the docstring)."""
    marks = [_mark(email)] + [m for m in _known_marks() if m != _mark(email)]

    @after_this_request
    def set_cookie(response):
        response.set_cookie(
            KNOWN_COOKIE,
            _serializer().dumps(marks[:KNOWN_KEEP]),
            max_age=KNOWN_DAYS * 24 * 3600,
            httponly=True,
            samesite="Lax",
            secure=current_app.config["SESSION_COOKIE_SECURE"],
        )
        return response


def init_app(app) -> None:
    limiter.init_app(app)
    only_after_a_check(app)
    if app.config["RATELIMIT_STORAGE_URI"].startswith("memory:"):
        log.warning(
            "RATELIMIT_STORAGE_URI=%s counts in each process apart: with several "
            "web workers every limit is that many times higher. Leave it unset (the "
            "database counts) or point it at Redis.",
            app.config["RATELIMIT_STORAGE_URI"],
        )

    @app.errorhandler(RateLimitExceeded)
    def too_many(exc):
        return page(
            429,
            "Too many attempts in a short time. Wait a while and try again; nothing was changed.",
        )


def only_after_a_check(app) -> None:
    """Flask-Limiter's hooks after each request (deductions that depend on
    the answer, rate-limit headers) and at its end (forget the request's
    limits) read what a check during the request left; a request that
    checked no limit left nothing, so they are skipped there."""
    after = app.after_request_funcs[None]
    for at, hook in enumerate(after):
        if isinstance(hook, partial) and hook.args == (limiter,):
            after[at] = partial(_after_a_check, hook)
    teardown = app.teardown_request_funcs[None]
    for at, hook in enumerate(teardown):
        if getattr(hook, "__self__", None) is limiter:
            teardown[at] = partial(_after_a_check, hook)


def _after_a_check(hook, value):
    """``hook(value)`` when a limit was checked in this request, else ``value``
    (the response, or the teardown's exception, which it ignores)."""
    if hasattr(request_ctx, "_limiter_request_context"):  # Flask-Limiter's
        return hook(value)
    return value

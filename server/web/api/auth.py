"""Who calls the API: the bearer of a personal access token, and nothing
else.  Cookies are not read here, so a browser session can neither read
nor write through the API (and the API needs no CSRF token); the caller is
``g.api_user``, never flask-login's ``current_user``, so a token never
carries moderator powers."""

from __future__ import annotations

from functools import wraps

from flask import abort, current_app, g, request
from limits import parse_many

from engine.words import N_
from server.services import api_tokens
from server.web import rate_limits

NO_TOKEN = N_("Send a personal access token (Settings) as 'Authorization: Bearer <token>'.")
BAD_TOKEN = N_("This token is not valid: it is unknown, expired or revoked.")
TOO_MANY_FAILURES = N_(
    "Too many requests without a valid token from this address. Wait a while and try again."
)
TOO_MANY_REQUESTS = N_(
    "Too many attempts in a short time. Wait a while and try again; nothing was changed."
)


def bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def authenticate() -> None:
    """Every API request (a before_request of the API's blueprints).  A client
    that failed too often is refused before its token is even looked up, and
    its failures are one count per client address, not one per made-up
    token; a good token then counts against its own limit."""
    client = rate_limits.get_remote_address()
    if not allowed("RATELIMIT_API_AUTH_FAILURES", "api-auth-failed", client, count=False):
        abort(429, TOO_MANY_FAILURES)
    token = bearer()
    row = api_tokens.find(token) if token is not None else None
    if row is None:
        allowed("RATELIMIT_API_AUTH_FAILURES", "api-auth-failed", client)
        abort(401, NO_TOKEN if token is None else BAD_TOKEN)
    if not allowed("RATELIMIT_API_PER_TOKEN", "api-token", row.token_hash[:32]):
        abort(429, TOO_MANY_REQUESTS)
    g.api_token, g.api_user = row, row.user


def allowed(setting: str, scope: str, key: str, count: bool = True) -> bool:
    """Whether ``key`` is within every window of the limit ``setting`` in the
    site's rate-limit store; ``count`` adds this request to each window."""
    if not rate_limits.limiter.enabled:
        return True
    strategy = rate_limits.limiter.limiter
    key = f"{current_app.config['RATELIMIT_KEY_PREFIX']}/{scope}/{key}"
    check = strategy.hit if count else strategy.test
    return all([check(item, key) for item in parse_many(current_app.config[setting])])


def needs(scope: str):
    def decorate(view):
        @wraps(view)
        def checked(*args, **kwargs):
            if scope not in g.api_token.scopes:
                abort(403, SCOPE_MESSAGES[scope])
            return view(*args, **kwargs)

        return checked

    return decorate


SCOPE_MESSAGES = {
    "read": N_("This token may not read (it lacks the 'read' scope)."),
    "play": N_("This token may not play (it lacks the 'play' scope)."),
    "lobby": N_("This token may not act in the lobby (it lacks the 'lobby' scope)."),
}

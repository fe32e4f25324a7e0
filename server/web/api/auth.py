"""Who calls the API: the bearer of a personal access token, and nothing
else.  Cookies are not read here, so a browser session can neither read
nor write through the API (and the API needs no CSRF token); the caller is
``g.api_user``, never flask-login's ``current_user``, so a token never
carries moderator powers."""

from __future__ import annotations

from functools import wraps

from flask import abort, g, request

from engine.words import N_
from server.services import api_tokens
from server.web import rate_limits

NO_TOKEN = N_("Send a personal access token (Settings) as 'Authorization: Bearer <token>'.")
BAD_TOKEN = N_("This token is not valid: it is unknown, expired or revoked.")


def bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def authenticate() -> None:
    """Every API request (a before_request of the API's blueprints)."""
    token = bearer()
    if token is None:
        abort(401, NO_TOKEN)
    row = api_tokens.find(token)
    if row is None:
        abort(401, BAD_TOKEN)
    g.api_token, g.api_user = row, row.user


def token_key() -> str:
    """The rate limits count per token (per client when there is none)."""
    token = bearer()
    return "token:" + api_tokens.digest(token)[:32] if token else rate_limits.get_remote_address()


def per_token(bp) -> None:
    """One count per token over every API operation (a shared scope)."""
    rate_limits.limiter.shared_limit(
        rate_limits.setting("RATELIMIT_API_PER_TOKEN"), scope="api-token", key_func=token_key
    )(bp)


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

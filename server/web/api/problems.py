"""The API's errors as RFC 9457 problem details (application/problem+json),
with the same messages the pages show, in the token owner's language."""

from __future__ import annotations

import json

from flask import current_app, g, request
from flask_limiter import RateLimitExceeded
from peewee import InterfaceError, InternalError, OperationalError
from werkzeug.exceptions import HTTPException

from engine import IllegalMove
from engine.words import N_, Words, term
from server.db import CommitUnknown
from server.i18n import DEFAULT, LANGUAGES, known, say
from server.services.moves import MoveRejected
from server.web.api.schemas import Problem
from server.web.errors import TITLES, allowed_methods, said

MEDIA_TYPE = "application/problem+json"
# What any operation may answer besides its success: the OpenAPI document says so.
CODES = {
    400: "Not understood",
    401: "No valid token",
    403: "Not allowed",
    404: "Not found",
    409: "Conflict (a stale seq)",
    422: "Invalid input",
    429: "Too many requests",
    503: "The database is unavailable",
}


def documented(bp):
    """Decorator: the operation's problem answers, in the OpenAPI document."""

    def decorate(view):
        for code, text in CODES.items():
            view = bp.alt_response(code, schema=Problem, content_type=MEDIA_TYPE, description=text)(
                view
            )
        return view

    return decorate


def language() -> str:
    user = g.get("api_user")
    code = known(user.language) if user is not None else None
    if code:
        return code
    return request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT)


def words(text) -> str:
    """An engine's or a service's message in the reader's language."""
    return say(language(), text if isinstance(text, Words) else term(str(text)))


def problem(status: int, detail, errors: dict | None = None, headers: dict | None = None):
    title = {401: N_("No valid token"), 422: TITLES[400]}.get(status) or TITLES.get(status)
    body = {
        "type": "about:blank",
        "title": words(title or N_("Error")),
        "status": status,
        "detail": words(detail or ""),
    }
    if errors:
        body["errors"] = errors
    response = current_app.response_class(json.dumps(body), status=status, mimetype=MEDIA_TYPE)
    response.headers.update(headers or {})
    return response


def from_http(exc: HTTPException):
    data = getattr(exc, "data", None) or {}
    errors = data.get("messages") or data.get("errors")
    headers = dict(data.get("headers") or {}, **allowed_methods(exc))
    if exc.code == 401:
        headers["WWW-Authenticate"] = "Bearer"
    detail = exc.description or ""
    if exc.code == 422:
        detail = N_("The request was not understood; see errors.")
    return problem(exc.code or 500, detail, errors if isinstance(errors, dict) else None, headers)


def init_blueprint(bp) -> None:
    @bp.errorhandler(MoveRejected)
    def rejected(exc):
        return problem(exc.status, said(exc))

    @bp.errorhandler(IllegalMove)
    def illegal(exc):
        return problem(400, said(exc))

    @bp.errorhandler(RateLimitExceeded)
    def too_many(exc):
        return problem(
            429,
            N_(
                "Too many attempts in a short time. Wait a while and try again; "
                "nothing was changed."
            ),
            headers={"Retry-After": "60"},
        )

    bp.errorhandler(HTTPException)(from_http)

    @bp.errorhandler(OperationalError)
    @bp.errorhandler(InterfaceError)
    @bp.errorhandler(InternalError)
    @bp.errorhandler(CommitUnknown)
    def database_trouble(exc):
        current_app.logger.error(
            "database unavailable (503) on %s %s: %s",
            request.method,
            request.path,
            exc.__class__.__name__,
        )
        return problem(
            503, N_("The database cannot be reached at the moment."), headers={"Retry-After": "30"}
        )

    @bp.errorhandler(Exception)
    def unexpected(exc):
        current_app.logger.exception("unhandled error")
        return problem(500, N_("Something went wrong on our side; nothing was changed."))

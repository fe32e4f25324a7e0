"""Error pages: every bad request gets a page that says what happened, with
the right status; nothing a visitor sends should end in a 500."""

from __future__ import annotations

from flask import g, render_template, request
from flask_wtf.csrf import CSRFError
from peewee import InterfaceError, InternalError, OperationalError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge

from engine import IllegalMove
from engine.words import N_, msg
from server.db import CommitUnknown, saved_since_forget
from server.services.moves import MoveRejected, StaleMove
from server.web.languages import say_here

TITLES = {
    400: N_("That request was not understood"),
    403: N_("Not allowed"),
    404: N_("Not found"),
    405: N_("Not allowed here"),
    409: N_("Conflict"),
    410: N_("This link is no longer valid"),
    413: N_("Too large"),
    429: N_("Too many attempts"),
    500: N_("Server error"),
    503: N_("The database is unavailable"),
}
DESCRIPTIONS = {
    404: N_("There is nothing at this address: check the link, or start from the front page."),
    405: N_("This address does not take that kind of request."),
    413: N_("What was sent is too large."),
    429: N_("Too many attempts: wait a little, then try again."),
    400: N_("The request could not be read."),
    403: N_("You may not do or see this."),
}
# A database that is gone, full or read-only: what the page says (matched on
# the driver's message: SQLite's and PostgreSQL's words for each).
READ_ONLY = ("readonly", "read-only")
FULL = ("disk is full", "no space left", "disk i/o error", "could not extend", "quota")
RETRY_AFTER = "30"  # seconds: a restart or a failover usually takes that


def page(status: int, message: str, template: str = "errors/error.html", **extra):
    title, message = readable(TITLES.get(status, N_("Error"))), readable(message)
    extra.setdefault("unchanged", True)
    return render_template(template, status=status, title=title, message=message, **extra), status


def allowed_methods(exc: HTTPException) -> dict:
    """A 405's ``Allow`` header (RFC 9110 wants it), which a handler that
    builds its own answer would otherwise drop."""
    methods = getattr(exc, "valid_methods", None) if isinstance(exc, MethodNotAllowed) else None
    return {"Allow": ", ".join(sorted(methods))} if methods else {}


def said(exc: Exception) -> str:
    """An exception's message as raised: ``Words`` keep their template (str()
    would leave only the English)."""
    return exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)


def readable(text: str) -> str:
    """``text`` in the reader's language when the catalogs hold it (the
    messages marked ``N_`` where they are raised), else as it is.  An error
    page must come out even when the reader's settings cannot be read."""
    try:
        return say_here(text)
    except Exception:  # noqa: BLE001 - e.g. the database is down: say it in English
        return str(text)


def init_app(app, elsewhere: dict | None = None) -> None:
    """``elsewhere`` maps a path prefix to the handler that answers an HTTP
    error under it in its own form (the API's problem details): handed in by
    the app factory, since the API's modules import this one."""
    elsewhere = elsewhere or {}

    @app.errorhandler(StaleMove)
    def stale(exc):
        game_id = (request.view_args or {}).get("game_id")
        return page(409, str(exc), "errors/stale.html", game_id=game_id)

    @app.errorhandler(MoveRejected)
    def rejected(exc):
        return page(exc.status, said(exc), game_id=(request.view_args or {}).get("game_id"))

    @app.errorhandler(IllegalMove)
    def illegal(exc):
        return page(400, said(exc), game_id=(request.view_args or {}).get("game_id"))

    @app.errorhandler(CSRFError)
    def csrf(exc):
        return page(
            400,
            N_(
                "This form is out of date or was opened in another browser "
                "session. Go back, reload the page and try again."
            ),
        )

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc):
        # Also raised for too many parts or too much form memory, under the limit.
        return page(
            413,
            msg(
                "That form sent more than this server accepts (at most "
                "%(bytes)s bytes); it was not read.",
                bytes=f"{app.config['MAX_CONTENT_LENGTH'] or 0:,}",
            ),
        )

    @app.errorhandler(HTTPException)
    def http(exc):
        for prefix, answer in elsewhere.items():  # e.g. no such API operation: not a page
            if request.path.startswith(prefix):
                return answer(exc)
        # Werkzeug's own description is English: ours instead.
        told = exc.description if exc.description != type(exc).description else ""
        body, status = page(exc.code or 500, told or DESCRIPTIONS.get(exc.code, ""))
        return body, status, allowed_methods(exc)

    @app.errorhandler(OperationalError)
    @app.errorhandler(InterfaceError)
    @app.errorhandler(InternalError)
    @app.errorhandler(CommitUnknown)
    def database_trouble(exc):
        if isinstance(exc, InternalError) and trouble(exc) == "unreachable":
            return unexpected(exc)  # e.g. an aborted transaction: a bug, not an outage
        return unavailable(app, exc)

    @app.errorhandler(Exception)
    def unexpected(exc):
        if commit_unknown(exc):  # e.g. the ROLLBACK after a failed COMMIT failed too
            return unavailable(app, exc)
        app.logger.exception("unhandled error")
        if saved_since_forget():
            return page(
                500,
                N_("Something went wrong on our side; part of what you asked may have been saved."),
                unchanged=False,
            )
        return page(500, N_("Something went wrong on our side; nothing was changed."))


def commit_unknown(exc: BaseException | None) -> bool:
    """Whether a COMMIT (or an autocommitted write) failed somewhere in the
    chain of exceptions that led to ``exc``."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, CommitUnknown):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def unavailable(app, exc: Exception):
    """503 with a page that says what happened: the database is unreachable,
    full or read-only; or the connection broke during a COMMIT, and then
    nobody knows whether the change was saved: the page links the game,
    where a form sent again is refused as stale if it was."""
    app.logger.error(
        "database unavailable (503) on %s %s: %s: %s",
        request.method,
        request.path,
        exc.__class__.__name__,
        (str(exc).splitlines() or [""])[0],
    )
    _anonymous_if_unread(app)
    game_id = (request.view_args or {}).get("game_id")
    if commit_unknown(exc):
        body, status = page(
            503,
            N_(
                "The connection to the database broke while your change "
                "was being saved, so we cannot tell whether it was."
            ),
            "errors/unknown.html",
            game_id=game_id,
        )
    else:
        body, status = page(
            503,
            SAYS[trouble(exc)],
            "errors/unavailable.html",
            game_id=game_id,
            unchanged=not saved_since_forget(),
        )
    return body, status, {"Retry-After": RETRY_AFTER}


SAYS = {
    "read-only": N_(
        "The database is read-only at the moment: nothing can be saved until it is writable again."
    ),
    "full": N_(
        "The database has no room left (its disk is full): nothing can be "
        "saved until space is freed."
    ),
    "unreachable": N_("The database cannot be reached at the moment."),
}


def trouble(exc: Exception) -> str:
    """What a database error says happened: read-only, full or unreachable."""
    text = str(exc).lower()
    if any(word in text for word in READ_ONLY):
        return "read-only"
    if any(word in text for word in FULL):
        return "full"
    return "unreachable"


def _anonymous_if_unread(app) -> None:
    """The page must not need the database: a reader not loaded yet is shown
    the page as a visitor (the account would be read from the database)."""
    if "_login_user" not in g:
        g._login_user = app.login_manager.anonymous_user()


def link_error(exc):
    """The page for a mail link that cannot be used (``mail.links.LinkError``)."""
    status = 404 if exc.reason == "invalid" else 410
    return render_template("errors/link.html", reason=exc.reason), status

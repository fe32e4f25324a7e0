"""Error pages: every bad request gets a page that says what happened, with
the right status; nothing a visitor sends should end in a 500."""
from __future__ import annotations

from flask import render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from engine import IllegalMove
from engine.words import N_, msg
from server.services.moves import MoveRejected, StaleMove
from server.web.languages import say_here

TITLES = {400: N_("That request was not understood"), 403: N_("Not allowed"),
          404: N_("Not found"), 405: N_("Not allowed here"), 409: N_("Conflict"),
          410: N_("This link is no longer valid"), 413: N_("Too large"),
          429: N_("Too many attempts"), 500: N_("Server error")}


def page(status: int, message: str, template: str = "errors/error.html", **extra):
    title, message = readable(TITLES.get(status, N_("Error"))), readable(message)
    return render_template(template, status=status, title=title, message=message,
                           **extra), status


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
    except Exception:       # noqa: BLE001 - e.g. the database is down: say it in English
        return str(text)


def init_app(app) -> None:
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
        return page(400, N_("This form is out of date or was opened in another browser "
                            "session. Go back, reload the page and try again."))

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc):
        # Also raised for too many parts or too much form memory, under the limit.
        return page(413, msg("That form sent more than this server accepts (at most "
                             "%(bytes)s bytes); it was not read.",
                             bytes=f"{app.config['MAX_CONTENT_LENGTH'] or 0:,}"))

    @app.errorhandler(HTTPException)
    def http(exc):
        return page(exc.code or 500, exc.description or "")

    @app.errorhandler(Exception)
    def unexpected(exc):
        app.logger.exception("unhandled error")
        return page(500, N_("Something went wrong on our side; nothing was changed."))


def link_error(exc):
    """The page for a mail link that cannot be used (``mail.links.LinkError``)."""
    status = 404 if exc.reason == "invalid" else 410
    return render_template("errors/link.html", reason=exc.reason), status

"""Error pages: every bad request gets a page that says what happened, with
the right status; nothing a visitor sends should end in a 500."""
from __future__ import annotations

from flask import render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from engine import IllegalMove
from server.services.moves import MoveRejected, StaleMove

TITLES = {400: "That request was not understood", 403: "Not allowed",
          404: "Not found", 405: "Not allowed here", 409: "Conflict",
          410: "This link is no longer valid", 413: "Too large", 429: "Too many attempts",
          500: "Server error"}


def page(status: int, message: str, template: str = "errors/error.html", **extra):
    title = TITLES.get(status, "Error")
    return render_template(template, status=status, title=title, message=message,
                           **extra), status


def init_app(app) -> None:
    @app.errorhandler(StaleMove)
    def stale(exc):
        game_id = (request.view_args or {}).get("game_id")
        return page(409, str(exc), "errors/stale.html", game_id=game_id)

    @app.errorhandler(MoveRejected)
    def rejected(exc):
        return page(exc.status, str(exc), game_id=(request.view_args or {}).get("game_id"))

    @app.errorhandler(IllegalMove)
    def illegal(exc):
        return page(400, str(exc), game_id=(request.view_args or {}).get("game_id"))

    @app.errorhandler(CSRFError)
    def csrf(exc):
        return page(400, "This form is out of date or was opened in another browser "
                         "session. Go back, reload the page and try again.")

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc):
        # Also raised for too many parts or too much form memory, under the limit.
        return page(413, "That form sent more than this server accepts "
                         f"(at most {app.config['MAX_CONTENT_LENGTH'] or 0:,} bytes); "
                         "it was not read.")

    @app.errorhandler(HTTPException)
    def http(exc):
        return page(exc.code or 500, exc.description or "")

    @app.errorhandler(Exception)
    def unexpected(exc):
        app.logger.exception("unhandled error")
        return page(500, "Something went wrong on our side; nothing was changed.")


def link_error(exc):
    """The page for a mail link that cannot be used (``mail.links.LinkError``)."""
    status = 404 if exc.reason == "invalid" else 410
    return render_template("errors/link.html", reason=exc.reason), status

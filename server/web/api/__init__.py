"""The open API under /api/v1 (flask-smorest): JSON for programs and bots,
authenticated by personal access tokens (web/api/auth.py), described by an
OpenAPI 3.1 document generated from the schemas (/api/v1/openapi.json) and
a plain page listing the operations (/api/v1/docs: no script, so the site's
CSP holds).  Errors are problem details (web/api/problems.py).

Part of the web layer: it may import services/, mail/ and the bottom."""

from __future__ import annotations

import json

from flask import abort, request
from flask_smorest import Api

from engine.words import N_
from server.web.api import auth, docs, lobby_api, problems, routes
from server.web.protection import csrf

BLUEPRINTS = (routes.bp, lobby_api.bp)
DEEPEST = 8  # levels of nesting a request body may have (actions nest two)
NOT_JSON = N_("The request body is not the JSON this operation takes.")


class PbemApi(Api):
    """flask-smorest's Api, without its app-wide error handler: the pages
    keep their own; the API's blueprints answer problem details."""

    def _register_error_handlers(self):
        pass


PbemApi.DEFAULT_ERROR_RESPONSE_NAME = None  # problems are documented per operation


def _set_up(bp) -> None:
    """Once per blueprint (at import: several apps may register it)."""
    csrf.exempt(bp)  # cookies are not read there: nothing to forge
    bp.before_request(auth.authenticate)
    bp.before_request(readable_body)
    problems.init_blueprint(bp)


def init_app(app) -> None:
    app.config.update(
        API_TITLE="pbem",
        API_VERSION="v1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/api/v1",
        OPENAPI_JSON_PATH="openapi.json",
    )
    api = PbemApi()
    api.init_app(
        app,
        spec_kwargs={
            "info": {
                "description": "Play by API: a personal access token from Settings, sent "
                "as 'Authorization: Bearer <token>'."
            },
            "security": [{"bearer": []}],
        },
    )
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for bp in BLUEPRINTS:
        api.register_blueprint(bp)
    app.register_blueprint(docs.bp)


def readable_body():
    """A body that is JSON of sane depth, or none; json would raise
    RecursionError (not a ValueError) on deep nesting."""
    if request.method != "POST":
        return
    data = request.get_data(cache=True)  # bounded by MAX_CONTENT_LENGTH
    if not data:
        return
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):
        abort(400, NOT_JSON)
    if nested(body, DEEPEST):
        abort(400, NOT_JSON)


def nested(value, levels: int) -> bool:
    """Whether ``value`` nests deeper than ``levels`` (without recursing further)."""
    if not isinstance(value, (dict, list)):
        return False
    children = value.values() if isinstance(value, dict) else value
    return levels == 0 or any(nested(child, levels - 1) for child in children)


for _bp in BLUEPRINTS:
    _set_up(_bp)

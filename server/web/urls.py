"""``url_for`` for the templates, remembering the links it built.

A game page asks for about thirty links (the menu, the stylesheet, the
game's pages, one per line of its log), each built anew by Werkzeug's
router (about 4 µs).  A link inside a request depends only on the
endpoint, its values and where the request stands (the mount point the
proxy gives, SCRIPT_NAME; the host, subdomain and scheme it was asked
under): the
rules are fixed once the app serves, and the app has no ``url_defaults``
functions (checked at each call: with one, every link is built as
Flask builds it).  Anything else (an external link, an anchor, a scheme,
a value that is not a plain string or number, no request) goes to Flask's
``url_for`` as before.
"""

from __future__ import annotations

from flask import has_request_context, url_for
from flask.globals import request_ctx

LIMIT = 4096  # links remembered; past it the memory starts afresh
_built: dict[tuple, str] = {}


def page_url_for(endpoint: str, /, **values) -> str:
    """``url_for(endpoint, **values)``, the same link, from memory when it was built before."""
    key = _key(endpoint, values)
    if key is None:
        return url_for(endpoint, **values)
    link = _built.get(key)
    if link is None:
        if len(_built) >= LIMIT:
            _built.clear()
        link = _built[key] = url_for(endpoint, **values)
    return link


def _key(endpoint: str, values: dict) -> tuple | None:
    """What the link depends on, or None when it is not this module's to remember."""
    if endpoint[:1] == "." or not has_request_context():
        return None
    here = request_ctx._get_current_object()  # once: each use of the proxy finds it anew
    if here.app.url_default_functions:
        return None
    for name, value in values.items():
        # _external, _anchor, _scheme, _method; a value that may be a list,
        # or may be built differently each time (a converter's to_url).
        if name[:1] == "_" or type(value) not in (str, int):
            return None
    adapter = here.url_adapter
    return (
        adapter.script_name,
        adapter.server_name,
        adapter.subdomain,
        adapter.url_scheme,
        endpoint,
        *values.items(),
    )


def init_app(app) -> None:
    app.jinja_env.globals["url_for"] = page_url_for

"""``url_for`` for the templates, remembering the links it built.

A game page asks for about thirty links (the menu, the stylesheet, the
game's pages, one per line of its log), each built anew by Werkzeug's
router (about 4 µs).  A link inside a request depends only on the
endpoint, its values and where the request stands (the mount point the
proxy gives, SCRIPT_NAME; the host, subdomain and scheme it was asked
under): the
rules are fixed once the app serves, and the app has no ``url_defaults``
functions but the static files' (checked at each call: with another, every
link is built as Flask builds it).  A static file's link is always built
by Flask: it carries the hash of the file as it is now (web/static_files.py).
Anything else (an external link, an anchor, a scheme, a value that is not
a plain string or number, no request) goes to Flask's ``url_for`` as before.
"""

from __future__ import annotations

from collections.abc import Callable

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


# Two numbers no link holds otherwise, for link_maker's trial builds.
_STAND_INS = (7_919_000_001, 7_919_000_002)


def link_maker(endpoint: str, name: str, /, **values) -> Callable[[int], str]:
    """A function of n that gives ``page_url_for(endpoint, **values, name=n)``
    for an int n: a game page links each of its log lines to its position,
    fifteen links that differ in one number.  The link is built twice, with
    two stand-ins; when they differ only where the stand-in stands, each
    link is that text with n in its place (a few hundred ns, not a build by
    the router that no memory would find again).  Otherwise each is built."""
    first, second = (page_url_for(endpoint, **values, **{name: n}) for n in _STAND_INS)
    head, found, tail = first.partition(str(_STAND_INS[0]))
    if found and f"{head}{_STAND_INS[1]}{tail}" == second and str(_STAND_INS[0]) not in tail:
        return lambda n: f"{head}{int(n)}{tail}"
    return lambda n: page_url_for(endpoint, **values, **{name: n})


def _key(endpoint: str, values: dict) -> tuple | None:
    """What the link depends on, or None when it is not this module's to remember."""
    if endpoint[:1] == "." or endpoint == "static" or not has_request_context():
        return None
    here = request_ctx._get_current_object()  # once: each use of the proxy finds it anew
    if any(
        not getattr(f, "static_only", False)
        for fs in here.app.url_default_functions.values()
        for f in fs
    ):
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

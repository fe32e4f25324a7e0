"""The web's speed-ups, in one place, each the same answer as Flask's own
way, faster; ``PBEM_SPEEDUPS=0`` turns every one off (tests/server/web/
test_speedups.py plays the same game both ways and compares every page).

- ``App``: Flask asks of every hook and view, a dozen times a request,
  whether it is ``async``; a function's answer never changes, so it is asked
  once.
- ``CookieSessions``: Flask's signed-cookie sessions, with the signing
  serializer made once per secret key rather than twice a request.
- ``page_url_for`` (the templates' ``url_for``) remembers the links it
  built, and ``link_maker`` builds a family of links that differ in one
  number (a game page's log lines) as text.  A link inside a request depends
  only on the endpoint, its values and where the request stands (the mount
  point the proxy gives, SCRIPT_NAME; the host, subdomain and scheme it was
  asked under): the rules are fixed once the app serves, and the app has no
  ``url_defaults`` functions but the static files' (checked at each call:
  with another, every link is built as Flask builds it).  A static file's
  link is always built by Flask: it carries the hash of the file as it is
  now (web/static_files.py).  Anything else (an external link, an anchor, a
  scheme, a value that is not a plain string or number, no request) goes to
  Flask's ``url_for``.

(services/model_rows.py, which makes rows into models without peewee's
per-row work, is below the web and has its own test against peewee.)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from inspect import iscoroutinefunction

from flask import Flask, current_app, has_request_context, url_for
from flask.globals import request_ctx
from flask.sessions import SecureCookieSessionInterface


def on(settings) -> bool:
    return bool(settings["PBEM_SPEEDUPS"])


def app_class(settings) -> type[Flask]:
    return App if on(settings) else Flask


def sessions(app: Flask, settings) -> None:
    if on(settings):
        app.session_interface = CookieSessions()


def init_app(app: Flask) -> None:
    if on(app.config):
        app.jinja_env.globals["url_for"] = page_url_for


class App(Flask):
    """Flask, asking once per function whether it is ``async``: Flask asks
    for every hook and view of every request (a dozen times each), and a
    function's answer never changes."""

    def ensure_sync(self, func):
        try:
            is_async = _is_async(func)
        except TypeError:  # a callable that cannot be a cache key
            return super().ensure_sync(func)
        return self.async_to_sync(func) if is_async else func


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with the signing serializer made once
    per secret key rather than to read and again to write each request's
    cookie (it keeps nothing of a request)."""

    def __init__(self) -> None:
        self._made: tuple = ((), None)

    def get_signing_serializer(self, app):
        if not app.secret_key:
            return None
        keys = (*(app.config["SECRET_KEY_FALLBACKS"] or ()), app.secret_key)
        if self._made[0] != keys:
            self._made = (keys, super().get_signing_serializer(app))
        return self._made[1]


# Hooks and views are a few hundred at most; an after_this_request function
# is new in each request and only passes through.
@lru_cache(maxsize=512)
def _is_async(func) -> bool:
    return iscoroutinefunction(func)


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
    if not on(current_app.config):
        return lambda n: url_for(endpoint, **{**values, name: n})
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

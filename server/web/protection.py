"""Protection every page shares: the CSRF token on every POST, a request body
that parses before anything reads it, bounded ids in URLs, and the headers
that keep a browser from running, framing or leaking what it should not."""

from __future__ import annotations

from flask import abort, current_app, request
from flask_wtf.csrf import CSRFProtect
from werkzeug.routing import IntegerConverter

csrf = CSRFProtect()

# The pages work without script; a few files of this site's own may help
# (static/timezone.js fills a field), never inline script.  Only our own
# stylesheet.  Form posts go to this site only; no page may be framed
# (clickjacking a move button).
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    # Seat and sign-in tokens live in URLs (/s/<token>): never send them to
    # another site.  Not "no-referrer": over https Flask-WTF refuses a POST
    # without a same-origin Referer (WTF_CSRF_SSL_STRICT), so every form
    # would fail (tests/server/web/test_https_proxy.py).
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers without CSP 2
}
# The methods Flask-WTF checks the CSRF token of, and so reads the body of.
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")
BIGGEST_ID = 2**63 - 1  # a signed 64-bit column, on SQLite and PostgreSQL
NOT_UNDERSTOOD = "The form was not understood; reload the page and try again."


class BoundedInt(IntegerConverter):
    """``<int:...>`` in URLs: ASCII digits up to what an id column holds.
    Larger ids made SQLite raise OverflowError (a 500); now the URL is a 404."""

    regex = r"[0-9]+"

    def __init__(self, map, *args, **kwargs):
        kwargs.setdefault("max", BIGGEST_ID)
        super().__init__(map, *args, **kwargs)


def init_app(app) -> None:
    csrf.init_app(app)
    # CSRFProtect's own hook looks up the view's exemption on every request,
    # a GET too, before it asks the method; this one asks the method first
    # and lets CSRFProtect check the same requests (Flask-WTF's documented
    # WTF_CSRF_CHECK_DEFAULT = False with csrf.protect()).
    app.config["WTF_CSRF_CHECK_DEFAULT"] = False
    hooks = app.before_request_funcs[None]
    hooks[:] = [hook for hook in hooks if getattr(hook, "__name__", "") != "csrf_protect"]
    app.before_request(check_input)
    app.after_request(add_security_headers)


def check_input():
    """Every request's input: well-formed, and on a POST (PUT, PATCH,
    DELETE) the CSRF token, checked after the form is known to parse."""
    refuse_malformed_input()
    config = current_app.config
    if request.method in config["WTF_CSRF_METHODS"] and config["WTF_CSRF_ENABLED"]:
        csrf.protect(apply_exemptions=True)


def refuse_malformed_input():
    """A 400 for input no page means and some layer below chokes on:

    - a multipart part without a name parses to a field named None, on which
      Flask-WTF's CSRF check crashed (a 500 on every POST route, signed in or
      not);
    - a NUL character, which PostgreSQL refuses in text (a 500 where a name
      or a reason is saved) and no form needs;
    - a whole number too big for a float, on which WTForms' NumberRange
      crashes (math.isnan raises OverflowError) in every number field.

    Reading the form here also turns a body over MAX_CONTENT_LENGTH into a
    413 before it is read."""
    fields = list(request.args.items(multi=True))
    if request.method in BODY_METHODS:
        names = list(request.form.keys()) + list(request.files.keys())
        if not all(isinstance(name, str) for name in names):
            abort(400, NOT_UNDERSTOOD)
        fields += request.form.items(multi=True)
    if any("\x00" in name or "\x00" in text or is_huge_number(text) for name, text in fields):
        abort(400, NOT_UNDERSTOOD)


def is_huge_number(text: str) -> bool:
    """Whether int() reads ``text`` as a number with more than 300 digits (a
    float holds about 308).  int() also reads "1_000" and other scripts'
    digits, so ask it rather than a pattern; it refuses over 4,300 digits."""
    if len(text) <= 300:
        return False
    try:
        int(text)
    except ValueError:
        return False
    return True


BY_LOWER_NAME = {name.lower(): (name, value) for name, value in HEADERS.items()}


def add_security_headers(response):
    """Each of HEADERS the response does not set itself: a page that needs a
    different policy (the development mail catcher's message page) sets its
    own.  The response's header names are read once, not once per header
    as ``setdefault`` would (a third of the time)."""
    present = {name.lower() for name in response.headers.keys()}
    response.headers.extend([pair for lower, pair in BY_LOWER_NAME.items() if lower not in present])
    return response

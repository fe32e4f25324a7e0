"""Compressed answers: every text answer (pages, CSS, JSON, SVG) goes out
gzip- or brotli-compressed to a browser that asks for it (Flask-Compress),
so a 20 KB move page travels as 3-4 KB.  Behind nginx, nginx may compress
as well (deploy/pbem-nginx.conf); it leaves an answer that is already
compressed as it is.

BREACH: an attacker who can put text of their choosing into a page that
also holds a secret, and watch the page's compressed size, can guess the
secret a character at a time.  Our pages hold the CSRF token, which
Flask-WTF does not mask (the same signed value for a whole session).  So an
HTML answer to a request that carries input (a query string, or a form: any
method but GET and HEAD) is sent uncompressed: those are the answers that
can echo an attacker's text (a search, a form shown again with its error)
beside the token.  A page that shows only stored text (table talk) would
need one posted message per guess from a player of the same game, each seen
by all, and is compressed.
"""

from __future__ import annotations

from flask import request
from flask_compress import Compress

DEFAULTS = {
    "COMPRESS_REGISTER": False,  # our hook below decides, then calls theirs
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_ALGORITHM_STREAMING": ["br", "gzip"],  # static files are sent as streams
    "COMPRESS_BR_LEVEL": 4,
    "COMPRESS_LEVEL": 6,
    "COMPRESS_MIN_SIZE": 500,
}


def may_echo_input() -> bool:
    return request.method not in ("GET", "HEAD") or bool(request.query_string)


def init_app(app) -> None:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    compress = Compress(app)

    def compressed(response):
        if response.mimetype == "text/html" and may_echo_input():
            response.vary.add("Accept-Encoding")
            return response
        body = response.response
        response = compress.after_request(response)
        if response.response is not body and hasattr(body, "close"):
            # A file sent as a stream (static/) is now read through the
            # compressor: close the file when the answer is done.
            response.call_on_close(body.close)
        return response

    app.after_request(compressed)

"""Static files under content-hashed addresses: ``url_for('static', ...)``
writes ``/static/pbem.css?v=<hash of the file's bytes>``, and an answer to
that exact address may be kept by the browser (and any cache between) for a
year without asking again: the address changes when the file does.  The
bare address, or one with a stale hash (a page cached from before an
upgrade), still answers with the file as it is now, but ``no-cache``: the
browser asks each time whether it changed.

The hash is read again when the file's size or modification time changes,
so an edited stylesheet gets its new address without a restart.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import request

YEAR = 365 * 24 * 3600
IMMUTABLE = f"public, max-age={YEAR}, immutable"
HASH_LENGTH = 12  # hex digits: far more than the few files there are need

_hashes: dict[str, tuple[tuple[int, int], str]] = {}
# The files the app's own links name, found under static/, by (folder,
# name): every page links the same few, and resolving them on each page was
# 1.4 % of a web worker's CPU (bench/turn_mail_latency.py, py-spy).  Only
# those names: an address a visitor asks for may be spelt endlessly many
# ways ("./pbem.css", "css//x"), and would grow the dict without end.
_linked: dict[tuple[str, str], Path] = {}


def content_hash(path: Path) -> str | None:
    """The hash of the file's bytes, or None when there is no such file."""
    try:
        stat = path.stat()
    except OSError:
        return None
    stamp = (stat.st_mtime_ns, stat.st_size)
    known = _hashes.get(str(path))
    if known and known[0] == stamp:
        return known[1]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:HASH_LENGTH]
    _hashes[str(path)] = (stamp, digest)
    return digest


def static_path(app, filename: str) -> Path | None:
    folder = Path(app.static_folder or "").resolve()
    path = (folder / filename).resolve()
    if folder not in path.parents:  # never hash a file outside static/
        return None
    return path if path.is_file() else None


def linked_path(app, filename: str) -> Path | None:
    """static_path of a name the app's templates link, remembered."""
    key = (app.static_folder or "", filename)
    path = _linked.get(key)
    if path is None:  # a file gone since is no harm: content_hash finds none
        path = static_path(app, filename)
        if path is not None:
            _linked[key] = path
    return path


def init_app(app) -> None:
    @app.url_defaults
    def hashed_address(endpoint, values):
        if endpoint != "static" or "v" in values or "filename" not in values:
            return
        path = linked_path(app, values["filename"])
        digest = content_hash(path) if path else None
        if digest:
            values["v"] = digest

    hashed_address.static_only = True  # web/speedups.py still remembers the other links

    @app.after_request
    def cache_rules(response):
        if request.endpoint != "static" or response.status_code not in (200, 304):
            return response
        path = static_path(app, (request.view_args or {}).get("filename", ""))
        asked = request.args.get("v")
        if path and asked and asked == content_hash(path):
            response.headers["Cache-Control"] = IMMUTABLE
        else:
            response.headers["Cache-Control"] = "no-cache"
        response.headers.pop("Expires", None)  # Cache-Control says it all
        return response

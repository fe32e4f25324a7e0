"""What the connection itself carries: a ``Host`` header that parses, and
HSTS on an https site.

werkzeug turns a Host it cannot encode (a label over 63 characters, an empty
label as in ``a..b``) into a BadHost inside Flask's URL adapter, after which
even the error page fails (a 500).  The check here runs in front of Flask,
behind ProxyFix (so a trusted X-Forwarded-Host is checked too), and answers
400 to anything but a host name, an IPv4 address or a bracketed IPv6
address, with an optional port from 1 to 65535."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

LABEL = re.compile(r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)")
PORT = re.compile(r"[0-9]{1,5}")
HOST_MAX = 253
BAD_HOST = b"Bad Request: the Host header is not a host name.\n"


def is_good_host(value: str) -> bool:
    """``host[:port]`` as a browser or proxy sends it; nothing else."""
    if not value or len(value) > HOST_MAX + 8 or not value.isascii():
        return False
    if value.startswith("["):
        address, bracket, rest = value[1:].partition("]")
        if not bracket or rest and not (rest.startswith(":") and is_port(rest[1:])):
            return False
        return is_ipv6(address)
    name, colon, port = value.partition(":")
    if colon and not is_port(port):
        return False
    return is_name(name)


def is_port(text: str) -> bool:
    return bool(PORT.fullmatch(text)) and 1 <= int(text) <= 65535


def is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def is_name(name: str) -> bool:
    """A DNS name (an IPv4 address is one too), one trailing dot allowed, and
    one werkzeug's IDNA codec takes (``xn--`` labels must decode)."""
    labels = name[:-1].split(".") if name.endswith(".") else name.split(".")
    if len(name) > HOST_MAX or not all(LABEL.fullmatch(label) for label in labels):
        return False
    try:
        name.encode("idna").decode("idna")
    except UnicodeError:
        return False
    return True


class RefuseBadHost:
    """WSGI middleware: 400 for a request whose Host header does not parse."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        host = environ.get("HTTP_HOST")
        if host is not None and not is_good_host(host):
            start_response(
                "400 Bad Request",
                [
                    ("Content-Type", "text/plain; charset=utf-8"),
                    ("Content-Length", str(len(BAD_HOST))),
                ],
            )
            return [BAD_HOST]
        return self.app(environ, start_response)


def init_app(app) -> None:
    """Install the Host check (before ProxyFix wraps the app) and HSTS."""
    app.wsgi_app = RefuseBadHost(app.wsgi_app)
    if (
        urlsplit(app.config["PUBLIC_BASE_URL"]).scheme.lower() == "https"
        and app.config["HSTS_MAX_AGE"] > 0
    ):
        value = f"max-age={app.config['HSTS_MAX_AGE']}"
        if app.config["HSTS_INCLUDE_SUBDOMAINS"]:
            value += "; includeSubDomains"
        app.after_request(lambda response: add_hsts(response, value))


def add_hsts(response, value: str):
    response.headers.setdefault("Strict-Transport-Security", value)
    return response

"""Entry point for gunicorn from a source checkout: ``gunicorn wsgi:app``.
The installed package names it ``server.wsgi:app``."""

from server.wsgi import app  # noqa: F401

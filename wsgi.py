"""Entry point for gunicorn: ``gunicorn wsgi:app``.  Settings come from
config/settings.py and the environment; see README."""
from server import create_app

app = create_app()

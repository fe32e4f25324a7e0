"""The web application for gunicorn: ``gunicorn server.wsgi:app``
(``pbem web`` runs exactly that with config/gunicorn.conf.py).  Settings
come from config/settings.py and the environment; see README."""

from server import create_app
from server.settings import exit_on_settings_error

# A bad setting prints one line and exits 4: gunicorn halts ("App failed to
# load") on 4 and 3 only; any other status makes it start the worker again,
# forever.
with exit_on_settings_error(status=4):
    app = create_app()

"""gunicorn's settings for pbem (``pbem web``, or ``gunicorn -c
config/gunicorn.conf.py server.wsgi:app``).  Each can be changed
with an environment variable, as noted, or a gunicorn option after ``pbem web``."""
import multiprocessing
import os

# Where to listen: behind a reverse proxy on the same machine, loopback.
bind = os.environ.get("PBEM_BIND", "127.0.0.1:8000")
# Sync workers: a request is a few milliseconds of database work.
workers = int(os.environ.get("PBEM_WORKERS", 2 * multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("PBEM_THREADS", 1))
timeout = 30
graceful_timeout = 30
# Restart workers now and then: bounded memory over months of uptime.
max_requests = 5000
max_requests_jitter = 500
# Proxies whose X-Forwarded-* gunicorn itself trusts; the app's own trust is
# PROXY_FIX_X_FOR and friends (config/settings.py).
forwarded_allow_ips = os.environ.get("PBEM_FORWARDED_ALLOW_IPS", "127.0.0.1")
# gunicorn 25.1 and later open a control socket in $XDG_RUNTIME_DIR or
# ~/.gunicorn/ (a file outside the instance folder, in a home that the
# hardened units make read-only); pbem is run by systemd, not gunicornc.
# Earlier versions ignore the name.
control_socket_disable = True
accesslog = os.environ.get("PBEM_ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()

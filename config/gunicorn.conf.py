"""gunicorn's settings for pbem (``pbem web``, or ``gunicorn -c
config/gunicorn.conf.py server.wsgi:app``).  Each can be changed
with an environment variable, as noted, or a gunicorn option after ``pbem web``."""

import multiprocessing
import os
import tempfile

from server.processes.logs import config_dict

# Where to listen: behind a reverse proxy on the same machine, loopback.
bind = os.environ.get("PBEM_BIND", "127.0.0.1:8000")
# Threaded workers: a request is a few milliseconds of database work, but an
# API long poll (GET /api/v1/wait) waits up to API_WAIT_MAX_SECONDS; with a
# thread each it holds one thread, not a whole worker.
worker_class = "gthread"
workers = int(os.environ.get("PBEM_WORKERS") or 0) or 2 * multiprocessing.cpu_count() + 1
threads = int(os.environ.get("PBEM_THREADS", 16))
# A worker takes no more connections than it has threads: one whose threads
# all wait leaves new requests (a page, /healthz) to a worker with a free
# thread instead of queueing them behind the waits.  So no idle keep-alive
# connections either (the proxy opens one per request).
worker_connections = threads
keepalive = 0
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

# The same log form as the other processes (LOG_FORMAT: text or json).
# The access log goes where PBEM_ACCESS_LOG says (logconfig_dict replaces
# gunicorn's own handling of ``accesslog``), tokens masked.
logconfig_dict = config_dict(os.environ.get("LOG_FORMAT", "text"), loglevel, accesslog)

# Prometheus metrics from every worker (server/services/metrics.py): each
# writes its values into this folder and /metrics adds them up.  It must be
# set before prometheus_client is imported (the workers import the app after
# this file ran; there is no --preload).  Give the scheduler, sender and
# receiver of this machine the same folder, and an empty one at each start
# (systemd's RuntimeDirectory= does both; deploy/ and README "Operations").
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="pbem-metrics-")
os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)


def child_exit(server, worker):
    """A worker that ended (restart after max_requests, crash): its live
    gauges are dropped; its counters stay counted."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)

"""The operator's endpoints (README "Operations"): ``/healthz`` (this
process answers), ``/readyz`` (the site can work: services/health.py) and
``/metrics`` (Prometheus, services/metrics.py), plus the timing of every
request for the latency histogram.  None of them touches a session, and
/metrics answers only the machine itself or a bearer of METRICS_TOKEN."""

from __future__ import annotations

import hmac
import ipaddress
import time
from functools import lru_cache

from flask import Blueprint, Response, abort, current_app, g, jsonify, request

from server.services import health, metrics

bp = Blueprint("health", __name__)
PROXY_HEADERS = ("X-Forwarded-For", "X-Real-IP", "Forwarded")
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")  # others: "other"


@bp.get("/healthz")
def healthz():
    return jsonify(status="alive")


@bp.get("/readyz")
def readyz():
    answer = health.as_json(health.readiness(current_app.config))
    return jsonify(answer), 200 if answer["status"] == "ready" else 503


@bp.get("/metrics")
def scrape():
    if not may_scrape():
        abort(403)
    body, content_type = metrics.exposition()
    return Response(body, content_type=content_type)


def may_scrape() -> bool:
    """The bearer of METRICS_TOKEN, or this machine itself.  A request a
    proxy forwarded is not "this machine" even when the proxy runs here."""
    token = current_app.config["METRICS_TOKEN"]
    sent = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return True
    if any(name in request.headers for name in PROXY_HEADERS):
        return False
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def _start_timer() -> None:
    g.pbem_started = time.perf_counter()


def _observe(response):
    started = g.get("pbem_started")
    if started is not None:
        method = request.method
        _latency(method if method in METHODS else "other", response.status_code // 100).observe(
            time.perf_counter() - started
        )
    return response


@lru_cache(maxsize=128)  # 8 methods × the status classes: all of them
def _latency(method: str, status_class: int):
    """The histogram's child for these labels: prometheus-client checks and
    looks labels up under a lock each time; the child stays the same."""
    return metrics.HTTP_SECONDS.labels(method, f"{status_class}xx")


def init_app(app) -> None:
    app.before_request(_start_timer)
    app.after_request(_observe)
    app.register_blueprint(bp)

"""The sender beats its heartbeat at most every BEAT_SECONDS, however short
SENDER_INTERVAL: rounds in between leave it as it is, the first round after
moves it on."""

from __future__ import annotations

import time

from server.db import db
from server.processes import sender as sender_process
from server.services.clock import outage_guard


def test_the_heartbeat_moves_once_per_beat_seconds(sqlite_app, monkeypatch):
    monkeypatch.setattr(sender_process, "BEAT_SECONDS", 0.3)
    sender = sender_process.Sender(dict(sqlite_app.config), db.obj)

    def beat():
        with db.connection_context():
            return outage_guard.last_beat(outage_guard.SENDER)

    with sqlite_app.app_context():
        sender.round()
        first = beat()
        assert first is not None  # the first round beats
        sender.round()
        assert beat() == first  # within BEAT_SECONDS: left alone
        time.sleep(0.35)
        sender.round()
        assert beat() > first
        sender.close()

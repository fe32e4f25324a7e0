"""Logging for every process: one line per event, on stderr (systemd's
journal or the terminal keeps it), at the level LOG_LEVEL names."""
from __future__ import annotations

import logging
import sys

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def setup(settings) -> None:
    level = logging.getLevelName(str(settings["LOG_LEVEL"]).upper())
    if not isinstance(level, int):      # a typo must not silence the logs
        level = logging.INFO
    logging.basicConfig(level=level, stream=sys.stderr, format=FORMAT, force=True)
    # APScheduler says "Running job ..." at every run (every 2 s for the bots):
    # the processes log what the runs did themselves.
    logging.getLogger("apscheduler").setLevel(max(level, logging.WARNING))

"""Logging for every process: one event per line on stderr (systemd's
journal or the terminal keeps it), at the level LOG_LEVEL names, in the
form LOG_FORMAT names: "text" (time level logger: message) or "json" (one
JSON object per line, for a log collector: time, level, logger, message,
and ``exception`` with the traceback when there is one)."""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import sys

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FORMATS = ("text", "json")


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (newlines in the message or
    the traceback are escaped by JSON)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False, default=str)


def formatter(log_format: str) -> logging.Formatter:
    if str(log_format).strip().lower() == "json":
        return JsonFormatter()
    return logging.Formatter(FORMAT)


# Links carry signed tokens (confirmation, reset, sign-in, join, unsubscribe,
# never-invite) in the path or the query; anyone who reads the log could use
# them.  Every long run of token characters is masked: ids, words and dates
# are shorter.  A query value named like a secret is masked whatever its
# length (an API token a client put in the query, a short code).
TOKEN = re.compile(r"[A-Za-z0-9_\-.~%]{20,}")
SECRET_PARAMETER = re.compile(
    r"([?&;](?:[\w.-]*token|[\w.-]*key|sig|signature|secret|password|code)=)[^&;\s\"]+",
    re.IGNORECASE,
)


def mask_tokens(line: str) -> str:
    return TOKEN.sub("[token]", SECRET_PARAMETER.sub(r"\1[token]", line))


class MaskTokens(logging.Filter):
    """Masks tokens in a record's message (the access log's request line,
    referrer)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = mask_tokens(record.getMessage()), None
        return True


def access_handler(access_log: str) -> dict:
    """Where PBEM_ACCESS_LOG says: "-" (stderr, the default) or a file."""
    if access_log in ("", "-"):
        where: dict = {"class": "logging.StreamHandler", "stream": "ext://sys.stderr"}
    else:  # WatchedFileHandler: logrotate may move the file
        where = {"class": "logging.handlers.WatchedFileHandler", "filename": access_log}
    return dict(where, formatter="pbem", filters=["mask_tokens"])


def config_dict(log_format: str, level: str, access_log: str = "-") -> dict:
    """The same logging for gunicorn (its ``logconfig_dict``): its own
    messages, its access log (to ``access_log``, tokens masked) and the
    app's, one form for all."""
    handler = {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "pbem"}
    made = (
        {"()": "server.processes.logs.JsonFormatter"}
        if str(log_format).strip().lower() == "json"
        else {"format": FORMAT}
    )
    level = level.upper() if isinstance(logging.getLevelName(level.upper()), int) else "INFO"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"pbem": made},
        "filters": {"mask_tokens": {"()": "server.processes.logs.MaskTokens"}},
        "handlers": {"stderr": handler, "access": access_handler(access_log)},
        "root": {"level": level, "handlers": ["stderr"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": ["stderr"], "propagate": False},
            # On or off by PBEM_ACCESS_LOG, not by LOG_LEVEL: its lines are
            # INFO, and `pbem serve` runs at WARNING.
            "gunicorn.access": {"level": "INFO", "handlers": ["access"], "propagate": False},
        },
    }


def setup(settings) -> None:
    level = logging.getLevelName(str(settings["LOG_LEVEL"]).upper())
    if not isinstance(level, int):  # a typo must not silence the logs
        level = logging.INFO
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter(settings.get("LOG_FORMAT", "text")))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    if str(settings.get("LOG_FORMAT", "text")).strip().lower() not in FORMATS:
        logging.getLogger("pbem").warning(
            "LOG_FORMAT=%r is neither text nor json: text it is", settings.get("LOG_FORMAT")
        )
    # APScheduler says "Running job ..." at every run (every 2 s for the bots):
    # the processes log what the runs did themselves.
    logging.getLogger("apscheduler").setLevel(max(level, logging.WARNING))

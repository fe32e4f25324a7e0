"""PBEM_ACCESS_LOG names where gunicorn's access log goes, and no line of it
carries a token (confirmation links and the like are masked)."""

from __future__ import annotations

import logging
import logging.config
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_access_log_goes_to_the_named_file_with_tokens_masked(tmp_path, monkeypatch, capsys):
    log = tmp_path / "access.log"
    monkeypatch.setenv("PBEM_ACCESS_LOG", str(log))
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    conf = runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))
    token = "Mg.awsptA.p7IZthcbYam16Z48x_eYWkzGX6A"
    try:
        logging.config.dictConfig(conf["logconfig_dict"])
        logging.getLogger("gunicorn.access").info(
            '%(h)s "%(r)s" %(s)s "%(f)s"',
            {
                "h": "127.0.0.1",
                "r": f"GET /confirm/{token}?next=/games/7 HTTP/1.1",
                "s": "200",
                "f": f"https://example.org/login?link={token}",
            },
        )
        for handler in logging.getLogger("gunicorn.access").handlers:
            handler.flush()
        written = log.read_text()
    finally:
        logging.config.dictConfig({"version": 1, "disable_existing_loggers": False})
    assert "GET /confirm/[token]?next=/games/7" in written, written
    assert token not in written
    assert "GET /confirm" not in capsys.readouterr().err

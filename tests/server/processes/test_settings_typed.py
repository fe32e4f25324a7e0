"""Every setting has a declared type; an environment value is parsed by it,
and one that does not parse stops the start with a message naming the
variable, the value and the type expected."""

from __future__ import annotations

import os
import runpy
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from web_helpers import csrf, signup

from server import create_app, settings
from server.db import migrate
from server.settings import CONFIG_FILE, SettingsError

ROOT = Path(__file__).resolve().parents[3]


def load(tmp_path, **env):
    return settings.load(dict(env, PBEM_INSTANCE=str(tmp_path)))


def test_every_setting_in_the_config_file_declares_a_type():
    namespace = runpy.run_path(str(CONFIG_FILE))
    names = {name for name in namespace if name.isupper()}
    assert len(names) > 30
    assert names <= set(namespace["__annotations__"]), names - set(namespace["__annotations__"])
    assert set(settings.declared(namespace)) == names


def test_a_setting_without_a_type_stops_the_start():
    with pytest.raises(SettingsError, match=r"NEW_THING .* has no declared type"):
        settings.declared({"__annotations__": {}, "NEW_THING": 3})
    with pytest.raises(SettingsError, match=r"THING .* unsupported setting type"):
        settings.declared({"__annotations__": {"THING": list}, "THING": []})
    with pytest.raises(SettingsError, match=r"THING .* the default 'x' is not a int"):
        settings.declared({"__annotations__": {"THING": int}, "THING": "x"})


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("SMTP_PORT", "2525", 2525),
        ("SMTP_PORT", " 2525 ", 2525),
        ("SENDER_RETRY_BASE", "0", 0),
        ("SENDER_INTERVAL", "0.5", 0.5),
        ("SENDER_INTERVAL", "3", 3.0),
        ("SENDER_INTERVAL", "1e1", 10.0),
        ("SMTP_TLS", "starttls", "starttls"),
        ("SMTP_PASSWORD", "", ""),
        ("SMTP_PASSWORD", " spaced = kept ", " spaced = kept "),
        ("SESSION_COOKIE_HTTPONLY", "0", False),
        ("SESSION_COOKIE_HTTPONLY", "no", False),
        ("SESSION_COOKIE_HTTPONLY", "OFF", False),
        ("SESSION_COOKIE_HTTPONLY", "False", False),
        ("SESSION_COOKIE_HTTPONLY", "1", True),
        ("SESSION_COOKIE_HTTPONLY", "Yes", True),
        ("SESSION_COOKIE_HTTPONLY", " on ", True),
        ("SESSION_COOKIE_HTTPONLY", "TRUE", True),
        ("WTF_CSRF_TIME_LIMIT", "3600", 3600),
        ("WTF_CSRF_TIME_LIMIT", "", None),
        ("WTF_CSRF_TIME_LIMIT", "None", None),
        ("WTF_CSRF_TIME_LIMIT", "none", None),
        ("MAX_CONTENT_LENGTH", "131072", 131072),
        ("PROXY_FIX_X_FOR", "1", 1),
    ],
)
def test_environment_values_are_parsed_by_the_declared_type(tmp_path, name, text, value):
    parsed = load(tmp_path, **{name: text})[name]
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("SMTP_PORT", "abc", "int"),
        ("SMTP_PORT", "", "int"),
        ("SMTP_PORT", "25.0", "int"),
        ("SMTP_PORT", "²", "int"),
        ("SMTP_PORT", "١٢", "int"),
        ("SMTP_PORT", "1_000", "int"),
        ("SENDER_INTERVAL", "fast", "float"),
        ("SENDER_INTERVAL", "nan", "float"),
        ("SENDER_INTERVAL", "inf", "float"),
        ("SENDER_INTERVAL", "", "float"),
        ("SESSION_COOKIE_HTTPONLY", "tru", "bool"),
        ("SESSION_COOKIE_HTTPONLY", "", "bool"),
        ("SESSION_COOKIE_HTTPONLY", "2", "bool"),
        ("SESSION_COOKIE_HTTPONLY", "enabled", "bool"),
        ("WTF_CSRF_TIME_LIMIT", "1h", "int"),
        ("WTF_CSRF_TIME_LIMIT", "null", "int"),
    ],
)
def test_a_value_that_does_not_parse_names_variable_value_and_type(tmp_path, name, text, expected):
    with pytest.raises(SettingsError) as caught:
        load(tmp_path, **{name: text})
    message = str(caught.value)
    assert name in message and repr(text) in message and f"expected {expected}" in message
    assert isinstance(caught.value, ValueError)


def test_optional_settings_say_none_is_allowed(tmp_path):
    with pytest.raises(SettingsError, match='or empty or "none" for none'):
        load(tmp_path, WTF_CSRF_TIME_LIMIT="soon")


def test_csrf_time_limit_from_the_environment_keeps_posts_working(
    tmp_path, sqlite_url, monkeypatch
):
    """WTF_CSRF_TIME_LIMIT=3600 was the string "3600" and every POST a 500."""
    monkeypatch.setenv("WTF_CSRF_TIME_LIMIT", "3600")
    app = create_app(
        {
            "DATABASE_URL": sqlite_url,
            "INSTANCE_PATH": str(tmp_path / "i"),
            "SECRET_KEY": "x",
            "PUBLIC_BASE_URL": "http://localhost",
        }
    )
    assert app.config["WTF_CSRF_TIME_LIMIT"] == 3600
    migrate()
    client = app.test_client()
    assert signup(client, "Ann", "ann@example.org").status_code == 200
    page = client.get("/settings")
    resp = client.post("/logout", data={"csrf_token": csrf(page.text)})
    assert resp.status_code == 302


def run(args, tmp_path, timeout=60, **env):
    """Run an entry point; should it start after all, stop its whole group."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("SMTP_", "PBEM_"))}
    environment.update(PBEM_INSTANCE=str(tmp_path), **env)
    proc = subprocess.Popen(
        args,
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


@pytest.mark.parametrize(
    "module", ["server.processes.scheduler", "server.processes.sender", "server.processes.serve"]
)
def test_processes_stop_with_one_line_naming_the_bad_setting(tmp_path, module):
    result = run([sys.executable, "-m", module], tmp_path, timeout=20, SENDER_BATCH="twenty-five")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == (
        "pbem: setting SENDER_BATCH='twenty-five' from the "
        "environment is not valid: expected int (a whole number)"
    )


def test_serve_checks_its_own_port_variable(tmp_path):
    result = run(
        [sys.executable, "-m", "server.processes.serve"], tmp_path, timeout=20, PBEM_PORT="80a"
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "PBEM_PORT='80a'" in result.stderr


def test_gunicorn_stops_at_once_on_a_bad_setting(tmp_path):
    """Exit status 4 makes gunicorn halt ("App failed to load"); any other
    status would start the worker again and again."""
    result = run(
        [sys.executable, "-m", "gunicorn", "--bind", "127.0.0.1:0", "wsgi:app"],
        tmp_path,
        timeout=30,
        SENDER_INTERVAL="soon",
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert result.stderr.count("pbem: setting SENDER_INTERVAL='soon'") == 1
    assert "App failed to load" in result.stderr

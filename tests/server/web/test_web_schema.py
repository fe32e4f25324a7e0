"""Migrations build exactly the tables the models describe; settings come from
config/ and the environment."""

from __future__ import annotations

from playhouse.migrations import Runner
from playhouse.schema_diff import diff_models

from server import settings
from server.db import db, make_database, migrate
from server.models import MODELS
from server.settings import MIGRATIONS


def test_migrations_match_models(app):
    with db.connection_context():
        assert not diff_models(db.obj, MODELS), str(diff_models(db.obj, MODELS))
        assert migrate() == []  # running again applies nothing


def test_migrations_go_down_and_up(app):
    runner = Runner(db.obj, str(MIGRATIONS))
    with db.connection_context():
        first = runner.status()[0].name
        runner.down(target=first)  # every migration, newest first
        assert not any(db.obj.table_exists(m._meta.table_name) for m in MODELS)
        runner.up()
        assert not diff_models(db.obj, MODELS)


def test_sqlite_pragmas(tmp_path):
    database = make_database(f"sqlite:///{tmp_path / 'p.sqlite3'}")
    with database.connection_context():
        assert database.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert database.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
        assert database.execute_sql("PRAGMA busy_timeout").fetchone()[0] == 10000
    assert database._lock_type == "IMMEDIATE"


def test_environment_overrides_config(tmp_path):
    env = {
        "PBEM_INSTANCE": str(tmp_path),
        "SMTP_HOST": "mail.example.org",
        "SMTP_PORT": "2525",
        "SMTP_TLS": "starttls",
        "SMTP_USER": "u",
        "SMTP_PASSWORD": "p",
        "MAIL_FROM": "Games <games@example.org>",
        "PUBLIC_BASE_URL": "https://pbem.example.org",
        "SESSION_COOKIE_HTTPONLY": "0",
        "SENDER_INTERVAL": "0.5",
        "DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/test",
    }
    s = settings.load(env)
    assert (s["SMTP_HOST"], s["SMTP_PORT"], s["SMTP_TLS"]) == ("mail.example.org", 2525, "starttls")
    assert (s["SMTP_USER"], s["SMTP_PASSWORD"]) == ("u", "p")
    assert s["MAIL_FROM"] == "Games <games@example.org>"
    assert s["PUBLIC_BASE_URL"] == "https://pbem.example.org"
    assert s["SESSION_COOKIE_HTTPONLY"] is False and s["SENDER_INTERVAL"] == 0.5
    assert s["DATABASE_URL"].startswith("postgresql://")
    # The secret is made once per instance and kept.
    assert s["SECRET_KEY"] == settings.load(env)["SECRET_KEY"] and len(s["SECRET_KEY"]) == 64
    assert settings.load(dict(env, SECRET_KEY="from-env"))["SECRET_KEY"] == "from-env"

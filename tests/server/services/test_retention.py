"""Keep only what the game needs.  Each kind of row is
purged after its window and kept before it; a mail that waits to go out is
never touched; ``pbem verify`` and the pages still work after a purge; a
purge beside moves breaks none; a purge killed with -9 half-way leaves
every row whole (untouched or fully purged)."""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
import sys
import textwrap
import threading

import pytest
from clock_helpers import random_move, sign_in, started_game, user
from ops_helpers import PBEM, games_in_progress, pbem

from server.db import db
from server.models import (
    ApiToken,
    BrowserSession,
    Heartbeat,
    InboundMail,
    NotifyChannel,
    Outbox,
    RateCount,
    User,
)
from server.services import retention

NOW = dt.datetime(2026, 6, 1, 12, 0)
OLD, RECENT = NOW - dt.timedelta(days=31), NOW - dt.timedelta(days=29)
BODY = "It is your turn in Game g."


def mail(tag: str, status: str = "sent", sent_at=None, created_at=OLD, **fields) -> Outbox:
    return Outbox.create(
        kind="turn",
        to_addr=f"{tag}@example.org",
        subject=f"Subject {tag}",
        body_text=BODY,
        body_html=f"<p>{BODY}</p>",
        message_id=f"<{tag}@test>",
        in_reply_to="<root@test>",
        references="<root@test>",
        headers={"List-Unsubscribe": "<http://localhost/u/x>"},
        status=status,
        sent_at=sent_at,
        created_at=created_at,
        **fields,
    )


def inbound(tag: str, received_at, status: str = "applied") -> InboundMail:
    return InboundMail.create(
        message_id=f"<in-{tag}@test>",
        raw=f"From: {tag}@example.org\n\n3\n> quoted turn mail",
        status=status,
        outcome="played",
        received_at=received_at,
    )


def seed(app):
    """One row of each kind on each side of its window; a dict of their ids."""
    with app.app_context(), db.connection_context():
        person = User.create(email="p@example.org", name="P", password_hash="x")
        channel = NotifyChannel.create(
            user=person, scheme="json", masked="json://…", sealed_url="x", destination="d"
        )
        lifetime = dt.timedelta(days=app.config["PERMANENT_SESSION_LIFETIME_DAYS"])
        rows = {
            "old_in": inbound("old", OLD).id,
            "recent_in": inbound("recent", RECENT).id,
            "unhandled_in": inbound("unhandled", OLD, status="received").id,
            "old_sent": mail("old-sent", sent_at=OLD).id,
            "recent_sent": mail("recent-sent", sent_at=RECENT).id,
            "old_bounced": mail("old-bounced", "bounced", sent_at=OLD).id,
            "old_queued": mail("old-queued", "queued").id,
            "old_deferred": mail("old-deferred", "deferred").id,
            "old_failed": mail("old-failed", "failed").id,
            # A bounced mail a moderator queued again: sent once, waiting now.
            "retried": mail("retried", "queued", sent_at=OLD).id,
            "old_notice": mail("old-notice", sent_at=OLD, channel=channel).id,
            "recent_notice": mail("recent-notice", created_at=RECENT, channel=channel).id,
            "waiting_notice": mail("waiting-notice", "deferred", channel=channel).id,
            "ended_session": BrowserSession.create(
                key="a" * 64, user=person, created_at=NOW - lifetime - dt.timedelta(minutes=1)
            ).id,
            "live_session": BrowserSession.create(
                key="b" * 64, user=person, created_at=NOW - lifetime + dt.timedelta(minutes=1)
            ).id,
        }
        token = dict(user=person, name="t", scopes=[], created_at=OLD)
        rows["expired_token"] = ApiToken.create(
            token_hash="e" * 64, expires_at=NOW - dt.timedelta(seconds=1), **token
        ).id
        rows["revoked_token"] = ApiToken.create(
            token_hash="r" * 64, expires_at=NOW + dt.timedelta(days=9), revoked_at=OLD, **token
        ).id
        rows["live_token"] = ApiToken.create(
            token_hash="l" * 64, expires_at=NOW + dt.timedelta(days=9), **token
        ).id
        epoch = NOW.replace(tzinfo=dt.UTC).timestamp()
        rows["spent_count"] = RateCount.create(key="spent", count=3, expires_at=epoch - 1).id
        rows["live_count"] = RateCount.create(key="live", count=3, expires_at=epoch + 60).id
        return rows


def test_each_kind_is_purged_after_its_window_and_kept_before(app):
    rows = seed(app)
    with app.app_context(), db.connection_context():
        purged = retention.purge(dict(app.config, PURGE_BATCH=2), NOW)
        assert purged == retention.Purged(
            inbound_raw=1, mail_bodies=3, notices=1, sessions=1, api_tokens=2, rate_counts=1
        )
        raw = {i.id: i for i in InboundMail.select()}
        assert raw[rows["old_in"]].raw == "" and raw[rows["old_in"]].raw_purged_at == NOW
        assert raw[rows["old_in"]].outcome == "played" and raw[rows["old_in"]].status == "applied"
        for kept in ("recent_in", "unhandled_in"):
            assert (
                "quoted turn mail" in raw[rows[kept]].raw and raw[rows[kept]].raw_purged_at is None
            )

        out = {o.id: o for o in Outbox.select()}
        for blanked in ("old_sent", "old_bounced"):
            row = out[rows[blanked]]
            assert (row.body_text, row.body_html, row.body_purged_at) == ("", "", NOW)
            assert (row.headers, row.in_reply_to, row.references) == ({}, "", "")
            assert row.message_id == f"<{blanked.replace('_', '-')}@test>"
            # the header row, its status and delivery history stay
            assert row.subject.startswith("Subject") and row.sent_at == OLD
            assert row.status in ("sent", "bounced")
        for kept in ("recent_sent", "old_queued", "old_deferred", "old_failed", "retried"):
            row = out[rows[kept]]
            assert row.body_text == BODY and row.body_html == f"<p>{BODY}</p>", kept
            assert row.body_purged_at is None
        assert rows["old_notice"] not in out
        assert rows["recent_notice"] in out and rows["waiting_notice"] in out

        assert {s.id for s in BrowserSession.select()} == {rows["live_session"]}
        assert {t.id for t in ApiToken.select()} == {rows["live_token"]}
        assert {c.id for c in RateCount.select()} == {rows["live_count"]}

        # A second purge finds nothing left to do.
        assert retention.purge(app.config, NOW) == retention.Purged()


def test_a_moderator_cannot_send_a_purged_mail_again(app):
    rows = seed(app)
    from server.mail import smtp_sender

    with app.app_context(), db.connection_context():
        retention.purge(app.config, NOW)
        assert not smtp_sender.retry(rows["old_bounced"], NOW)
        assert Outbox.get_by_id(rows["old_bounced"]).status == "bounced"


def test_one_scheduler_purges_per_interval(app):
    with app.app_context(), db.connection_context():
        assert retention.claim_turn(NOW, 3600)
        assert not retention.claim_turn(NOW + dt.timedelta(seconds=5), 3600)
        assert retention.claim_turn(NOW + dt.timedelta(seconds=3600), 3600)
        assert Heartbeat.get(Heartbeat.name == "purge").beat_at == NOW + dt.timedelta(hours=1)


def run_pbem(url, tmp_path, *args, **env):
    environ = dict(
        os.environ,
        DATABASE_URL=url,
        PBEM_INSTANCE=str(tmp_path / "cli-instance"),
        SECRET_KEY="test-secret",
        **env,
    )
    return subprocess.run([PBEM, *args], env=environ, capture_output=True, text=True, timeout=120)


def test_pbem_purge_prints_what_it_removed_and_verify_still_passes(app, db_url, tmp_path, smtp):
    from server.services.outbox import deliver

    ids = games_in_progress(app, count=2, moves=6)
    with app.app_context(), db.connection_context():
        while deliver(app.config)["sent"]:
            pass
        sent = Outbox.select().where(Outbox.status == "sent").count()
        mine = inbound("mine", OLD).id
        user("mod@example.org", is_moderator=True)
    assert sent > 0
    done = run_pbem(db_url, tmp_path, "purge", RETAIN_SENT_MAIL_BODY_DAYS="0")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"mail bodies: {sent}" in done.stdout and "inbound raw: 1" in done.stdout
    with app.app_context(), db.connection_context():
        assert not Outbox.select().where(Outbox.body_text != "").exists()
    verified = pbem(db_url, tmp_path, "verify")
    assert verified.returncode == 0 and "2 game(s) checked, 0 differ" in verified.stdout
    # The game's pages read from the log, the snapshot and the header rows.
    for i, game_id in enumerate(ids):
        player = sign_in(app, f"p{i}0@example.org")
        assert player.get(f"/games/{game_id}").status_code == 200
        assert player.get(f"/games/{game_id}/log").status_code == 200
        assert player.get("/settings").status_code == 200
    moderator = sign_in(app, "mod@example.org")
    page = moderator.get(f"/moderation/inbound/{mine}")
    assert page.status_code == 200 and "incoming mails are kept 30 days" in page.text
    assert moderator.get("/moderation/inbound").status_code == 200


def test_a_purge_beside_moves_breaks_none(app, db_url, tmp_path, smtp):
    from server.services.outbox import deliver

    game = started_game(app, tag="race")
    rnd, errors, stop = random.Random(3), [], threading.Event()
    settings = dict(app.config, PURGE_BATCH=1, RETAIN_SENT_MAIL_BODY_DAYS=0)

    def purging():
        while not stop.is_set():
            try:
                with app.app_context(), db.connection_context():
                    deliver(app.config)
                    retention.purge(settings, retention.utcnow() + dt.timedelta(seconds=1))
            except Exception as exc:  # noqa: BLE001 - the test reports it
                errors.append(exc)

    worker = threading.Thread(target=purging)
    worker.start()
    try:
        for _ in range(40):
            random_move(app, game.id, rnd)
    finally:
        stop.set()
        worker.join(30)
    assert not errors, errors
    with app.app_context(), db.connection_context():
        waiting = Outbox.select().where(Outbox.status.not_in(("sent", "bounced")))
        assert all(row.body_text and row.body_purged_at is None for row in waiting)
        assert Outbox.select().where(Outbox.body_purged_at.is_null(False)).exists()
    assert pbem(db_url, tmp_path, "verify").returncode == 0


KILLER = """
import os, signal, sys
from server import create_app
from server.db import db
from server.models import utcnow
from server.services import retention

app = create_app({{"DATABASE_URL": sys.argv[1], "SECRET_KEY": "t", "INSTANCE_PATH": sys.argv[2],
                  "PURGE_BATCH": 5, "RETAIN_SENT_MAIL_BODY_DAYS": 0, "DATABASE_POOL_MAX": 0}})
statements = 0
execute_sql = db.obj.execute_sql

def dying(sql, params=None, *args, **kwargs):
    global statements
    cursor = execute_sql(sql, params, *args, **kwargs)
    if sql.startswith('UPDATE "outbox"'):
        statements += 1
        if statements == {kill_at}:  # inside the batch's transaction, before its commit
            os.kill(os.getpid(), signal.SIGKILL)
    return cursor

db.obj.execute_sql = dying
with app.app_context(), db.connection_context():
    retention.purge(app.config, utcnow())
"""


def test_a_purge_killed_half_way_leaves_every_row_whole(app, db_url, tmp_path):
    with app.app_context(), db.connection_context():
        for i in range(23):
            mail(f"k{i}", sent_at=OLD)
    script = tmp_path / "killer.py"
    script.write_text(textwrap.dedent(KILLER.format(kill_at=3)))
    done = subprocess.run(
        [sys.executable, str(script), db_url, str(tmp_path / "killer")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == -9, done.stderr
    with app.app_context(), db.connection_context():
        rows = list(Outbox.select())
    purged = [r for r in rows if r.body_purged_at is not None]
    assert len(purged) == 10  # two batches committed, the third never was
    for row in rows:
        whole = (row.body_text, row.body_html) == (BODY, f"<p>{BODY}</p>")
        blank = (row.body_text, row.body_html) == ("", "")
        assert (blank and row.body_purged_at) or (whole and row.body_purged_at is None)
    # The next purge finishes the work.
    with app.app_context(), db.connection_context():
        assert retention.purge(app.config, NOW).mail_bodies == 13


@pytest.mark.parametrize("days", ["-1"])
def test_a_negative_window_purges_as_zero_days(app, db_url, tmp_path, days):
    seed(app)
    done = run_pbem(db_url, tmp_path, "purge", RETAIN_INBOUND_MAIL_DAYS=days)
    assert done.returncode == 0, done.stderr
    assert "inbound raw: 2" in done.stdout  # old and recent; the unhandled one stays


def test_the_scheduler_purges_once_per_interval(app):
    from server.processes.scheduler import Scheduler

    rows = seed(app)
    with app.app_context(), db.connection_context():
        days = dt.timedelta(days=1)
        kept = Outbox.update(sent_at=retention.utcnow() - 29 * days).where(
            Outbox.id == rows["recent_sent"]
        )
        kept.execute()
        work = Scheduler(app.config, db.obj)
        work.purge()
        assert Outbox.get_by_id(rows["recent_sent"]).body_text == BODY
        assert InboundMail.get_by_id(rows["old_in"]).raw == ""
        assert Outbox.get_by_id(rows["old_sent"]).body_text == ""
        due = Outbox.update(sent_at=retention.utcnow() - 31 * days)
        due.where(Outbox.id == rows["recent_sent"]).execute()
        work.purge()  # within the interval: no purge is due, whichever scheduler asks
        assert Outbox.get_by_id(rows["recent_sent"]).body_text == BODY

"""No reply lost, none played twice.

The real receiver (``python -m server.processes.receiver``) and the real IMAP
poller (against a real dovecot) are stopped at every step of handling a
reply, deterministically, by FAULT_INJECTION (server/processes/faults.py):
SIGKILL of the process itself, or PostgreSQL ending its connection
(pg_terminate_backend).  The mail is then delivered again, as a mail server
does after no 250 and the poller does with a mail it did not mark, and once
more on top: every time the reply is played once (two decisions, seq + 2)
and answered once.

Each step gets a game of its own in one database, and the processes of all
steps start side by side (a process start is most of a test's time)."""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
import time
from dataclasses import dataclass

import pytest
from conftest import free_port
from dovecot_helpers import dovecot
from imap_tools import AND, MailBoxUnencrypted
from inbound_helpers import turn_reply, two_player_game
from reply_helpers import DOMAIN, game_row, inbound, outbox_kinds, reply_app, send

from server.db import db
from server.models import Event, InboundMail
from server.processes.faults import STEPS
from server.settings import ROOT

REPLY = "Settler\npass"  # two decisions of one seat: a move can be cut in half
PLAYED = 2


@dataclass
class Case:
    step: str
    game_id: int
    email: str  # the player who replies
    other: str  # the player whose turn comes next
    reply: object  # the reply mail
    seq: int  # the game's seq before the reply


def cases(app, steps=STEPS) -> list[Case]:
    """A started two-player game per step, with a reply to its turn mail."""
    found = []
    for number, step in enumerate(steps):
        game = two_player_game(app, f"s{number}x")
        email, other, reply = turn_reply(app, game.id, REPLY)
        found.append(Case(step, game.id, email, other, reply, game.seq))
    return found


def process_env(app, **extra) -> dict:
    return dict(
        os.environ,
        DATABASE_URL=app.config["DATABASE_URL"],
        SECRET_KEY="test-secret",
        PBEM_INSTANCE=app.config["INSTANCE_PATH"],
        REPLY_DOMAIN=DOMAIN,
        # The processes keep their connections in a pool, as on a site.
        SMTP_PORT=str(app.config["SMTP_PORT"]),
        DATABASE_POOL_MAX="4",
        MAIL_AUTH_SERVERS=app.config["MAIL_AUTH_SERVERS"],
        **{k: str(v) for k, v in extra.items()},
    )


def start_receivers(app, faults: list[str]) -> list[tuple[subprocess.Popen, int]]:
    """Receivers, one per fault ("" for none), started side by side and
    listening; (process, port) each."""
    started = []
    for fault in faults:
        port = free_port()
        env = process_env(app, RECEIVER_HOST="127.0.0.1", RECEIVER_PORT=port, FAULT_INJECTION=fault)
        started.append(
            (
                subprocess.Popen(
                    [sys.executable, "-m", "server.processes.receiver"],
                    cwd=ROOT,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                ),
                port,
            )
        )
    deadline = time.monotonic() + 60
    for proc, port in started:
        while True:
            try:
                smtplib.SMTP("127.0.0.1", port, timeout=2).quit()
                break
            except OSError:
                assert proc.poll() is None, f"receiver on {port} stopped: {proc.returncode}"
                assert time.monotonic() < deadline, "the receivers did not start"
                time.sleep(0.1)
    return started


def deliver(port: int, reply, attempts: int = 8) -> None:
    """Deliver as a mail server does: again after a 4xx, a little later, a
    few times; a 5xx or no 250 in the end fails.  (A connection the
    process's pool handed out as it came back, before the database went,
    costs one 451; after a database error the receiver answers 451 until
    its backoff, a second at first, has passed.)"""
    for attempt in range(attempts):
        try:
            send(port, reply)
            return
        except smtplib.SMTPDataError as refused:
            assert refused.smtp_code == 451 and attempt < attempts - 1, refused
            time.sleep(0.5)


def stop(processes) -> None:
    for proc, _ in processes:
        if proc.poll() is None:
            proc.kill()
    for proc, _ in processes:
        proc.wait(timeout=20)


def assert_played_and_answered_once(app, case: Case) -> None:
    rows = [r for r in inbound(app) if r.message_id == case.reply["Message-ID"]]
    assert [r.status for r in rows] == ["applied"], (case.step, [r.outcome for r in rows])
    assert game_row(app, case.game_id).seq == case.seq + PLAYED, case.step
    with app.app_context(), db.connection_context():
        moves = [
            e.seq
            for e in Event.select().where((Event.game == case.game_id) & (Event.kind == "move"))
        ]
    assert sorted(moves) == list(range(case.seq + 1, case.seq + PLAYED + 1)), case.step
    answers = [k for k in outbox_kinds(app, case.email) if k.startswith("reply_")]
    assert answers == ["reply_applied"], case.step
    # The next player's turn mail, once (the first player's own came at the start).
    assert outbox_kinds(app, case.other).count("turn") == 1, case.step


def assert_nothing_stayed(app, case: Case) -> None:
    assert [r for r in inbound(app) if r.message_id == case.reply["Message-ID"]] == [], case.step
    assert game_row(app, case.game_id).seq == case.seq, case.step
    assert not [k for k in outbox_kinds(app, case.email) if k.startswith("reply_")], case.step


# -- the receiver ---------------------------------------------------------------------
def test_a_receiver_killed_at_any_step_plays_and_answers_once(db_url, smtp, tmp_path):
    app = reply_app(db_url, smtp, tmp_path)
    steps = cases(app)
    *victims, survivor = start_receivers(app, [f"kill@{c.step}" for c in steps] + [""])
    try:
        for case, (victim, port) in zip(steps, victims):
            with pytest.raises((smtplib.SMTPException, OSError)):
                send(port, case.reply)  # no 250: the mail server keeps the mail
            assert victim.wait(timeout=20) == -signal.SIGKILL, case.step
            if case.step == "after-commit":
                assert_played_and_answered_once(app, case)
            else:
                assert_nothing_stayed(app, case)
            send(survivor[1], case.reply)  # the mail server tries again
            send(survivor[1], case.reply)  # and once more, as they do
            assert_played_and_answered_once(app, case)
    finally:
        stop(victims + [survivor])


@pytest.mark.postgres
def test_a_receiver_that_loses_its_connection_answers_451_then_plays_once(pg_url, smtp, tmp_path):
    app = reply_app(pg_url, smtp, tmp_path)
    steps = cases(app)
    receivers = start_receivers(app, [f"cut@{c.step}" for c in steps])
    try:
        for case, (_, port) in zip(steps, receivers):
            if case.step == "after-commit":
                deliver(port, case.reply)  # done before the connection went
            else:
                with pytest.raises(smtplib.SMTPDataError) as refused:
                    send(port, case.reply)
                assert refused.value.smtp_code == 451, case.step
                assert_nothing_stayed(app, case)
            deliver(port, case.reply)  # the retry: same process, a new connection
            deliver(port, case.reply)  # and once more
            assert_played_and_answered_once(app, case)
    finally:
        stop(receivers)


def test_a_record_left_received_by_an_older_version_is_handled_on_redelivery(
    db_url, smtp, tmp_path
):
    """The version before this one committed the record before handling the
    mail; a record it left "received" is handled when the mail comes again."""
    app = reply_app(db_url, smtp, tmp_path)
    (case,) = cases(app, ["legacy"])
    with app.app_context(), db.connection_context():
        InboundMail.create(message_id=case.reply["Message-ID"], raw="", via="smtp")
    receivers = start_receivers(app, [""])
    try:
        send(receivers[0][1], case.reply)
        send(receivers[0][1], case.reply)
    finally:
        stop(receivers)
    assert_played_and_answered_once(app, case)


# -- the IMAP poller ----------------------------------------------------------------
@pytest.fixture(scope="module")
def imap():
    with dovecot() as server:
        yield server


def poller_settings(imap, folder: str) -> dict:
    host, port, user, password = imap
    return {
        "IMAP_HOST": host,
        "IMAP_PORT": port,
        "IMAP_TLS": "none",
        "IMAP_USER": user,
        "IMAP_PASSWORD": password,
        "IMAP_FOLDER": folder,
        "IMAP_DONE_FOLDER": f"{folder}-done",
    }


def deliver_to_mailbox(imap, folder: str, message) -> None:
    host, port, user, password = imap
    with MailBoxUnencrypted(host, port).login(user, password, "INBOX") as box:
        for name in (folder, f"{folder}-done"):
            if not box.folder.exists(name):
                box.folder.create(name)
        box.append(message.as_bytes(), folder, flag_set=[])


def left_in(imap, folder: str) -> int:
    host, port, user, password = imap
    with MailBoxUnencrypted(host, port).login(user, password, folder) as box:
        return len(list(box.fetch(AND(all=True), mark_seen=False, headers_only=True)))


def poll_all(app, imap, runs: list[tuple[str, str]]) -> list[subprocess.CompletedProcess]:
    """``imap_poller --once`` for each (folder, fault), side by side."""
    procs = []
    for folder, fault in runs:
        env = process_env(app, FAULT_INJECTION=fault, **poller_settings(imap, folder))
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "server.processes.imap_poller", "--once"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    done = []
    for proc in procs:
        _, stderr = proc.communicate(timeout=180)
        done.append(subprocess.CompletedProcess(proc.args, proc.returncode, "", stderr))
    return done


def rescue_polls(app, imap, steps: list[Case], folders: list[str]) -> None:
    """The next poll of each folder, with a second copy of its reply
    delivered meanwhile (mail servers deliver twice now and then)."""
    for case, folder in zip(steps, folders):
        deliver_to_mailbox(imap, folder, case.reply)
    for case, run in zip(steps, poll_all(app, imap, [(f, "") for f in folders])):
        assert run.returncode == 0, (case.step, run.stderr)


def folder_of(case: Case, db_url: str, what: str) -> str:
    return f"{what}-{case.step}-{os.getpid()}-{db_url[:5]}"


def test_an_imap_poller_killed_at_any_step_plays_and_answers_once(db_url, smtp, tmp_path, imap):
    app = reply_app(db_url, smtp, tmp_path)
    steps = cases(app)
    folders = [folder_of(case, db_url, "kill") for case in steps]
    for case, folder in zip(steps, folders):
        deliver_to_mailbox(imap, folder, case.reply)
    killed = poll_all(app, imap, [(f, f"kill@{c.step}") for c, f in zip(steps, folders)])
    for case, folder, run in zip(steps, folders, killed):
        assert run.returncode == -signal.SIGKILL, (case.step, run.stderr)
        assert left_in(imap, folder) == 1, case.step  # not marked: read again next time
        if case.step == "after-commit":
            assert_played_and_answered_once(app, case)
        else:
            assert_nothing_stayed(app, case)
    rescue_polls(app, imap, steps, folders)
    for case, folder in zip(steps, folders):
        assert left_in(imap, folder) == 0, case.step
        assert_played_and_answered_once(app, case)


@pytest.mark.postgres
def test_an_imap_poller_that_loses_its_connection_leaves_the_mail_then_plays_once(
    pg_url, smtp, tmp_path, imap
):
    app = reply_app(pg_url, smtp, tmp_path)
    steps = cases(app)
    folders = [folder_of(case, pg_url, "cut") for case in steps]
    for case, folder in zip(steps, folders):
        deliver_to_mailbox(imap, folder, case.reply)
    cut = poll_all(app, imap, [(f, f"cut@{c.step}") for c, f in zip(steps, folders)])
    for case, folder, run in zip(steps, folders, cut):
        assert run.returncode == 0, (case.step, run.stderr)
        if case.step == "after-commit":
            assert "'handled': 1" in run.stderr and left_in(imap, folder) == 0, case.step
        else:
            # A database error ends the poll (the poller backs off): the
            # mail stays unseen for the next one.
            assert ("'failed': 1" in run.stderr or "database error" in run.stderr) and left_in(
                imap, folder
            ) == 1, case.step
            assert_nothing_stayed(app, case)
    rescue_polls(app, imap, steps, folders)
    for case, folder in zip(steps, folders):
        assert left_in(imap, folder) == 0, case.step
        assert_played_and_answered_once(app, case)

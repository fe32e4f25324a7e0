"""Honest answers under faults.  A database that is gone,
full or read-only gives a 503 page that says so (in the reader's language);
"nothing was changed" only when that is known; a COMMIT whose answer is lost
gives a page that says the move may have been saved and links the game,
where sending the form again is refused as stale."""

from __future__ import annotations

import os
import resource
import signal
import smtplib
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from clock_helpers import sign_in, started_game, to_move
from conftest import PG_URL, free_port, make_app
from fault_helpers import CommitCutter
from web_helpers import move_form

from bench.crowd import fill
from server import create_app
from server.db import bind, db, make_database, migrate
from server.mail.reply_address import ReplyAddresses
from server.models import Event, Seat, utcnow

CONFIG = {
    "SECRET_KEY": "test-secret",
    "TESTING": True,
    "PUBLIC_BASE_URL": "http://localhost",
    "DATABASE_POOL_MAX": 0,
    "OUTAGE_GRACE_SECONDS": 0,
}


def signed_in_move(app, game_id: int):
    """(client, move form) of the seat to move, signed in on ``app``."""
    seat = to_move(app, game_id)
    with app.app_context(), db.connection_context():
        email = seat.user.email
    client = sign_in(app, email)
    page = client.get(f"/games/{game_id}")
    form = move_form(page.text)
    assert form is not None, page.text
    action = next(v for name, v in form["buttons"] if name == "action")
    return client, form, action


def moves_played(app, game_id: int) -> int:
    with app.app_context(), db.connection_context():
        return Event.select().where((Event.game == game_id) & (Event.actor == "player")).count()


def test_a_read_only_sqlite_file_gives_a_503_that_says_so(sqlite_url, smtp, tmp_path):
    app = make_app(sqlite_url, smtp, tmp_path)
    game = started_game(app, tag="ro")
    client, form, action = signed_in_move(app, game.id)
    readonly = create_app(
        dict(
            CONFIG,
            DATABASE_URL=f"{sqlite_url}?mode=ro",
            INSTANCE_PATH=str(tmp_path / "ro"),
            SMTP_PORT=smtp.port,
        )
    )
    visitor = readonly.test_client()
    visitor.set_cookie("session", client.get_cookie("session").value, domain="localhost")
    # Reading still works from a read-only file.
    assert visitor.get(f"/games/{game.id}").status_code == 200
    page = visitor.post(form["action"], data=dict(form["fields"], action=action))
    assert page.status_code == 503, page.text
    assert page.headers["Retry-After"] == "30"
    assert "The database is read-only at the moment" in page.text
    assert "Nothing was changed." in page.text
    assert f"/games/{game.id}" in page.text
    dutch = visitor.post(
        form["action"], data=dict(form["fields"], action=action), headers={"Accept-Language": "nl"}
    )
    assert dutch.status_code == 503
    assert "De database is op dit moment alleen-lezen" in dutch.text, dutch.text
    assert moves_played(app, game.id) == 0


def test_an_unreachable_postgresql_gives_a_503_that_says_so(tmp_path):
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/test?connect_timeout=2"
    app = create_app(dict(CONFIG, DATABASE_URL=url, INSTANCE_PATH=str(tmp_path)))
    client = app.test_client()
    # Pages that need no database still answer.
    assert client.get("/login").status_code == 200
    for path in ("/games/1", "/games/1/log"):
        page = client.get(path, headers={"Accept-Language": "de"})
        assert page.status_code == 503, (path, page.text)
        assert "Die Datenbank ist im Moment nicht erreichbar." in page.text, page.text
        assert "Traceback" not in page.text and "postgres" not in page.text


@pytest.mark.postgres
def test_a_commit_whose_answer_is_lost_says_the_move_may_be_saved(pg_url, smtp, tmp_path):
    cutter = CommitCutter(("127.0.0.1", 5432))
    try:
        proxied = pg_url.replace("127.0.0.1:5432", f"127.0.0.1:{cutter.port}")
        assert proxied != pg_url and pg_url.startswith(PG_URL)
        app = make_app(proxied, smtp, tmp_path)
        game = started_game(app, tag="cut")
        client, form, action = signed_in_move(app, game.id)
        cutter.arm()
        page = client.post(form["action"], data=dict(form["fields"], action=action))
        assert cutter.cuts == 1
        assert page.status_code == 503, page.text
        assert "Your change may have been saved" in page.text
        assert "Nothing was changed" not in page.text and "nothing was changed" not in page.text
        assert f'href="/games/{game.id}"' in page.text
        # It was saved: the game has the move, and the same form again is stale.
        assert moves_played(app, game.id) == 1
        again = client.post(form["action"], data=dict(form["fields"], action=action))
        assert again.status_code == 409, again.text
        assert moves_played(app, game.id) == 1
    finally:
        cutter.close()


# -- processes ------------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[3]


def process_env(tmp_path, url: str, **extra) -> dict:
    env = dict(
        os.environ,
        DATABASE_URL=url,
        PBEM_INSTANCE=str(tmp_path / "instance"),
        SECRET_KEY="test-secret",
        SMTP_PORT="1",
    )
    env.update({k: str(v) for k, v in extra.items()})
    return env


def run_for(module: str, env: dict, seconds: float) -> str:
    """Run ``python -m server.processes.<module>`` for ``seconds``, then
    SIGTERM; its stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", f"server.processes.{module}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
    return err.decode()


@pytest.mark.parametrize(
    "module,extra",
    [
        ("scheduler", {"SCHEDULER_INTERVAL": 1, "BOT_INTERVAL_SECONDS": 1}),
        ("sender", {"SENDER_INTERVAL": 0.5, "SENDER_ERROR_BACKOFF_MAX": 60}),
    ],
)
def test_a_process_backs_off_with_one_line_per_failure(module, extra, tmp_path):
    """The database is unreachable for 6 s: each failure is one line naming
    the error, the waits double (1, 2, 4 s: 3 or 4 tries, not one every
    interval), and no traceback (before: one every 2 s)."""
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/test?connect_timeout=1"
    err = run_for(module, process_env(tmp_path, url, **extra), 6)
    failures = [line for line in err.splitlines() if "database error: OperationalError" in line]
    assert "Traceback" not in err, err
    assert 2 <= len(failures) <= 5, err
    assert "Connection refused" in failures[0]


def test_the_receiver_refuses_for_now_with_one_line_while_the_database_is_down(tmp_path):
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/test?connect_timeout=1"
    port = free_port()
    env = process_env(tmp_path, url, REPLY_DOMAIN="reply.example", RECEIVER_PORT=port)
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.processes.receiver"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    # A signed address (an unsigned one is refused at RCPT, before the database).
    address = ReplyAddresses("test-secret", "reply.example").for_seat(1, 0, 1, 0)
    try:
        answers = []
        deadline = time.monotonic() + 20
        while len(answers) < 3 and time.monotonic() < deadline:
            try:
                with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
                    client.sendmail(
                        "a@example.org", [address], b"Subject: 1\r\nMessage-ID: <m@x>\r\n\r\n1\r\n"
                    )
            except smtplib.SMTPRecipientsRefused as exc:
                answers.append(list(exc.recipients.values())[0][0])
            except smtplib.SMTPDataError as exc:
                answers.append(exc.smtp_code)
            except OSError:
                time.sleep(0.2)  # not listening yet
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
    err = err.decode()
    assert answers and all(code == 451 for code in answers), (answers, err)
    assert "Traceback" not in err, err
    assert 1 <= err.count("database error: OperationalError") <= len(answers), err


def test_secret_key_from_the_environment_needs_no_key_file(tmp_path, sqlite_url):
    """The instance folder cannot be made (its parent is a file): with
    SECRET_KEY set the scheduler runs; without, it stops with one line."""
    (tmp_path / "afile").write_text("")
    env = process_env(
        tmp_path,
        sqlite_url.replace("test.sqlite3", "t.sqlite3"),
        PBEM_INSTANCE=tmp_path / "afile" / "instance",
        SCHEDULER_INTERVAL=1,
    )
    err = run_for("scheduler", env, 8)
    assert "sweeping every 1 s" in err and "Traceback" not in err, err
    env.pop("SECRET_KEY")
    proc = subprocess.run(
        [sys.executable, "-m", "server.processes.scheduler"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("pbem: no SECRET_KEY in the environment"), proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.postgres
def test_a_restarted_scheduler_frees_its_dead_predecessors_claims_at_once(pg_url, tmp_path):
    """A scheduler claims 80 overdue seats for 60 s and is killed with
    SIGKILL after a few timeouts.  The next one on this host sees that the
    holder (host:pid:nonce) is dead and frees its claims at once: every seat
    times out in seconds, not after the 60 s lease (before: 31.5 s measured
    with the 20 s default)."""
    database = make_database(pg_url)
    bind(database)
    migrate(database)
    with database.connection_context():
        fill(GAMES, GAMES, utcnow(), users=20)
    env = process_env(
        tmp_path, pg_url, SCHEDULER_INTERVAL=1, SCHEDULER_BATCH=GAMES, SCHEDULER_LEASE_SECONDS=60
    )
    first = subprocess.Popen(
        [sys.executable, "-m", "server.processes.scheduler"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    with database.connection_context():
        deadline = time.monotonic() + 60
        while timed_out() < 5 and time.monotonic() < deadline:
            time.sleep(0.02)
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        held = (
            Seat.select()
            .where(
                Seat.claimed_by.startswith(f"{socket.gethostname()}:{first.pid}:")
                & (Seat.claimed_until > utcnow())
            )
            .count()
        )
        assert held > GAMES // 2, held
        second = subprocess.Popen(
            [sys.executable, "-m", "server.processes.scheduler"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        started = time.monotonic()
        try:
            while timed_out() < GAMES and time.monotonic() < started + 40:
                time.sleep(0.1)
            took = time.monotonic() - started
            done = timed_out()
        finally:
            second.send_signal(signal.SIGTERM)
            _, err = second.communicate(timeout=10)
    assert done == GAMES, (done, err.decode())
    assert took < 30, took  # the lease alone is 60 s
    assert f"freed {held} seat(s) claimed by a scheduler that is gone" in err.decode()


GAMES = 80


def timed_out() -> int:
    return Seat.select().where(Seat.timeouts_in_row > 0).count()


def no_file_may_grow() -> None:
    """In the child: every write that would grow a file fails (EFBIG), the
    way a full disk refuses it, while reading and the pipes still work."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def test_a_full_disk_gives_a_503_that_says_so(sqlite_url, smtp, tmp_path):
    """A real server process that cannot grow any file (RLIMIT_FSIZE 0):
    the move is refused with a 503 that says the disk is full (before: a
    bare 500), in French for a French reader, and nothing was changed."""
    app = make_app(sqlite_url, smtp, tmp_path)
    game = started_game(app, tag="full")
    client, form, action = signed_in_move(app, game.id)
    port = free_port()
    env = process_env(tmp_path, sqlite_url, DATABASE_POOL_MAX=0)
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from werkzeug.serving import run_simple; "
            f"from server.wsgi import app; run_simple('127.0.0.1', {port}, app)",
        ],
        cwd=ROOT,
        env=env,
        preexec_fn=no_file_may_grow,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        data = urllib.parse.urlencode(dict(form["fields"], action=action)).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{form['action']}",
            data=data,
            headers={
                "Cookie": f"session={client.get_cookie('session').value}",
                "Accept-Language": "fr",
            },
        )
        status, text = None, ""
        for _ in range(150):  # the server may still be starting
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    status, text = answer.status, answer.read().decode()
                break
            except urllib.error.HTTPError as exc:
                with exc:
                    status, text = exc.code, exc.read().decode()
                break
            except OSError:
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(10)
    assert status == 503, text
    assert "La base de données n’a plus de place (son disque est plein)" in text, text
    assert moves_played(app, game.id) == 0


def test_the_imap_poller_backs_off_with_one_line_per_failure(tmp_path):
    """A reply waits in the mailbox and the database is unreachable: the
    poller leaves the mail unseen, logs one line per try naming the error and
    waits longer each time (before: a traceback for the mail at every poll)."""
    from dovecot_helpers import dovecot
    from imap_tools import MailBoxUnencrypted

    with dovecot() as (host, port, user, password):
        with MailBoxUnencrypted(host, port).login(user, password, "INBOX") as box:
            box.append(
                b"From: a@example.org\r\nTo: play+x@reply.test\r\nSubject: 1\r\n"
                b"Message-ID: <backoff@example.org>\r\n\r\n1\r\n",
                "INBOX",
                flag_set=[],
            )
        url = f"postgresql://postgres@127.0.0.1:{free_port()}/test?connect_timeout=1"
        env = process_env(
            tmp_path,
            url,
            REPLY_DOMAIN="reply.test",
            IMAP_HOST=host,
            IMAP_PORT=port,
            IMAP_TLS="none",
            IMAP_USER=user,
            IMAP_PASSWORD=password,
            IMAP_INTERVAL=0.5,
        )
        err = run_for("imap_poller", env, 6)
    failures = [line for line in err.splitlines() if "database error: OperationalError" in line]
    assert "Traceback" not in err, err
    assert 2 <= len(failures) <= 4, err

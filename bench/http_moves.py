"""Moves over real HTTP, as players make them, against the production topology.

Starts gunicorn (``--workers``, 4) on PostgreSQL with two schedulers and two
senders running, and an SMTP catcher in this process.  ``--games`` two-player
games are made through the services; from then on everything is what players
do: a turn mail reaches the catcher, a client thread follows its seat link,
reads the move page and posts moves until the page offers none, and so on
until every game is over.  Then the same client hammers a bare Flask app
under the same gunicorn settings, twice: a page that answers "ok", and the
floor of a move (one transaction that reads a game row FOR UPDATE, inserts
an event row and updates the game row; a small page rendered; one mail
composed with email.message.EmailMessage).

CPU is counted for this run's own processes only: gunicorn and its workers,
the schedulers and senders it started, this process (clients and catcher),
and the PostgreSQL backends serving them, found in pg_stat_activity by this
run's database and application_name and read from /proc/<pid>/stat.  Other
work on the machine (other benchmarks, other databases) is not in it.  The
senders connect under an application_name of their own, so their backends'
share is printed too; "PostgreSQL" stays the CPU of all the server's
backends (web workers, schedulers and senders), as before that split.

It prints moves per second, median and p99 per move post, requests per move
post, the median per band of progress (does latency grow as the tables
fill?), the server CPU (web workers, their PostgreSQL backends, senders,
schedulers) per move post against a bare request's and against the floor
move's (the ratios), the least a move post can cost on this stack (a floor
move and its other requests as cheap as the bare app's) with what a server
ratio of 10 leaves beside it, and checks: every game's event log replays to its
stored snapshot, every turn mail reached the catcher exactly once by
Message-ID, no 5xx.

    .venv/bin/python bench/http_moves.py                  # 20 games
    .venv/bin/python bench/http_moves.py --games 1000 --clients 32 --kind new_found_land
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import queue
import re
import resource
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from email import message_from_bytes
from email.policy import default as email_policy
from html import unescape
from pathlib import Path

import psycopg
from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.server_move_roundtrip import percentile  # noqa: E402
from server import settings as settings_module  # noqa: E402
from server.db import bind, make_database, migrate  # noqa: E402
from server.mail.compose import Mailer  # noqa: E402
from server.models import Game, Outbox, Snapshot, User, utcnow  # noqa: E402
from server.services import games as lobby  # noqa: E402
from server.services.state_store import replay, rules  # noqa: E402

PG = "postgresql://postgres@127.0.0.1:5432/test"
SEAT_LINK = re.compile(r"https?://\S+/s/[A-Za-z0-9_.\-]+")
BARE_APP = """
from flask import Flask
app = Flask(__name__)

@app.get("/")
def index():
    return "ok"
"""
# What a move must do at the least (the floor): one transaction on a game row
# and an event row, a small page, one mail composed.
FLOOR_APP = '''
import os
from email.message import EmailMessage

import psycopg
from flask import Flask, request

app = Flask(__name__)
PAGE = """<!doctype html><html lang=en><title>{{ name }}</title>
<h1>{{ name }}</h1><p>Move {{ seq }} played: {{ action }}.</p>
<form method=post action="/move/{{ game }}">
{% for a in actions %}<button name=action value="{{ a }}">{{ a }}</button>{% endfor %}
</form>"""
TEMPLATE = app.jinja_env.from_string(PAGE)     # compiled once, as Flask's files are
_conn = []


def connection():
    if not _conn or _conn[0].closed:
        _conn[:] = [psycopg.connect(os.environ["FLOOR_DSN"], autocommit=True)]
    return _conn[0]


@app.get("/")
def index():
    return "ok"


@app.post("/move/<int:game>")
def move(game):
    action = request.form.get("action", "")
    conn = connection()
    with conn.transaction():
        seq, name = conn.execute("SELECT seq, name FROM floor_game WHERE id = %s FOR UPDATE",
                                 (game,)).fetchone()
        conn.execute("INSERT INTO floor_event (game, seq, action) VALUES (%s, %s, %s)",
                     (game, seq + 1, action))
        conn.execute("UPDATE floor_game SET seq = %s WHERE id = %s", (seq + 1, game))
    mail = EmailMessage()
    mail["Subject"] = f"Your turn: {name}"
    mail["From"] = "pbem@bench.example"
    mail["To"] = f"player{game}@bench.example"
    mail.set_content(f"Move {seq + 1} of {name} was {action}. Your turn.")
    mail.as_bytes()
    return TEMPLATE.render(name=name, seq=seq + 1, action=action, game=game,
                           actions=["a", "b", "c"])
'''
FLOOR_TABLES = (
    "CREATE TABLE floor_game (id integer PRIMARY KEY, seq integer NOT NULL, name text NOT NULL)",
    "CREATE TABLE floor_event (id bigserial PRIMARY KEY, game integer NOT NULL, "
    "seq integer NOT NULL, action text NOT NULL)",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# -- the mail catcher ------------------------------------------------------------
class Catcher:
    """Takes every mail; turn mails go to the players' queue."""

    def __init__(self, turns: queue.Queue):
        self.turns, self.ids, self.lock = turns, Counter(), threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        msg = message_from_bytes(envelope.content, policy=email_policy)
        with self.lock:
            self.ids[msg["Message-ID"]] += 1
        part = msg.get_body(("plain",))
        body = part.get_content() if part is not None else ""
        link = SEAT_LINK.search(body or "")
        if link and is_turn_mail(body or ""):
            self.turns.put(link.group(0))
        return "250 OK"

    def total(self) -> int:
        with self.lock:
            return sum(self.ids.values())


def is_turn_mail(body: str) -> bool:
    """A game's mails share one subject; the news is the body's first line."""
    first = next((line for line in body.splitlines() if line.strip()), "")
    return first.startswith("Your turn")


class RequestCounter(urllib.request.BaseHandler):
    """Counts each request the opener sends, redirects included."""

    def http_request(self, req):
        Player.requests["all"] += 1
        return req


# -- a player --------------------------------------------------------------------
class Player:
    """One browser-like client per seat link: cookies, redirects, forms."""

    requests = Counter()  # every request sent, redirects followed included

    def __init__(self):
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), RequestCounter()
        )

    def get(self, url: str) -> tuple[int, str, str]:
        try:
            with self.opener.open(url, timeout=60) as resp:
                return resp.status, resp.geturl(), resp.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, url, exc.read().decode(errors="replace")

    def post(self, url: str, data: dict) -> tuple[int, str, str]:
        body = urllib.parse.urlencode(data).encode()
        try:
            with self.opener.open(url, data=body, timeout=60) as resp:
                return resp.status, resp.geturl(), resp.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, url, exc.read().decode(errors="replace")


def move_form(html: str):
    """(action url, csrf, seq, [action values]) of the move form, or None."""
    form = re.search(r'<form[^>]*action="(/games/\d+/move)"(.*?)</form>', html, re.S)
    if not form:
        return None
    inner = form.group(2)
    csrf = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', inner)
    seq = re.search(r'name="seq"[^>]*value="([^"]+)"', inner)
    actions = [
        unescape(v) for v in re.findall(r'<button[^>]*name="action"[^>]*value="([^"]*)"', inner)
    ]
    if not (csrf and seq and actions):
        return None
    return form.group(1), csrf.group(1), seq.group(1), actions


def take_turn(base: str, link: str, stats: dict, rnd) -> None:
    player = Player()
    status, url, html = player.get(link)
    stats["statuses"][status] += 1
    while (form := move_form(html)) is not None:
        action_url, csrf, seq, actions = form
        started = time.perf_counter()
        status, url, html = player.post(
            base + action_url, {"csrf_token": csrf, "seq": seq, "action": rnd.choice(actions)}
        )
        stats["latencies"].append(time.perf_counter() - started)
        stats["statuses"][status] += 1
        if status >= 400:
            break


def play_all(base: str, turns: queue.Queue, games_over, clients: int) -> dict:
    import random

    stats = {"latencies": [], "statuses": Counter()}
    lock = threading.Lock()
    stop = threading.Event()

    def worker(n: int):
        rnd = random.Random(n)
        mine = {"latencies": [], "statuses": Counter()}
        while not stop.is_set():
            try:
                link = turns.get(timeout=0.5)
            except queue.Empty:
                continue
            take_turn(base, link, mine, rnd)
        with lock:
            stats["latencies"].extend(mine["latencies"])
            stats["statuses"].update(mine["statuses"])

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    while not games_over():
        time.sleep(1)
    stop.set()
    for t in threads:
        t.join()
    return stats


# -- processes -------------------------------------------------------------------
def start(cmd: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT)


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer")


def bare_rate(
    app: str,
    workers: int,
    clients: int,
    requests: int,
    logdir: Path,
    monitor: Backends,
    env: dict | None = None,
) -> tuple[float, Counter]:
    """Requests per second of a small Flask app under the same gunicorn
    settings, and its CPU seconds per request by role.  ``app``: "bare" (a
    page that says ok) or "floor" (the least a move must do: FLOOR_APP)."""
    (logdir / f"{app}_app.py").write_text(BARE_APP if app == "bare" else FLOOR_APP)
    port = free_port()
    proc = start(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(ROOT / "config/gunicorn.conf.py"),
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--chdir",
            str(logdir),
            f"{app}_app:app",
        ],
        dict(os.environ, PBEM_ACCESS_LOG="/dev/null", **(env or {})),
        logdir / f"{app}.log",
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/")
        per_client = max(requests // clients, 1)
        statuses: Counter = Counter()

        def hit(n: int):
            player = Player()
            for _ in range(per_client):
                if app == "bare":
                    status, _, _ = player.get(f"http://127.0.0.1:{port}/")
                else:  # each client its own game: no waiting on another's lock
                    status, _, _ = player.post(f"http://127.0.0.1:{port}/move/{n}", {"action": "a"})
                statuses[status] += 1

        threads = [threading.Thread(target=hit, args=(n,)) for n in range(clients)]
        roles = {proc.pid: "web workers"}
        cpu_before, started = cpu_by_role(roles, monitor), time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed, done = time.perf_counter() - started, per_client * clients
        cpu = cpu_by_role(roles, monitor) - cpu_before
        if set(statuses) != {200}:
            raise SystemExit(f"the {app} app answered {dict(statuses)}; see {logdir}/{app}.log")
        return done / elapsed, Counter({role: s / done for role, s in cpu.items()})
    finally:
        proc.terminate()
        proc.wait(10)


def floor_env(database: str, schema: str, clients: int) -> dict:
    """The floor app's tables (one game per client) and its connection."""
    with psycopg.connect(
        with_query(database, options=f"-c search_path={schema}"), autocommit=True
    ) as conn:
        for statement in FLOOR_TABLES:
            conn.execute(statement)
        for n in range(clients):
            conn.execute(
                "INSERT INTO floor_game (id, seq, name) VALUES (%s, 0, %s)", (n, f"Floor {n}")
            )
    return {
        "FLOOR_DSN": with_query(
            database, options=f"-c search_path={schema}", application_name=app_name("floor")
        )
    }


def with_query(url: str, **params: str) -> str:
    query = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
    return url + ("&" if "?" in url else "?") + query


def app_name(role: str) -> str:
    """The application_name of this run's connections in one role."""
    return f"pbem-bench-{os.getpid()}-{role}"


# -- where the CPU goes -----------------------------------------------------------
TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, str, float] | None:
    """(parent pid, command name, CPU seconds so far) of one process: its own
    time and that of its children that ended (gunicorn restarts its workers
    every few thousand requests)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = stat[stat.index("(") + 1 : stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[1]), name, sum(int(f) for f in fields[11:15]) / TICK


def _processes() -> dict[int, tuple[int, str, float]]:
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            found[int(entry.name)] = stat
    return found


class Backends:
    """CPU of the PostgreSQL backends that serve this run's connections, and
    only those: pg_stat_activity names them by database and application_name
    (the server's processes, the floor app), /proc/<pid>/stat gives their
    CPU.  A thread polls, so a backend that ends between two readings keeps
    its last one; a backend first seen after ``start`` counts from zero."""

    def __init__(self, database: str, roles: dict[str, str]):
        self.datname = urllib.parse.urlparse(database).path.lstrip("/")
        self.roles = roles  # application_name -> role
        self.conn = psycopg.connect(
            with_query(database, application_name=app_name("monitor")), autocommit=True
        )
        self.seen: dict[int, list] = {}  # pid -> [role, CPU at first sight, last CPU]
        self.started = False
        self.lock, self.stop = threading.Lock(), threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.poll()
        self.started = True
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(0.25):
            self.poll()

    def poll(self) -> None:
        with self.lock:
            rows = self.conn.execute(
                "SELECT pid, application_name FROM pg_stat_activity "
                "WHERE datname = %s AND application_name = ANY(%s)",
                (self.datname, list(self.roles)),
            ).fetchall()
            for pid, name in rows:
                stat = _stat(pid)
                if stat is None:
                    continue
                if pid not in self.seen:
                    self.seen[pid] = [
                        self.roles[name],
                        stat[2] if not self.started else 0.0,
                        stat[2],
                    ]
                self.seen[pid][2] = stat[2]

    def used(self) -> Counter:
        self.poll()
        with self.lock:
            used = Counter()
            for role, first, last in self.seen.values():
                used[role] += last - first
            return used

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.conn.close()


def cpu_by_role(roles: dict[int, str], backends: Backends) -> Counter:
    """CPU seconds so far per role: each process this run started with its
    children (gunicorn's workers), the PostgreSQL backends serving them, and
    this process (the clients and the SMTP catcher)."""
    used: Counter = Counter()
    for pid, (parent, _name, seconds) in _processes().items():
        if pid in roles:
            used[roles[pid]] += seconds
        elif parent in roles:
            used[roles[parent]] += seconds
    used.update(backends.used())
    me = resource.getrusage(resource.RUSAGE_SELF)
    used["clients and catcher"] = me.ru_utime + me.ru_stime
    return used


# -- checks ----------------------------------------------------------------------
def check(game_ids: list[int], catcher: Catcher) -> list[str]:
    problems = []
    for game in Game.select().where(Game.id.in_(game_ids)):
        snap = Snapshot.get_or_none(Snapshot.game == game.id)
        kind = rules(game)
        replayed = json.loads(json.dumps(kind.to_json(replay(game))))
        if snap is None or snap.seq != game.seq or snap.state != replayed:
            problems.append(f"game {game.id}: the log does not replay to its snapshot")
        if game.status != "finished":
            problems.append(f"game {game.id} did not finish")
    sent = [
        row.message_id
        for row in Outbox.select(Outbox.message_id).where(
            (Outbox.kind == "turn") & (Outbox.status == "sent")
        )
    ]
    missing = [m for m in sent if catcher.ids[m] == 0]
    twice = [m for m in sent if catcher.ids[m] > 1]
    if missing or twice:
        problems.append(f"turn mails: {len(missing)} never arrived, {len(twice)} arrived twice")
    return problems


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--kind", default="puerto_rico", help="puerto_rico or new_found_land")
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument(
        "--bare-requests",
        type=int,
        default=4000,
        help="requests to each of the bare and the floor app",
    )
    ap.add_argument("--database", default=os.environ.get("PBEM_BENCH_PG", PG))
    args = ap.parse_args()
    logdir = Path(os.environ.get("PBEM_BENCH_DIR", "/tmp")) / f"pbem-http-{os.getpid()}"
    logdir.mkdir(parents=True)
    schema = f"bench_{os.getpid()}"
    admin = make_database(args.database)
    admin.execute_sql(f"CREATE SCHEMA {schema}")
    try:
        run(args, schema, logdir)
    finally:
        admin.execute_sql(f"DROP SCHEMA {schema} CASCADE")


def run(args, schema: str, logdir: Path) -> None:
    url = f"{args.database}?schema={schema}"
    monitor = Backends(
        args.database,
        {
            app_name("server"): "PostgreSQL",
            app_name("sender"): SENDERS_PG,
            app_name("floor"): "PostgreSQL",
        },
    )

    turns: queue.Queue = queue.Queue()
    catcher = Catcher(turns)
    smtp = Controller(catcher, hostname="127.0.0.1", port=free_port())
    smtp.start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(
        os.environ,
        DATABASE_URL=with_query(url, application_name=app_name("server")),
        SECRET_KEY="bench-secret",
        PUBLIC_BASE_URL=base,
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(smtp.port),
        PBEM_INSTANCE=str(logdir),
        SENDER_INTERVAL="0.2",
        SCHEDULER_INTERVAL="5",
        LOG_LEVEL="WARNING",
        PBEM_ACCESS_LOG="/dev/null",
        MAIL_CATCHER_DIR="",
    )
    settings = settings_module.load(env)
    # This process's own connection (making games, checking) is not the server's.
    database = make_database(with_query(url, application_name=app_name("bench")), settings)
    bind(database)
    migrate(database)
    monitor.start()
    procs = []
    try:
        procs.append(
            start(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "-c",
                    str(ROOT / "config/gunicorn.conf.py"),
                    "--workers",
                    str(args.workers),
                    "--bind",
                    f"127.0.0.1:{port}",
                    "server.wsgi:app",
                ],
                env,
                logdir / "web.log",
            )
        )
        roles = {procs[0].pid: "web workers"}
        for n in range(2):
            procs.append(
                start(
                    [sys.executable, "-m", "server.processes.scheduler"],
                    env,
                    logdir / f"scheduler{n}.log",
                )
            )
            roles[procs[-1].pid] = "schedulers"
            procs.append(
                start(
                    [sys.executable, "-m", "server.processes.sender"],
                    dict(env, DATABASE_URL=with_query(url, application_name=app_name("sender"))),
                    logdir / f"sender{n}.log",
                )
            )
            roles[procs[-1].pid] = "senders"
        wait_for(f"{base}/login")
        with database.connection_context():
            game_ids = make_games(args.games, Mailer(settings), args.kind)

        def over() -> bool:
            with database.connection_context():
                return (
                    not Game.select()
                    .where(Game.id.in_(game_ids) & (Game.status != "finished"))
                    .exists()
                )

        cpu_before, started = cpu_by_role(roles, monitor), time.perf_counter()
        requests_before, mails_before = Player.requests["all"], catcher.total()
        stats = play_all(base, turns, over, args.clients)
        elapsed = time.perf_counter() - started
        stats["cpu"] = cpu_by_role(roles, monitor) - cpu_before
        stats["requests"] = Player.requests["all"] - requests_before
        stats["mails"] = catcher.total() - mails_before
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(20)
        smtp.stop()
    with database.connection_context():
        problems = check(game_ids, catcher)
    bare = bare_rate("bare", args.workers, args.clients, args.bare_requests, logdir, monitor)
    floor = bare_rate(
        "floor",
        args.workers,
        args.clients,
        args.bare_requests,
        logdir,
        monitor,
        floor_env(args.database, schema, args.clients),
    )
    monitor.close()
    report(args, stats, elapsed, bare, floor, problems)
    database.close()


def make_games(count: int, mailer: Mailer, kind: str) -> list[int]:
    now = utcnow()
    ids = []
    for n in range(count):
        a = User.create(
            email=f"a{n}@bench.example", name=f"A{n}", password_hash="-", email_verified_at=now
        )
        b = User.create(
            email=f"b{n}@bench.example", name=f"B{n}", password_hash="-", email_verified_at=now
        )
        game = lobby.create_game(a, kind, f"HTTP {n}", 2, {}, 48, [24, 6], mailer)
        lobby.join(game.id, b, 1)
        lobby.start(game.id, a, mailer)
        ids.append(game.id)
    return ids


SERVER = ("web workers", "PostgreSQL", "senders", "schedulers")
# The senders' backends, counted in "PostgreSQL" and shown apart as well.
SENDERS_PG = "senders' PostgreSQL"


def report(
    args,
    stats: dict,
    elapsed: float,
    bare_run: tuple[float, Counter],
    floor_run: tuple[float, Counter],
    problems: list[str],
) -> None:
    (bare, bare_cpu), (floor, floor_cpu) = bare_run, floor_run
    lat = stats["latencies"]
    rate = len(lat) / elapsed
    errors = sum(n for code, n in stats["statuses"].items() if code >= 500)
    print(
        f"{args.games} two-player games of {args.kind} to the end over HTTP, "
        f"gunicorn {args.workers} "
        f"workers on PostgreSQL, 2 schedulers, 2 senders, {args.clients} client threads"
    )
    print(
        f"  {len(lat)} move posts in {elapsed:.1f} s: {rate:.1f} moves/s, "
        f"median {percentile(lat, 50) * 1000:.1f} ms, p99 {percentile(lat, 99) * 1000:.1f} ms; "
        f"{stats['requests'] / len(lat):.2f} requests per move post"
    )
    thirds = [lat[i * len(lat) // 3 : (i + 1) * len(lat) // 3] for i in range(3)]
    print(
        "  median per third of the run: "
        + ", ".join(f"{percentile(t, 50) * 1000:.1f} ms" for t in thirds if t)
    )
    print(
        f"  bare Flask app, same gunicorn and client: {bare:.0f} requests/s; "
        f"moves/s is {rate / bare * 100:.1f} % of it; floor move app: {floor:.0f} moves/s"
    )
    cpu = Counter({role: s / len(lat) for role, s in stats["cpu"].items()})
    senders_pg = cpu[SENDERS_PG]
    cpu, bare_cpu, floor_cpu = (
        fold_senders_pg(cpu),
        fold_senders_pg(bare_cpu),
        fold_senders_pg(floor_cpu),
    )
    rows = [("per move post", cpu), ("per bare request", bare_cpu), ("per floor move", floor_cpu)]
    for name, used in rows:
        print(
            f"  CPU {name}: {sum(used.values()) * 1000:.2f} ms in all, server "
            f"{server(used) * 1000:.2f}: "
            + ", ".join(f"{role} {seconds * 1000:.2f}" for role, seconds in used.most_common())
        )
    per_request = server(cpu) / (stats["requests"] / len(lat))
    print(
        f"  server ratio (server CPU per move post / per bare request): "
        f"{server(cpu) / server(bare_cpu):.1f}; web workers alone "
        f"{cpu['web workers'] / bare_cpu['web workers']:.1f}; per request of a move post "
        f"{per_request / server(bare_cpu):.1f}"
    )
    print(
        f"  floor ratio (server CPU per move post / per floor move): "
        f"{server(cpu) / server(floor_cpu):.1f}; web workers "
        f"{cpu['web workers'] / floor_cpu['web workers']:.1f}, PostgreSQL "
        f"{cpu['PostgreSQL'] / max(floor_cpu['PostgreSQL'], 1e-9):.1f}"
    )
    print_least_cost(cpu, bare_cpu, floor_cpu, stats["requests"] / len(lat), senders_pg)
    print(
        f"  of PostgreSQL per move post, the senders' backends: {senders_pg * 1000:.2f} ms; "
        f"senders and their backends per mail: "
        f"{(cpu['senders'] + senders_pg) * len(lat) / max(stats['mails'], 1) * 1000:.2f} ms "
        f"({stats['mails']} mails)"
    )
    print(f"  answers: {dict(sorted(stats['statuses'].items()))}; 5xx: {errors}")
    print(
        "  checks: "
        + (
            "every log replays to its snapshot, every turn mail arrived once"
            if not problems
            else "; ".join(problems)
        )
    )


def print_least_cost(
    cpu: Counter, bare_cpu: Counter, floor_cpu: Counter, requests: float, senders_pg: float
) -> None:
    """The least a move post can cost on this stack, whatever the game does:
    one floor move (its transaction, a small page, one mail composed) and
    the rest of its requests answered as cheaply as the bare app's "ok".
    Set against a server ratio of 10, it shows how much is left for all
    that a real move adds (its pages, the checked move, the turn mail's
    board) and for delivering the mails, which the floor does not do."""
    least = server(floor_cpu) + (requests - 1) * server(bare_cpu)
    delivery = cpu["senders"] + senders_pg
    left = 10 * server(bare_cpu) - least
    print(
        f"  least cost of a move post (a floor move and {requests - 1:.2f} bare requests): "
        f"{least * 1000:.2f} ms, server ratio {least / server(bare_cpu):.1f}; at ratio 10, "
        f"{left * 1000:.2f} ms left for delivering its mails (today "
        f"{delivery * 1000:.2f} ms) and all the game adds (today "
        f"{(server(cpu) - least - delivery) * 1000:.2f} ms)"
    )


def fold_senders_pg(used: Counter) -> Counter:
    """The senders' backends counted in "PostgreSQL", as all backends are."""
    folded = Counter(used)
    folded["PostgreSQL"] += folded.pop(SENDERS_PG, 0.0)
    return folded


def server(used: Counter) -> float:
    return sum(used[role] for role in SERVER)


if __name__ == "__main__":
    main()

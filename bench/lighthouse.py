"""Lighthouse's scores for the pages players see most: the move page (for
the player whose turn it is), the lobby (the signed-in home page) and the
open games.

Starts gunicorn (config/gunicorn.conf.py) on a fresh SQLite file with a
Puerto Rico game under way and a public game waiting for players, signs in
as the player to move, and runs Lighthouse (the npm package, installed into
.cache/lighthouse on first use) with Debian's chromium, headless, in its
default mobile profile (a mid-range phone, throttled network and CPU),
``--runs`` times per page; prints the median performance, accessibility
and best-practices scores, and keeps the reports in .cache/lighthouse/reports/.

    .venv/bin/python bench/lighthouse.py
    .venv/bin/python bench/lighthouse.py --runs 3 --kind new_found_land
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.http_moves import free_port, start, wait_for  # noqa: E402
from server import settings as settings_module  # noqa: E402
from server.db import bind, make_database, migrate  # noqa: E402
from server.mail.compose import Mailer  # noqa: E402
from server.models import Game, Seat, User, utcnow  # noqa: E402
from server.services import games  # noqa: E402

CACHE = ROOT / ".cache" / "lighthouse"
LIGHTHOUSE = CACHE / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices")
PASSWORD = "lighthouse-bench-1"
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def lighthouse() -> Path:
    if not LIGHTHOUSE.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        print("installing lighthouse into .cache/lighthouse (npm) ...", flush=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(CACHE), "lighthouse"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return LIGHTHOUSE


def chromium() -> str:
    found = os.environ.get("CHROME_PATH") or shutil.which("chromium")
    if not found:
        raise SystemExit("no chromium: apt-get install chromium (or set CHROME_PATH)")
    return found


def fill(settings: dict, kind: str) -> tuple[int, str]:
    """A game under way and an open one; the game's id and its player to move."""
    from werkzeug.security import generate_password_hash

    database = make_database(settings["DATABASE_URL"], settings)
    bind(database)
    migrate(database)
    mailer = Mailer(settings)
    with database.connection_context():
        people = [
            User.create(
                email=f"p{i}@bench.example",
                name=f"Player {i}",
                password_hash=generate_password_hash(PASSWORD),
                email_verified_at=utcnow(),
            )
            for i in range(1, 5)
        ]
        game = games.create_game(people[0], kind, "A bench game", 3, {}, 48, [24], mailer)
        for index, person in enumerate(people[1:3], start=1):
            games.join(game.id, person, index)
        games.start(game.id, people[0], mailer)
        games.create_game(people[3], kind, "Come and play", 4, {}, 48, [24], mailer, public=True)
        to_move = Game.get_by_id(game.id).to_move
        seat = Seat.get((Seat.game == game.id) & (Seat.index == to_move))
        return game.id, seat.user.email


def session_cookie(base: str, email: str) -> str:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/login", timeout=20).read().decode()
    token = CSRF.search(page)
    assert token, "no form token on the sign-in page"
    data = urllib.parse.urlencode(
        {"csrf_token": token[1], "email": email, "password": PASSWORD}
    ).encode()
    request = urllib.request.Request(f"{base}/login", data=data, headers={"Referer": base})
    opener.open(request, timeout=20).read()
    cookies = "; ".join(f"{c.name}={c.value}" for c in jar)
    assert "session" in cookies, "the sign-in did not take"
    return cookies


def run_lighthouse(url: str, cookie: str, report: Path) -> dict[str, float]:
    subprocess.run(
        [
            str(lighthouse()),
            url,
            f"--chrome-path={chromium()}",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--extra-headers={json.dumps({'Cookie': cookie})}",
            "--output=json",
            f"--output-path={report}",
            "--quiet",
        ],
        check=True,
    )
    found = json.loads(report.read_text())["categories"]
    return {name: found[name]["score"] * 100 for name in CATEGORIES}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page (median)")
    ap.add_argument("--kind", default="puerto_rico", help="the game of the move page")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    lighthouse()
    reports = CACHE / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pbem-lighthouse-") as scratch:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{scratch}/site.sqlite3",
            "PBEM_INSTANCE": f"{scratch}/instance",
            "SECRET_KEY": "lighthouse-bench",
            "PUBLIC_BASE_URL": base,
        }
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "PBEM_INSTANCE", "SECRET_KEY")})
        os.environ["PUBLIC_BASE_URL"] = base
        settings = settings_module.load()
        game_id, email = fill(settings, args.kind)
        server = start(
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
            Path(scratch) / "gunicorn.log",
        )
        try:
            wait_for(f"{base}/login")
            cookie = session_cookie(base, email)
            pages = {
                f"move page ({args.kind})": f"{base}/games/{game_id}",
                "lobby": f"{base}/",
                "open games": f"{base}/games/open",
            }
            print(f"Lighthouse, mobile profile, median of {args.runs} run(s), {chromium()}")
            print(f"{'page':28} " + " ".join(f"{name:>15}" for name in CATEGORIES))
            for label, url in pages.items():
                runs = [
                    run_lighthouse(url, cookie, reports / f"{label.split()[0]}-{n}.json")
                    for n in range(args.runs)
                ]
                medians = [statistics.median(r[name] for r in runs) for name in CATEGORIES]
                print(f"{label:28} " + " ".join(f"{m:15.0f}" for m in medians), flush=True)
        finally:
            server.terminate()
            try:
                server.wait(40)  # gunicorn lets its workers finish first
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)


if __name__ == "__main__":
    main()

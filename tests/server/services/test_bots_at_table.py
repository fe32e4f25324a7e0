"""Bots at the table and practice games.

A host or moderator hands an absent or departed seat to a bot instead of the
default action; the player takes it back by moving or with "I'm back" and is
shown what the bot played.  A practice game seats bots beside one player;
the scheduler plays the bots (run_bots), never the web request of a move."""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from clock_helpers import events, random_move, sign_in, started_game, user
from moderation_helpers import (
    game_row,
    in_db,
    moderate,
    notes,
    outbox,
    seat_row,
    site_moderator,
)
from web_helpers import csrf, form_for, forms, post_form, signup

from engine import bots, get_game
from server.db import db
from server.models import Game, Seat, utcnow
from server.services import bot_seats
from server.services.clock.sweep import run_bots
from server.services.state_store import load_state

TABLE_BOT = "heuristic"
ROOT = Path(__file__).resolve().parents[3]


def bots_move(app, now=None):
    with app.app_context(), db.connection_context():
        return run_bots(app.config, app.extensions["pbem_mailer"], now or utcnow())


def play_to_end(app, game_id: int, people: set[int], rnd: random.Random) -> None:
    """The seats in ``people`` play random moves; the scheduler's bot run
    plays the others, and every run it makes moves the game on."""
    for _ in range(5000):
        row = game_row(app, game_id)
        if row.status == "finished":
            return
        if row.to_move in people:
            random_move(app, game_id, rnd)
        else:
            bots_move(app)
            assert game_row(app, game_id).seq > row.seq, "the bots did not move"
    raise AssertionError("the game did not end")


def mark_absent(app, game_id: int, index: int) -> None:
    in_db(
        app,
        lambda: (
            Seat.update(absent=True, timeouts_in_row=3)
            .where((Seat.game == game_id) & (Seat.index == index))
            .execute()
        ),
    )


def replayed_bot_choices(app, game_id: int) -> list[tuple[dict, dict, dict]]:
    """For every bot move in the log: (what was played, what the bot chooses
    in the position before it, the default action there), replayed from the log."""
    game = game_row(app, game_id)
    kind = get_game(game.kind)
    state = kind.new_game(game.seat_count, game.options, game.seed)
    seen = []
    for row in events(app, game_id):
        if row.kind != "move":
            continue
        if row.actor == "bot":
            bot = in_db(app, lambda: bot_name_at(game_id, row.seat))
            position = SimpleNamespace(seed=game.seed, seq=row.seq - 1)
            chosen = bots.choose(bot, kind, state, row.seat, bot_seats.seed_for(position, row.seat))
            seen.append((row.action, chosen, kind.default_action(state)))
        state, _ = kind.apply(state, row.seat, row.action)
    return seen


def bot_name_at(game_id: int, index: int) -> str:
    """The bot of a seat (the tests never change a seat's bot mid-game)."""
    seat = Seat.get((Seat.game == game_id) & (Seat.index == index))
    return seat.bot or TABLE_BOT


def test_the_table_bot_is_offered():
    assert TABLE_BOT in dict(bot_seats.offered(bot_seats.TABLE_BOTS))


def test_moderator_hands_an_absent_seat_to_a_bot_which_plays_its_turns(app):
    game = started_game(app, players=3, tag="hb")
    absent = game.to_move
    mark_absent(app, game.id, absent)
    mod = site_moderator(app)
    page = moderate(
        mod, game.id, "bot", seat=str(absent + 1), bot=TABLE_BOT, reason="B is away for a month"
    )
    assert "plays seat" in page.text
    assert seat_row(app, game.id, absent).bot == TABLE_BOT
    assert "handed seat" in notes(app, game.id)[-1].events[0]["text"]
    # Handing over changes the record, not the game: the bot moves when the
    # scheduler comes, within seconds (its seat is due at once).
    assert not events(app, game.id, actor="bot")
    report = bots_move(app)
    assert report.actions >= 1
    assert game_row(app, game.id).to_move != absent
    played = replayed_bot_choices(app, game.id)
    assert played and all(action == chosen for action, chosen, _ in played)
    # No timeout notices for a seat a bot plays.
    assert not outbox(app, "timeout", to=f"hb{absent}@example.org")


def test_only_an_absent_or_departed_seat_goes_to_a_bot(app):
    game = started_game(app, players=3, tag="hn")
    mod = site_moderator(app)
    before = game_row(app, game.id).seq
    page = moderate(mod, game.id, "bot", seat="2", bot=TABLE_BOT, reason="just because")
    assert page.status_code == 400
    assert "still played by its player" in page.text
    assert seat_row(app, game.id, 1).bot is None and game_row(app, game.id).seq == before


def test_a_bot_not_offered_is_refused(app):
    game = started_game(app, players=3, tag="hr")
    mark_absent(app, game.id, 1)
    mod = site_moderator(app)
    page = moderate(mod, game.id, "bot", seat="2", bot="nonsense", reason="away")
    assert page.status_code == 400
    assert seat_row(app, game.id, 1).bot is None


def test_a_host_who_plays_hands_an_absent_seat_to_a_bot_alone(app, smtp):
    game = started_game(app, players=3, tag="hh")
    mark_absent(app, game.id, 2)
    host = sign_in(app, "hh0@example.org")
    page = moderate(host, game.id, "bot", seat="3", bot=TABLE_BOT, reason="C vanished")
    assert page.status_code == 200, page.text
    assert seat_row(app, game.id, 2).bot == TABLE_BOT


def test_the_player_comes_back_and_sees_what_the_bot_played(app):
    game = started_game(app, players=3, tag="hc")
    absent = game.to_move
    mark_absent(app, game.id, absent)
    moderate(
        site_moderator(app), game.id, "bot", seat=str(absent + 1), bot=TABLE_BOT, reason="away"
    )
    rnd = random.Random(3)
    for _ in range(40):  # the others play; the bot answers for the absent seat
        bots_move(app)
        if game_row(app, game.id).to_move != absent:
            random_move(app, game.id, rnd)
    assert len(events(app, game.id, actor="bot")) >= 2
    player = sign_in(app, f"hc{absent}@example.org")
    page = player.get(f"/games/{game.id}")
    assert "a bot plays your seat" in page.text
    assert "While you were away" in page.text and "played by a bot" in page.text
    # The log marks its moves (the whole log: the game page shows the last
    # lines only, which the others' moves may have filled).
    assert f"[bot for HC {absent + 1}]" in player.get(f"/games/{game.id}/log").text
    back = post_form(player, form_for(page.text, "/back"))
    assert back.status_code == 200
    seat = seat_row(app, game.id, absent)
    assert seat.bot is None and not seat.absent
    played = len(events(app, game.id, actor="bot"))
    for _ in range(10):
        bots_move(app)
        if game_row(app, game.id).to_move != absent:
            random_move(app, game.id, rnd)
    assert len(events(app, game.id, actor="bot")) == played  # the bot has stopped


def test_a_move_by_the_player_takes_the_seat_back(app):
    game = started_game(app, players=3, tag="hm")
    absent = (game.to_move + 1) % 3
    mark_absent(app, game.id, absent)
    moderate(
        site_moderator(app), game.id, "bot", seat=str(absent + 1), bot=TABLE_BOT, reason="away"
    )
    rnd = random.Random(5)
    while game_row(app, game.id).to_move != absent:
        random_move(app, game.id, rnd)
    random_move(app, game.id, rnd)  # the player, before the scheduler came
    seat = seat_row(app, game.id, absent)
    assert seat.bot is None and not seat.absent


def test_a_departed_seat_keeps_its_bot_to_the_end(app):
    game = started_game(app, players=2, tag="hd")
    mod = site_moderator(app)
    moderate(mod, game.id, "remove", seat="2", reason="cheating")
    moderate(mod, game.id, "bot", seat="2", bot=TABLE_BOT, reason="keep the game alive")
    play_to_end(app, game.id, people={0}, rnd=random.Random(9))
    assert not [e for e in events(app, game.id) if e.seat == 1 and e.actor == "timeout"]
    assert all(a == c for a, c, _ in replayed_bot_choices(app, game.id))


# -- practice games -------------------------------------------------------------
def new_practice(client, kind: str = "puerto_rico", seats: int = 3, bot: str = "random"):
    page = client.get(f"/games/new?kind={kind}")
    form = form_for(page.text, "/games/new")
    return post_form(client, form, name="Practice", seats=str(seats), practice=bot)


@pytest.mark.parametrize("kind", ["puerto_rico", "new_found_land"])
def test_a_practice_game_against_bots_plays_to_the_end(app, kind):
    client = app.test_client()
    signup(client, "Solo", "solo@example.org")
    page = new_practice(client, kind, seats=3)
    assert page.status_code == 200, page.text
    game = in_db(app, lambda: Game.select().order_by(Game.id.desc()).get())
    assert game.status == "active"
    seats = in_db(app, lambda: list(Seat.select().where(Seat.game == game.id).order_by(Seat.index)))
    assert [s.bot for s in seats] == [None, "random", "random"]
    play_to_end(app, game.id, people={0}, rnd=random.Random(1))
    mailed = {m.to_addr for m in outbox(app, "turn")} | {m.to_addr for m in outbox(app, "final")}
    assert mailed == {"solo@example.org"}  # nobody else: the bots get no mail


def test_the_web_request_never_plays_the_bots(app):
    client = app.test_client()
    signup(client, "Solo", "solo2@example.org")
    new_practice(client, "puerto_rico", seats=2)
    game = in_db(app, lambda: Game.select().order_by(Game.id.desc()).get())
    rnd = random.Random(2)
    if game_row(app, game.id).to_move != 0:
        bots_move(app)
    while game_row(app, game.id).to_move == 0:
        page = client.get(f"/games/{game.id}")
        form = next(f for f in forms(page.text) if f["action"].endswith("/move"))
        action = rnd.choice([v for name, v in form["buttons"] if name == "action"])
        client.post(form["action"], data=dict(form["fields"], action=action))
    waiting = game_row(app, game.id)
    assert waiting.to_move == 1 and waiting.status == "active"
    assert seat_row_any(app, game.id, 1).deadline <= utcnow()  # due: the scheduler's job
    bots_move(app)
    assert game_row(app, game.id).seq > waiting.seq


def seat_row_any(app, game_id: int, index: int) -> Seat:
    return in_db(app, lambda: Seat.get((Seat.game == game_id) & (Seat.index == index)))


def test_a_host_seats_a_bot_and_a_person_can_take_its_place(app):
    client = app.test_client()
    signup(client, "Host", "lh@example.org")
    page = client.get("/games/new?kind=puerto_rico")
    post_form(client, form_for(page.text, "/games/new"), name="Mixed", seats="4")
    game = in_db(app, lambda: Game.select().order_by(Game.id.desc()).get())
    lobby = client.get(f"/games/{game.id}/lobby")
    page = post_form(client, form_for(lobby.text, "/bot"), seat="2", bot="random")
    assert "sits in seat 2" in page.text
    post_form(client, form_for(page.text, "/bot"), seat="3", bot="random")
    assert seat_row_any(app, game.id, 2).bot == "random"
    # Taking an occupied seat is refused; a person may take a bot's seat.
    refused = client.post(
        f"/games/{game.id}/bot", data={"csrf_token": csrf(lobby.text), "seat": "1", "bot": "random"}
    )
    assert refused.status_code == 400 and seat_row_any(app, game.id, 0).bot is None
    with app.app_context(), db.connection_context():
        friend = user("friend@example.org", "Friend")
        from server.services import games

        games.join(game.id, friend, 2)
        started = games.start(game.id, game.host, app.extensions["pbem_mailer"])
    assert started.seat_count == 3  # seat 4 was empty and dropped
    seats = in_db(app, lambda: list(Seat.select().where(Seat.game == game.id).order_by(Seat.index)))
    assert [(s.user_id is not None, s.bot) for s in seats] == [
        (True, None),
        (False, "random"),
        (True, None),
    ]


def test_practice_bots_are_named_and_need_no_mail(app):
    client = app.test_client()
    signup(client, "Solo", "solo3@example.org")
    new_practice(client, "new_found_land", seats=2)
    game = in_db(app, lambda: Game.select().order_by(Game.id.desc()).get())
    page = client.get(f"/games/{game.id}")
    assert "Random bot 2" in page.text and "practice game" in page.text
    state = in_db(app, lambda: load_state(Game.get_by_id(game.id), save=False))
    assert state is not None


def test_run_bots_is_quick_to_do_nothing(app):
    game = started_game(app, players=3, tag="hq")
    report = bots_move(app, utcnow() + dt.timedelta(days=30))  # long past every deadline
    assert report.actions == 0 and game_row(app, game.id).seq == game.seq


def test_the_scheduler_process_answers_for_the_bots_within_seconds(
    sqlite_app, sqlite_url, tmp_path
):
    """The real scheduler process, as deployed: a practice game's bots have
    played and it is the player's turn again a few seconds after their move."""
    client = sqlite_app.test_client()
    signup(client, "Solo", "solo4@example.org")
    new_practice(client, "puerto_rico", seats=3)
    game = in_db(sqlite_app, lambda: Game.select().order_by(Game.id.desc()).get())
    env = dict(
        os.environ,
        DATABASE_URL=sqlite_url,
        PBEM_INSTANCE=str(tmp_path / "sched"),
        SECRET_KEY="test-secret",
        SMTP_PORT="1",
        BOT_INTERVAL_SECONDS="1",
        SCHEDULER_INTERVAL="600",
    )
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "server.processes.scheduler"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    rnd, waits = random.Random(4), []
    try:
        for _ in range(5):
            waited = time.monotonic()
            while game_row(sqlite_app, game.id).to_move != 0 and time.monotonic() < waited + 30:
                time.sleep(0.1)
            assert game_row(sqlite_app, game.id).to_move == 0, "the bots did not answer"
            waits.append(time.monotonic() - waited)
            while game_row(sqlite_app, game.id).to_move == 0:
                random_move(sqlite_app, game.id, rnd)
    finally:
        scheduler.terminate()
        scheduler.wait(timeout=10)
    assert len(events(sqlite_app, game.id, actor="bot")) >= 5
    assert max(waits) < 15, waits  # an interval of 1 s, plus the bots' thinking

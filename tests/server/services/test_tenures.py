"""Seats have tenures.  After a moderator gives a seat to a
newcomer, everything its first player did stays theirs: the log, earlier
positions, the record, the result, table talk and mails name the person who
made each move; moves of the clock, a bot or a moderator say so.  SQLite and
PostgreSQL."""

from __future__ import annotations

import json
import random

from moderation_helpers import in_db, random_moves, run_sweep, service_game
from web_helpers import csrf

from server.db import MIGRATIONS, db
from server.models import Event, Game, Outbox, Seat, Tenure, User
from server.services import moderation, table_talk

REASON = "Pat moved abroad"


def login(app, email: str):
    client = app.test_client()
    page = client.get("/login")
    client.post(
        "/login", data={"csrf_token": csrf(page.text), "email": email, "password": "password1"}
    )
    return client


def replace_seat_2(app, gid: int, tag: str) -> int:
    """A site moderator gives seat 2 to Nora; returns the note's seq."""

    def run():
        mod = User.create(
            email=f"mod-{tag}@example.org", name="Mo", password_hash="x", is_moderator=True
        )
        game = Game.get_by_id(gid)
        moderation.replace(
            gid,
            mod,
            game.seq,
            1,
            f"nora-{tag}@example.org",
            "Nora",
            REASON,
            mailer=app.extensions["pbem_mailer"],
        )
        return Game.get_by_id(gid).seq

    return in_db(app, run)


def seat_2_moves(app, gid: int) -> list[Event]:
    return in_db(
        app,
        lambda: list(
            Event.select()
            .where((Event.game == gid) & (Event.seat == 1) & (Event.kind == "move"))
            .order_by(Event.seq)
        ),
    )


def test_the_log_and_record_name_who_held_the_seat_at_each_row(app):
    gid = service_game(app, "ten")
    old = "Ten 2"
    random_moves(app, gid, 6, random.Random(1))
    talk = in_db(
        app,
        lambda: table_talk.post(
            gid,
            Seat.get((Seat.game == gid) & (Seat.index == 1)),
            "Good luck all",
            app.extensions["pbem_mailer"],
        ),
    )
    assert talk.id
    switched = replace_seat_2(app, gid, "a")
    random_moves(app, gid, 8, random.Random(2))
    before = [m for m in seat_2_moves(app, gid) if m.seq < switched]
    after = [m for m in seat_2_moves(app, gid) if m.seq > switched]
    assert before and after

    # A player still at the table (the replaced one no longer reads its talk).
    client = login(app, "ten0@example.org")
    data = json.loads(client.get(f"/games/{gid}/record.json").data)
    by_seq = {}
    for row in data["log"]:
        by_seq.setdefault(row["seq"], []).append(row["text"])
    for move in before:
        assert any(old in t for t in by_seq[move.seq]), by_seq[move.seq]
        assert not any("Nora" in t for t in by_seq[move.seq])
    for move in after:
        assert any("Nora, who took over from Ten 2" in t for t in by_seq[move.seq])
    assert data["players"][1] == "Nora, who took over from Ten 2"
    assert [
        (s["seat"], s["name"], s["began"], s["to_seq"]) for s in data["seats"] if s["seat"] == 2
    ] == [(2, old, "joined", switched), (2, "Nora", "replaced", None)]

    text = client.get(f"/games/{gid}/record.txt").text
    assert "Seats held:" in text and f"seat 2: {old}, rows 1-{switched} (joined, replaced)" in text
    whole = client.get(f"/games/{gid}/log").text
    assert f"{old}" in whole and "Nora, who took over from Ten 2" in whole
    past = client.get(f"/games/{gid}/at/{before[-1].seq}").text
    assert old in past and "Nora" not in past  # the board as it was held then
    page = client.get(f"/games/{gid}").text
    assert f"<b>{old}</b>" in page  # the table talk line is its author's
    # Dutch readers get the same, in Dutch.
    nl = client.get(f"/games/{gid}/record.json", headers={"Accept-Language": "nl"}).data
    assert "Nora, die het overnam van Ten 2" in json.loads(nl)["players"][1]


def test_a_finished_game_lists_every_holder_and_mails_say_so(app, send_mail, smtp):
    gid = service_game(app, "fin")
    random_moves(app, gid, 4, random.Random(3))
    replace_seat_2(app, gid, "b")
    random_moves(app, gid, 3, random.Random(4))

    def abandon():
        mod = User.get(User.email == "mod-b@example.org")
        moderation.abandon(
            gid,
            mod,
            Game.get_by_id(gid).seq,
            "It went on too long",
            mailer=app.extensions["pbem_mailer"],
        )

    in_db(app, abandon)
    page = login(app, "fin1@example.org").get(f"/games/{gid}").text
    assert "Nora, who took over from Fin 2" in page
    # The newcomer's welcome mail tells the history with the old player's name.
    welcome = in_db(
        app,
        lambda: Outbox.get(
            (Outbox.kind == "moderation_seat") & (Outbox.to_addr == "nora-b@example.org")
        ),
    )
    assert "Fin 2" in welcome.body_text


def test_clock_and_moderator_moves_say_who_played_them(app):
    import datetime as dt

    gid = service_game(app, "clk", move_hours=2)
    game = in_db(app, lambda: Game.get_by_id(gid))
    to_move = game.to_move
    # Two sweeps: the first is a last call (no reminder had gone out).
    run_sweep(app, dt.datetime.utcnow() + dt.timedelta(hours=3))
    run_sweep(app, dt.datetime.utcnow() + dt.timedelta(hours=9))
    client = login(app, "clk1@example.org")
    log = client.get(f"/games/{gid}/log").text
    assert f"[the clock for Clk {to_move + 1}]" in log

    def default():
        mod = User.create(
            email="mod-c@example.org", name="Mo", password_hash="x", is_moderator=True
        )
        g = Game.get_by_id(gid)
        moderation.play_default(
            gid, mod, g.seq, "Nobody there", mailer=app.extensions["pbem_mailer"]
        )

    seat = in_db(app, lambda: Game.get_by_id(gid).to_move)
    in_db(app, default)
    assert f"[Mo (moderator) for Clk {seat + 1}]" in client.get(f"/games/{gid}/log").text


def test_the_migration_rebuilds_tenures_from_the_notes(app):
    from playhouse.migrations import Runner

    gid = service_game(app, "mig")
    random_moves(app, gid, 3, random.Random(5))
    switched = replace_seat_2(app, gid, "m")

    def redo():
        runner = Runner(db.obj, str(MIGRATIONS))
        runner.down("0023_tenures_takebacks")
        runner.up()
        return [
            (t.seat, t.user.name if t.user_id else None, t.from_seq, t.to_seq, t.began)
            for t in Tenure.select()
            .where(Tenure.game == gid)
            .order_by(Tenure.seat, Tenure.from_seq)
        ]

    assert in_db(app, redo) == [
        (0, "Mig 1", 0, None, "joined"),
        (1, "Mig 2", 0, switched, "joined"),
        (1, "Nora", switched, None, "replaced"),
        (2, "Mig 3", 0, None, "joined"),
    ]


def test_resigning_ends_a_tenure_and_the_clock_plays_for_the_departed(app):
    gid = service_game(app, "res")

    def resign():
        user = User.get(User.email == "res1@example.org")
        moderation.resign(
            gid, user, Game.get_by_id(gid).seq, "Busy", mailer=app.extensions["pbem_mailer"]
        )
        return Game.get_by_id(gid).seq

    left = in_db(app, resign)
    held = in_db(
        app, lambda: list(Tenure.select().where((Tenure.game == gid) & (Tenure.seat == 1)))
    )
    assert [(t.to_seq, t.ended) for t in held] == [(left, "resigned")]

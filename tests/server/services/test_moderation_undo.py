"""Undo: the undone moves stay in the log, marked; the state is rebuilt from
the log alone; forms made before the undo are stale; replaying the same
moves gives the same states again."""

from __future__ import annotations

import random

import pytest
from game_driver import Table, current_turn, db_state
from moderation_helpers import (
    in_db,
    moderate,
    moves,
    notes,
    random_moves,
    site_moderator,
    state_json,
)
from web_helpers import move_form, post_form, text_of

from server.models import Event, Game, User
from server.services import moderation as service
from server.services.moves import StaleMove, play
from server.services.state_store import load_state, replay, rules


def replayed(app, gid: int, upto: int | None = None) -> dict:
    def run():
        game = Game.get_by_id(gid)
        return rules(game).to_json(replay(game, upto))

    return in_db(app, run)


def test_undo_then_replay_gives_exactly_the_state_before(table):
    app, gid = table.app, table.game_id
    seat, client, page, _ = current_turn(table)
    first_form = move_form(page.text)
    before, seq0, to_move0 = state_json(app, gid), table.game().seq, table.game().to_move
    played = random_moves(app, gid, 3, random.Random(3))
    after = state_json(app, gid)
    assert after != before
    waiting = table.clients[table.game().to_move]
    late_form = move_form(waiting.get(f"/games/{gid}").text)
    resp = moderate(site_moderator(app), gid, "undo", count="3", reason="Misclick, all agree")
    assert resp.status_code == 200 and "Undid 3 moves" in resp.text

    assert state_json(app, gid) == before  # the snapshot was rebuilt
    assert state_json(app, gid, cached=False) == before  # and the log replays to it
    assert replayed(app, gid) == before
    game = table.game()
    assert (game.seq, game.to_move, game.status) == (seq0 + 4, to_move0, "active")
    rows = moves(app, gid)
    assert [(r.seq, r.undone) for r in rows] == [(seq0 + i, True) for i in (1, 2, 3)]
    (note,) = notes(app, gid)
    assert note.seq == seq0 + 4 and note.action["seqs"] == [seq0 + 1, seq0 + 2, seq0 + 3]

    for form, who in ((first_form, client), (late_form, waiting)):
        stale = post_form(who, form, action=form["buttons"][0][1])
        assert stale.status_code == 409 and "moved on" in stale.text
    assert table.game().seq == seq0 + 4

    log = table.clients[0].get(f"/games/{gid}").text
    assert "(undone)" in log and "Misclick, all agree" in log
    for email in table.emails:
        assert any("Misclick, all agree" in text_of(m) for m in table.new_mail(email))

    for seat, action in played:  # the same moves again
        in_db(
            app,
            lambda: play(
                gid,
                seat,
                action,
                Game.get_by_id(gid).seq,
                "player",
                mailer=app.extensions["pbem_mailer"],
            ),
        )
    assert state_json(app, gid) == after == state_json(app, gid, cached=False)


def test_undo_sends_the_seat_to_move_a_fresh_turn_mail(table):
    app, gid = table.app, table.game_id
    current_turn(table)  # read the first turn mail
    ((seat, _),) = random_moves(app, gid, 1, random.Random(1))
    moderator = site_moderator(app)
    for email in table.emails:
        table.new_mail(email)
    moderate(moderator, gid, "undo", count="1", reason="Played out of turn")
    mails = [m for m in table.new_mail(table.emails[seat]) if "It is your turn in" in text_of(m)]
    assert len(mails) == 1
    page = table.clients[seat].get(f"/games/{gid}")
    assert move_form(page.text) is not None


def test_cannot_undo_more_than_was_played(table):
    app, gid = table.app, table.game_id
    random_moves(app, gid, 2, random.Random(2))
    moderator = site_moderator(app)
    before = db_state(app, gid)
    for count, words in (("3", "There are 2 moves to undo"), ("0", "Moves to undo")):
        resp = moderate(moderator, gid, "undo", count=count, reason="Too far back")
        assert resp.status_code == 400 and words in resp.text
    assert db_state(app, gid) == before


def test_two_undos_from_the_same_page_apply_once(table):
    app, gid = table.app, table.game_id
    random_moves(app, gid, 2, random.Random(4))
    site_moderator(app)
    host = in_db(app, lambda: User.get(User.email == "mod@example.org"))
    seq = table.game().seq
    mailer = app.extensions["pbem_mailer"]
    in_db(app, lambda: service.undo(gid, host, seq, 1, "first click", mailer=mailer))
    with pytest.raises(StaleMove):
        in_db(app, lambda: service.undo(gid, host, seq, 1, "second click", mailer=mailer))
    assert [r.undone for r in moves(app, gid)] == [False, True]


def test_undo_reopens_a_finished_game_and_replay_ends_it_the_same(app, smtp, send_mail):
    t = Table(app, smtp, send_mail, 2, seed=5)
    gid = t.set_up()
    rnd = random.Random(8)
    while in_db(app, lambda: Game.get_by_id(gid).status) == "active":
        random_moves(app, gid, 1, rnd)
    finished = t.game()
    last = moves(app, gid)[-1]
    before_last = replayed(app, gid, last.seq - 1)
    moderate(site_moderator(app), gid, "undo", count="1", reason="The last move was a misclick")
    game = t.game()
    assert (game.status, game.outcome, game.finished_at) == ("active", None, None)
    assert game.to_move == last.seat and state_json(app, gid) == before_last
    in_db(
        app,
        lambda: play(
            gid, last.seat, last.action, game.seq, "player", mailer=app.extensions["pbem_mailer"]
        ),
    )
    again = t.game()
    assert again.status == "finished" and again.outcome == finished.outcome
    assert in_db(app, lambda: Event.select().where(Event.game == gid).count()) == again.seq


def test_load_state_skips_notes_and_undone_moves(table):
    """Replay reads only the log: notes and undone rows change nothing."""
    app, gid = table.app, table.game_id
    random_moves(app, gid, 2, random.Random(6))
    mod = site_moderator(app)
    moderate(mod, gid, "pause", reason="Quick break")
    moderate(mod, gid, "undo", count="1", reason="Take one back")
    moderate(table.clients[0], gid, "resume", reason="Go on")
    first = moves(app, gid)[0]
    expected = replayed(app, gid, first.seq)
    assert state_json(app, gid, cached=False) == expected == replayed(app, gid)

    def direct():
        game = Game.get_by_id(gid)
        kind = rules(game)
        state = kind.new_game(game.seat_count, game.options, game.seed)
        return kind.to_json(kind.apply(state, first.seat, first.action)[0])

    assert in_db(app, direct) == expected
    assert (
        in_db(
            app,
            lambda: rules(Game.get_by_id(gid)).to_json(load_state(Game.get_by_id(gid), save=False)),
        )
        == expected
    )

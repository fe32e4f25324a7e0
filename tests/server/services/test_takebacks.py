"""Takebacks by consent.  A player asks to take back their
own move; every other player is asked (page and mail); one no ends it,
silence lapses it in the scheduler's sweep; the clock of the seat to move
stands still meanwhile; when all agree the moves are undone on the record.
An undo never removes a move its maker did not agree to lose.  SQLite and
PostgreSQL."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from moderation_helpers import in_db, moves, notes, outbox, run_sweep, seat_row, service_game
from race_helpers import while_open
from test_tenures import login
from web_helpers import form_for

from server.models import Event, Game, Seat, Takeback, User, utcnow
from server.services import moderation, proposals, takebacks
from server.services.moves import StaleMove, play
from server.services.state_store import load_state, rules

HOUR = dt.timedelta(hours=1)


def mailer(app):
    return app.extensions["pbem_mailer"]


def play_own(app, gid: int, rnd: random.Random) -> tuple[int, int]:
    """The seat to move plays a random legal move as its player; (seat, seq)."""

    def one():
        game = Game.get_by_id(gid)
        seat = Seat.get((Seat.game == gid) & (Seat.index == game.to_move))
        action = rnd.choice(rules(game).legal_actions(load_state(game), game.to_move))
        played = play(
            gid, game.to_move, action, game.seq, "player", mailer=mailer(app), user_id=seat.user_id
        )
        return game.to_move, played.seq

    return in_db(app, one)


def until_another_seat(app, gid: int, rnd) -> tuple[int, int]:
    """The seat to move plays until the turn passes to another seat: (seat, its last seq)."""
    first = in_db(app, lambda: Game.get_by_id(gid).to_move)
    while True:
        seat, seq = play_own(app, gid, rnd)
        if in_db(app, lambda: Game.get_by_id(gid).to_move) != first:
            return seat, seq


def user_of(app, gid: int, index: int) -> User:
    return in_db(
        app, lambda: User.get_by_id(Seat.get((Seat.game == gid) & (Seat.index == index)).user_id)
    )


def email_of(tag: str, index: int) -> str:
    return f"{tag}{index}@example.org"


def test_a_player_asks_the_others_agree_and_the_move_is_taken_back(app):
    gid = service_game(app, "tb")
    seat, seq = until_another_seat(app, gid, random.Random(1))
    before = [m.seq for m in moves(app, gid) if not m.undone]
    asker = login(app, email_of("tb", seat))
    page = asker.get(f"/games/{gid}").text
    form = form_for(page, f"/games/{gid}/takeback")
    assert f'value="{seq}"' in page and "Take back a move of yours" in page
    done = asker.post(
        form["action"], data=dict(form["fields"], back_to=str(seq)), follow_redirects=True
    )
    assert done.status_code == 200 and "the other players are asked" in done.text
    held = in_db(app, lambda: Takeback.get(Takeback.game == gid))
    assert held.status == "open" and held.seqs == [seq]
    waiting = in_db(app, lambda: Game.get_by_id(gid).to_move)
    assert seat_row(app, gid, waiting).deadline is None  # its clock stands still
    others = [i for i in range(3) if i != seat]
    for i in others:  # asked by mail
        assert outbox(app, "takeback_request", email_of("tb", i))
    assert not outbox(app, "takeback_request", email_of("tb", seat))
    # The player to move cannot move meanwhile; the asker is not asked.
    mover = login(app, email_of("tb", waiting))
    assert f'action="/games/{gid}/move"' not in mover.get(f"/games/{gid}").text
    assert "Yes, take it back" not in asker.get(f"/games/{gid}").text

    first, second = (login(app, email_of("tb", i)) for i in others)
    page = first.get(f"/games/{gid}").text
    yes = form_for(page, f"/takebacks/{held.id}/yes")
    assert (
        "waits for the other players"
        in first.post(yes["action"], data=yes["fields"], follow_redirects=True).text
    )
    assert [m.seq for m in moves(app, gid) if not m.undone] == before
    page = second.get(f"/games/{gid}").text
    yes = form_for(page, f"/takebacks/{held.id}/yes")
    assert (
        "Everybody agreed"
        in second.post(yes["action"], data=yes["fields"], follow_redirects=True).text
    )
    assert [m.seq for m in moves(app, gid) if not m.undone] == [s for s in before if s < seq]
    game = in_db(app, lambda: Game.get_by_id(gid))
    assert game.to_move == seat
    note = notes(app, gid)[-1]
    assert note.action["note"] == "takeback" and note.action["seqs"] == [seq]
    text = note.events[0]["text"]
    names = [u.name for u in (user_of(app, gid, i) for i in others)]
    assert user_of(app, gid, seat).name in text and all(n in text for n in names)
    assert seat_row(app, gid, seat).deadline is not None  # a fresh clock


def test_one_no_ends_it_and_the_clock_resumes_shifted_by_the_wait(app):
    gid = service_game(app, "no")
    seat, seq = until_another_seat(app, gid, random.Random(2))
    waiting = in_db(app, lambda: Game.get_by_id(gid).to_move)
    deadline = seat_row(app, gid, waiting).deadline
    asked_at = utcnow()
    game_seq = in_db(app, lambda: Game.get_by_id(gid).seq)
    asker = user_of(app, gid, seat)
    in_db(app, lambda: takebacks.ask(gid, asker, game_seq, seq, mailer=mailer(app), now=asked_at))
    held = in_db(app, lambda: Takeback.get(Takeback.game == gid))
    refuser = user_of(app, gid, waiting)
    said = in_db(
        app,
        lambda: takebacks.answer(
            gid, refuser, held.id, held.seq, False, mailer=mailer(app), now=asked_at + 5 * HOUR
        ),
    )
    assert "nothing is taken back" in said
    assert all(not m.undone for m in moves(app, gid))
    assert in_db(app, lambda: Takeback.get_by_id(held.id).status) == "refused"
    assert seat_row(app, gid, waiting).deadline == deadline + 5 * HOUR
    assert notes(app, gid)[-1].action["note"] == "takeback_refused"
    with pytest.raises(StaleMove):  # answered once
        in_db(
            app, lambda: takebacks.answer(gid, refuser, held.id, held.seq, True, mailer=mailer(app))
        )


def test_silence_lapses_it_in_the_sweep(app):
    gid = service_game(app, "si", move_hours=72)
    seat, seq = until_another_seat(app, gid, random.Random(3))
    waiting = in_db(app, lambda: Game.get_by_id(gid).to_move)
    deadline = seat_row(app, gid, waiting).deadline
    asked_at = utcnow()
    game_seq = in_db(app, lambda: Game.get_by_id(gid).seq)
    asker = user_of(app, gid, seat)
    in_db(app, lambda: takebacks.ask(gid, asker, game_seq, seq, mailer=mailer(app), now=asked_at))
    run_sweep(app, asked_at + 23 * HOUR)  # not yet (TAKEBACK_HOURS 24)
    assert in_db(app, lambda: Takeback.get(Takeback.game == gid).status) == "open"
    report = run_sweep(app, asked_at + 25 * HOUR)
    assert report.takebacks == 1
    assert in_db(app, lambda: Takeback.get(Takeback.game == gid).status) == "lapsed"
    assert notes(app, gid)[-1].action["note"] == "takeback_lapsed"
    assert seat_row(app, gid, waiting).deadline == deadline + 25 * HOUR
    assert all(not m.undone for m in moves(app, gid))


def test_two_yeses_at_the_same_moment_both_count(app):
    """The last two players asked say yes at once: the request row is locked
    while each adds their yes, so neither yes is lost and the move is taken
    back (once, a yes could overwrite the other and the game stood still
    until the request lapsed)."""
    gid = service_game(app, "yy")
    seat, seq = until_another_seat(app, gid, random.Random(3))
    game_seq = in_db(app, lambda: Game.get_by_id(gid).seq)
    asker = user_of(app, gid, seat)
    in_db(app, lambda: takebacks.ask(gid, asker, game_seq, seq, mailer=mailer(app)))
    held = in_db(app, lambda: Takeback.get(Takeback.game == gid))
    first, second = (user_of(app, gid, i) for i in range(3) if i != seat)
    said = while_open(
        app,
        lambda: takebacks.answer(gid, first, held.id, held.seq, True, mailer=mailer(app)),
        lambda: takebacks.answer(gid, second, held.id, held.seq, True, mailer=mailer(app)),
    )
    assert "waits for the other players" in said[0]
    assert "Everybody agreed" in said[1]
    done = in_db(app, lambda: Takeback.get_by_id(held.id))
    assert done.status == "done" and set(done.agreed) == {first.id, second.id}
    assert [m.seq for m in moves(app, gid) if m.undone][:1] == [seq]


def test_an_earlier_move_names_the_moves_after_it_and_asks_their_makers(app):
    gid = service_game(app, "ea")
    rnd = random.Random(4)
    seat, seq = until_another_seat(app, gid, rnd)
    other, other_seq = until_another_seat(app, gid, rnd)
    mine_seat = seat_row(app, gid, seat)
    offers = in_db(app, lambda: takebacks.offers(Game.get_by_id(gid), mine_seat))
    mine = next(o for o in offers if o.seq == seq)
    other_name = user_of(app, gid, other).name
    assert f"{other_name} (log #{other_seq})" in mine.after
    game_seq = in_db(app, lambda: Game.get_by_id(gid).seq)
    asker = user_of(app, gid, seat)
    in_db(app, lambda: takebacks.ask(gid, asker, game_seq, seq, mailer=mailer(app)))
    held = in_db(app, lambda: Takeback.get(Takeback.game == gid))
    assert user_of(app, gid, other).id in held.asked
    assert other_name in in_db(app, lambda: takebacks.describe(Game.get_by_id(gid), held))
    for index in range(3):
        if index != seat:
            person = user_of(app, gid, index)
            in_db(
                app,
                lambda: takebacks.answer(gid, person, held.id, held.seq, True, mailer=mailer(app)),
            )
    assert [m.undone for m in moves(app, gid) if m.seq >= seq] == [True] * (other_seq - seq + 1)


def test_refusals_change_nothing(app):
    gid = service_game(app, "rf")
    rnd = random.Random(5)
    seat, seq = until_another_seat(app, gid, rnd)
    other, other_seq = until_another_seat(app, gid, rnd)
    game_seq = in_db(app, lambda: Game.get_by_id(gid).seq)
    client = login(app, email_of("rf", other))
    page = client.get(f"/games/{gid}").text
    form = form_for(page, f"/games/{gid}/takeback")
    for back_to, code in ((str(seq), 400), ("x", 400), ("²", 400), (str(10**12), 400)):
        assert (
            client.post(form["action"], data=dict(form["fields"], back_to=back_to)).status_code
            == code
        ), back_to
    stale = client.post(
        form["action"], data=dict(form["fields"], back_to=str(other_seq), seq=str(game_seq - 1))
    )
    assert stale.status_code == 409
    assert (
        client.post(
            form["action"], data={"back_to": str(other_seq), "seq": str(game_seq)}
        ).status_code
        == 400
    )
    assert client.get(f"/games/{gid}/takeback").status_code == 405
    stranger = app.test_client()
    assert stranger.post(form["action"], data=dict(form["fields"])).status_code in (302, 400, 401)
    assert in_db(app, lambda: Takeback.select().count()) == 0
    assert in_db(app, lambda: Game.get_by_id(gid).seq) == game_seq


def test_a_host_undo_proposal_needs_the_yes_of_a_mover_who_left(app):
    gid = service_game(app, "hp")
    rnd = random.Random(6)
    host = user_of(app, gid, 0)
    while True:  # a move by someone other than the host, then they resign
        seat, seq = play_own(app, gid, rnd)
        if seat != 0 and in_db(app, lambda: Game.get_by_id(gid).to_move) != seat:
            break
    mover = user_of(app, gid, seat)
    in_db(
        app,
        lambda: moderation.resign(gid, mover, Game.get_by_id(gid).seq, "Busy", mailer=mailer(app)),
    )
    live = [m for m in moves(app, gid) if not m.undone]
    count = len([m for m in live if m.seq >= seq])
    in_db(
        app,
        lambda: proposals.propose(
            gid,
            host,
            Game.get_by_id(gid).seq,
            "undo",
            {"count": count},
            "Misclick",
            mailer=mailer(app),
        ),
    )
    proposal = in_db(app, lambda: proposals.open_proposal(Game.get_by_id(gid)))
    voters = in_db(
        app, lambda: {s.user_id for s in proposals.voters(Game.get_by_id(gid), proposal)}
    )
    assert mover.id in voters
    third = next(i for i in range(1, 3) if i != seat)
    third_user = user_of(app, gid, third)
    said = in_db(
        app, lambda: proposals.answer(gid, third_user, proposal.id, True, mailer=mailer(app))
    )
    assert "waits for the other players" in said
    assert all(not m.undone for m in moves(app, gid))
    in_db(app, lambda: proposals.answer(gid, mover, proposal.id, True, mailer=mailer(app)))
    assert any(m.undone for m in moves(app, gid))


def test_alone_against_bots_a_takeback_needs_nobody(app):
    from server.services import games

    host = in_db(
        app,
        lambda: User.create(
            email="solo@example.org", name="Solo", password_hash="x", email_verified_at=utcnow()
        ),
    )
    gid = in_db(
        app,
        lambda: (
            games.create_practice(host, "puerto_rico", "Solo", 3, {}, "random", 24, mailer(app)).id
        ),
    )
    from server.services.clock.sweep import run_bots

    for _ in range(10):  # the bots play until it is the host's turn
        if in_db(app, lambda: Game.get_by_id(gid).to_move) == 0:
            break
        in_db(app, lambda: run_bots(app.config, mailer(app), utcnow() + HOUR))
    seat, seq = play_own(app, gid, random.Random(7))
    in_db(app, lambda: takebacks.ask(gid, host, Game.get_by_id(gid).seq, seq, mailer=mailer(app)))
    assert in_db(app, lambda: Event.get((Event.game == gid) & (Event.seq == seq)).undone)
    assert in_db(app, lambda: Game.get_by_id(gid).to_move) == 0


def test_a_new_request_after_one_ran_out_keeps_the_clock(app):
    gid = service_game(app, "rr")
    seat, seq = until_another_seat(app, gid, random.Random(8))
    waiting = in_db(app, lambda: Game.get_by_id(gid).to_move)
    deadline = seat_row(app, gid, waiting).deadline
    asker, asked_at = user_of(app, gid, seat), utcnow()
    game_seq = in_db(app, lambda: Game.get_by_id(gid).seq)
    in_db(app, lambda: takebacks.ask(gid, asker, game_seq, seq, mailer=mailer(app), now=asked_at))
    again = asked_at + 30 * HOUR  # ran out, and no sweep came yet
    in_db(app, lambda: takebacks.ask(gid, asker, game_seq + 1, seq, mailer=mailer(app), now=again))
    second = in_db(app, lambda: Takeback.select().order_by(Takeback.id.desc()).get())
    assert second.held_deadline == deadline + 30 * HOUR
    assert [t.status for t in in_db(app, lambda: list(Takeback.select()))] == ["lapsed", "open"]


def test_a_player_who_came_by_a_mail_link_answers_without_signing_in(app):
    from urllib.parse import urlsplit

    gid = service_game(app, "ml", players=2)
    seat, seq = until_another_seat(app, gid, random.Random(10))
    asker = user_of(app, gid, seat)
    game_seq = in_db(app, lambda: Game.get_by_id(gid).seq)
    in_db(app, lambda: takebacks.ask(gid, asker, game_seq, seq, mailer=mailer(app)))
    held = in_db(app, lambda: Takeback.get(Takeback.game == gid))
    other = seat_row(app, gid, 1 - seat)
    link = in_db(app, lambda: mailer(app).links.seat_url(other))
    client = app.test_client()
    page = client.get(urlsplit(link).path, follow_redirects=True).text
    yes = form_for(page, f"/takebacks/{held.id}/yes")
    done = client.post(yes["action"], data=yes["fields"], follow_redirects=True)
    assert "Everybody agreed" in done.text
    assert in_db(app, lambda: Event.get((Event.game == gid) & (Event.seq == seq)).undone)

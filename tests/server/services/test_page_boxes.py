"""The game page learns in one statement which of its nearly
always empty boxes have anything to show (web/play.py page_game, with the
game row, its snapshot and whether the browser's session lives) and reads
the details of those only; each answer is what the box's own read says.
The takeback offers read only the rows they name, and say what the last
fifty moves say; a log row's lines, kept by content, stay each viewer's own.
SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import random
from functools import partial

from moderation_helpers import in_db, service_game
from test_takebacks import mailer, play_own, user_of
from test_tenures import replace_seat_2

from engine import Event
from server.i18n import say
from server.models import Game, Rematch, Seat, utcnow
from server.services import (
    moderation,
    proposals,
    sessions,
    table_talk,
    takebacks,
    tenures,
    what_a_seat_sees,
)
from server.services.clock import vacations
from server.services.state_store import game_with_snapshot
from server.web.play import page_game


def boxes(gid: int):
    game, there, alive = page_game(gid, "", utcnow())
    assert not alive  # no session has the key ""
    return game, there


def check_boxes(app, gid: int) -> dict:
    """Each answer of page_game's boxes is what the box's own read says,
    and its game row and snapshot are what game_with_snapshot reads."""

    def check():
        game, there = boxes(gid)
        alone = game_with_snapshot(gid)
        assert game.__data__ == alone.__data__
        assert (game.snap and game.snap.__data__) == (alone.snap and alone.snap.__data__)
        seats = what_a_seat_sees.seats_with_users(game)
        names = what_a_seat_sees.names_of(seats)
        assert there.takeback == (takebacks.OPEN_TAKEBACK.first(game.id, game.seq) is not None)
        assert there.proposal == (proposals.open_proposal(game) is not None)
        away = vacations.declared([s.user_id for s in seats if s.user_id], utcnow())
        assert there.vacation == bool(away)
        assert there.talk == bool(what_a_seat_sees.table_talk(game, names=names))
        assert there.rematch == Rematch.select().where(Rematch.game == gid).exists()
        if not there.tenures:  # the seats are named as they are held today
            roster = tenures.roster(game, names)
            for seq in range(game.seq + 1):
                assert roster.names_at(seq, "nl") == names
            assert roster.final_names("nl") == names
        return there._asdict()

    return in_db(app, check)


def test_each_box_is_read_when_it_has_something_to_show(app):
    gid = service_game(app, "bx")
    rnd = random.Random(3)
    for _ in range(4):
        play_own(app, gid, rnd)
    assert not any(check_boxes(app, gid).values())

    asker, first = user_of(app, gid, 0), user_of(app, gid, 1)
    own = in_db(app, lambda: Seat.get((Seat.game == gid) & (Seat.user == asker.id)))
    offered = in_db(app, lambda: takebacks.offers(Game.get_by_id(gid), own))
    seq = in_db(app, lambda: Game.get_by_id(gid).seq)
    in_db(app, lambda: takebacks.ask(gid, asker, seq, offered[0].seq, mailer=mailer(app)))
    assert check_boxes(app, gid)["takeback"]

    seat = in_db(app, lambda: Seat.get((Seat.game == gid) & (Seat.user == first.id)))
    in_db(app, lambda: table_talk.post(gid, seat, "hello", mailer(app)))
    assert check_boxes(app, gid)["talk"]

    today = utcnow().date()
    in_db(
        app,
        lambda: vacations.declare(
            first, today + dt.timedelta(days=3), today + dt.timedelta(days=5), utcnow(), 30
        ),
    )
    assert check_boxes(app, gid)["vacation"]

    replace_seat_2(app, gid, "bx")  # the takeback lapses: the game moved on
    there = check_boxes(app, gid)
    assert there["tenures"] and not there["takeback"]


def test_a_proposal_box_and_a_rematch_box(app):
    gid = service_game(app, "pr")
    host = user_of(app, gid, 0)
    seq = in_db(app, lambda: Game.get_by_id(gid).seq)
    in_db(
        app,
        lambda: proposals.propose(
            gid, host, seq, "abandon", {}, "We stop here", mailer=mailer(app)
        ),
    )
    assert check_boxes(app, gid)["proposal"]
    in_db(
        app,
        lambda: Rematch.create(
            game=gid, proposer=host.id, asked=[], expires_at=utcnow() + dt.timedelta(hours=1)
        ),
    )
    assert check_boxes(app, gid)["rematch"]


def reference_offers(game, seat, language, names):
    """The offers as read before the page learned its boxes in one statement: the fifty last live moves, then
    the events of the player's own newest ones."""
    rows = takebacks._live_moves(game, moderation.UNDO_MAX)
    listed = [(at, r) for at, r in enumerate(rows) if takebacks._own(r, seat)][: takebacks.LISTED]
    return [
        takebacks.Offer(
            r.seq,
            " ".join(
                t
                for t in (
                    Event.from_json(data).text_for(seat.index, names, partial(say, language))
                    for data in r.events
                )
                if t
            )
            or f"#{r.seq}",
            [say(language, takebacks._named_move(names[x.seat], x.seq)) for x in rows[:at][::-1]],
        )
        for at, r in listed
    ]


def test_offers_say_what_the_last_fifty_moves_say(app):
    gid = service_game(app, "of")
    rnd = random.Random(11)

    def compare():
        game = Game.get_by_id(gid)
        seats = what_a_seat_sees.seats_with_users(game)
        names = what_a_seat_sees.names_of(seats, "de")
        found = 0
        for seat in seats:
            offers = takebacks.offers(game, seat, "de", names)
            assert offers == reference_offers(game, seat, "de", names)
            found += len(offers)
        return found

    assert in_db(app, compare) == 0  # no move yet
    for rounds in (3, 70):
        for _ in range(rounds):
            play_own(app, gid, rnd)
        assert in_db(app, compare) > 0
    # A move taken back is no longer offered, nor named after another.
    asker = user_of(app, gid, in_db(app, lambda: Game.get_by_id(gid).to_move))
    own = in_db(app, lambda: Seat.get((Seat.game == gid) & (Seat.user == asker.id)))
    offered = in_db(app, lambda: takebacks.offers(Game.get_by_id(gid), own))
    seq = in_db(app, lambda: Game.get_by_id(gid).seq)
    in_db(app, lambda: takebacks.ask(gid, asker, seq, offered[-1].seq, mailer=mailer(app)))
    held = in_db(app, lambda: takebacks.open_takeback(Game.get_by_id(gid)))
    for index in range(3):
        person = user_of(app, gid, index)
        if person.id in held.asked:
            in_db(
                app,
                lambda: takebacks.answer(gid, person, held.id, held.seq, True, mailer=mailer(app)),
            )
    assert in_db(app, compare) > 0


def test_kept_log_lines_are_each_viewers_own():
    """A row's lines are kept by everything they depend on: a private text
    stays its seat's, a new name or an undo makes new lines."""
    from collections import namedtuple
    from json import dumps

    from engine.words import msg

    Row = namedtuple("Row", "seq events undone actor seat kind by_name")
    private = Event(
        msg("{s0} loads %(n)s coffee", n=2), 0, private_to=0, public_text=msg("{s0} loads")
    )
    text = dumps([private.to_json()], separators=(",", ":"))
    row = Row(7, text, False, "bot", 0, "move", None)
    roster = tenures.Roster([], ["Ann", "Bob"])

    def lines(viewer, rows=(row,), names=roster):
        return [line.text for line in what_a_seat_sees._lines(rows, viewer, names, "en")]

    for _ in range(2):  # read, then kept
        assert lines(0) == ["[bot for Ann] Ann loads 2 coffee"]
        assert lines(1) == ["[bot for Ann] Ann loads"]
        assert lines(None) == ["[bot for Ann] Ann loads"]
    assert lines(0, names=tenures.Roster([], ["Cleo", "Bob"])) == [
        "[bot for Cleo] Cleo loads 2 coffee"
    ]
    assert lines(1, rows=(row._replace(undone=True),)) == ["(undone) [bot for Ann] Ann loads"]
    assert lines(1, rows=(row._replace(actor="player"),)) == ["Ann loads"]


def test_page_game_says_whether_the_browser_session_lives(app):
    """The page reads the session row with the game (a seat link counts
    only while it lives): the answer is sessions.is_alive's."""
    gid = service_game(app, "alive")

    def check():
        key = sessions.start(None, dt.timedelta(days=1))
        answers = [page_game(gid, key, utcnow())[2], sessions.is_alive(key)]
        sessions.end(key)
        answers += [page_game(gid, key, utcnow())[2], sessions.is_alive(key)]
        return answers, page_game(10**9, key, utcnow())

    assert in_db(app, check) == ([True, True, False, False], None)

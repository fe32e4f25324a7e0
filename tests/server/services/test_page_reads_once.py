"""The game page reads less, and says the same.  The recent lines
and the lines since the player's move come from one read when it reaches
back far enough, and from a second read when it does not; a Prepared
query's rows are the same on every run once it has learned how to read
them.  SQLite and PostgreSQL."""

from __future__ import annotations

import random

from moderation_helpers import in_db, random_moves, service_game

from server.models import Game, Seat
from server.services import tenures, what_a_seat_sees
from server.services.what_a_seat_sees import names_of


def test_recent_and_since_says_what_two_reads_say(app):
    gid = service_game(app, "once", players=3)
    random_moves(app, gid, 40, random.Random(7))

    def check():
        game = Game.get_by_id(gid)
        names = names_of(what_a_seat_sees.seats_with_users(game))
        roster = tenures.roster(game, names)
        for count in (3, 30):
            # Since the start (a second read), near the end (one read), none.
            for since in (0, 1, game.seq - 20, game.seq - 2, game.seq, None):
                recent, result = what_a_seat_sees.recent_and_since(
                    game, 1, names, count, since, "nl", roster
                )
                assert recent == what_a_seat_sees.recent_log_lines(game, 1, names, count, "nl")
                assert result == (
                    []
                    if since is None
                    else what_a_seat_sees.log_lines(game, 1, names, after=since, language="nl")
                )
        return game.seq

    assert in_db(app, check) >= 40


def test_prepared_rows_read_alike_every_run(app):
    gid = service_game(app, "rows", players=3)

    def read():
        runs = [what_a_seat_sees.seats_with_users(Game.get_by_id(gid)) for _ in range(3)]
        fresh = list(Seat.select().where(Seat.game == gid).order_by(Seat.index))
        for rows in runs:
            assert [(s.id, s.index, s.user_id, s.user.name, s.user.email) for s in rows] == [
                (s.id, s.index, s.user_id, s.user.name, s.user.email) for s in fresh
            ]

    in_db(app, read)

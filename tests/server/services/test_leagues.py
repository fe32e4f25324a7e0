"""Leagues through the services: choices checked before anything is made,
joining and leaving, rounds that begin and end by the scheduler's sweep,
the same deal at every table of a round, dropouts, standings and mails."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from clock_helpers import user
from league_helpers import league_games, make_league, players, run

from server.db import db
from server.models import Game, League, LeagueMember, Outbox, Seat, utcnow
from server.services import clubs, leagues
from server.services.state_store import load_state

HOUR = dt.timedelta(hours=1)


def counts():
    return League.select().count(), LeagueMember.select().count()


@pytest.mark.parametrize(
    ("choices", "words"),
    [
        ({"max_players": 1, "table_min": 2, "table_max": 2}, "at least one table"),
        ({"table_min": 3, "table_max": 6}, "is played by 2 to 4 players"),
        ({"table_min": 4, "table_max": 3}, "the smallest first"),
        ({"starts_at": utcnow() - HOUR}, "The start date has passed"),
        ({"rounds": 0}, "1 to 30 rounds"),
        ({"name": "x"}, "2 to 60 characters"),
        ({"kind": "chess"}, "Choose a game from the list"),
        ({"format": "knockout"}, "from the lists"),
        ({"options": {"nonsense": "1"}}, "has no option"),
        ({"club_only": True}, "Only a club's league"),
    ],
)
def test_a_wrong_choice_is_refused_and_makes_nothing(sqlite_app, choices, words):
    with sqlite_app.app_context(), db.connection_context():
        creator = user("c@example.org")
        before = counts()
        with pytest.raises(leagues.LeagueError) as refused:
            make_league(sqlite_app, creator, [], **choices)
        assert words in str(refused.value.args[0])
        assert counts() == before


def test_joining_twice_full_or_started_is_refused(sqlite_app):
    mailer = sqlite_app.extensions["pbem_mailer"]
    with sqlite_app.app_context(), db.connection_context():
        people = players("j", 4)
        league = make_league(sqlite_app, people[0], people[:3], max_players=3, table_min=3)
        with pytest.raises(leagues.LeagueError, match="in this league already"):
            leagues.join(league, people[0])
        with pytest.raises(leagues.LeagueError, match="full: it takes 3 players"):
            leagues.join(league, people[3])
        assert leagues.leave(league, people[2], mailer) == "You left the league."
        leagues.join(league, people[3])
        assert leagues.sweep(mailer, league.starts_at) == 1
        with pytest.raises(leagues.LeagueError, match="has started"):
            leagues.join(League.get_by_id(league.id), people[2])
        assert len(leagues.members(league)) == 3


def test_a_league_waits_while_its_players_fill_no_table(sqlite_app):
    mailer = sqlite_app.extensions["pbem_mailer"]
    with sqlite_app.app_context(), db.connection_context():
        people = players("w", 3)
        league = make_league(sqlite_app, people[0], people[:1], table_min=2, table_max=2)
        assert leagues.sweep(mailer, league.starts_at + HOUR) == 0
        assert "waits for more players" in str(leagues.start_problem(league))
        leagues.join(league, people[1])
        assert leagues.sweep(mailer, league.starts_at + HOUR) == 1
        assert League.get_by_id(league.id).state == "playing"


def test_a_club_only_league_takes_its_members_only(sqlite_app):
    with sqlite_app.app_context(), db.connection_context():
        admin, member, outsider = players("k", 3)
        club = clubs.found(admin, "Kettle Club", "", [], invite_only=False)
        clubs.join_public(club, member)
        with pytest.raises(leagues.LeagueError, match="Only an admin"):
            make_league(sqlite_app, member, [], club=club)
        league = make_league(sqlite_app, admin, [admin, member], club=club, club_only=True)
        with pytest.raises(leagues.LeagueError, match="members of its club only"):
            leagues.join(league, outsider)


def first_states(league_round) -> list:
    return [
        load_state(Game.get_by_id(t.game_id), save=False) for t in leagues.tables_of(league_round)
    ]


@pytest.mark.parametrize("same_deal", [True, False])
def test_every_table_of_a_round_is_dealt_alike_with_the_same_deal(sqlite_app, same_deal):
    mailer = sqlite_app.extensions["pbem_mailer"]
    with sqlite_app.app_context(), db.connection_context():
        people = players("s", 6)
        league = make_league(
            sqlite_app, people[0], people, kind="puerto_rico", same_deal=same_deal, rounds=2
        )
        leagues.sweep(mailer, league.starts_at)
        (first,) = leagues.rounds_of(league)
        one, two = first_states(first)
        assert (one == two) is same_deal
        seeds = {Game.get_by_id(t.game_id).seed for t in leagues.tables_of(first)}
        assert (seeds == {first.seed}) is same_deal


def test_nine_players_three_rounds_by_bots(sqlite_app):
    """Nine players at tables of 3 (2 when the numbers need it), three
    rounds played to the end by bots, one player dropping out in round 2."""
    mailer = sqlite_app.extensions["pbem_mailer"]
    with sqlite_app.app_context(), db.connection_context():
        people = players("n", 9)
        league = make_league(
            sqlite_app, people[0], people, table_min=2, table_max=3, rounds=3,
            same_deal=True, dropout="bot",
        )  # fmt: skip
        now = run(sqlite_app, league, league.starts_at, until_round=2)
        second = leagues.rounds_of(league)[1]
        quitter = Game.get_by_id(leagues.tables_of(second)[0].game_id)
        quitter_seat = Seat.get((Seat.game == quitter.id) & (Seat.index == 1))
        gone = quitter_seat.user
        assert leagues.leave(league, gone, mailer, now).startswith("You dropped out")
        seat = Seat.get_by_id(quitter_seat.id)
        assert seat.withdrawn and seat.bot == "heuristic"
        run(sqlite_app, league, now)

        league = League.get_by_id(league.id)
        assert league.state == "finished"
        rounds = leagues.rounds_of(league)
        assert [r.state for r in rounds] == ["ended"] * 3
        tables = [leagues.tables_of(r) for r in rounds]
        assert [sorted(len(t.players) for t in ts) for ts in tables] == [[3, 3, 3]] * 2 + [
            [2, 3, 3]
        ]
        # Nobody met a table-mate twice, and the dropout was not paired again.
        met = [
            pair
            for ts in tables
            for t in ts
            for pair in itertools.combinations(sorted(t.players), 2)
        ]
        assert len(met) == len(set(met))
        assert gone.id not in {p for t in tables[2] for p in t.players}
        # Same deal: the tables of a round began from the round's seed.
        for r in rounds:
            assert {Game.get_by_id(t.game_id).seed for t in leagues.tables_of(r)} == {r.seed}
        assert all(g.status == "finished" for g in league_games(league))

        lines = leagues.standings(league)
        assert [ln.place for ln in lines] == sorted(ln.place for ln in lines)
        by_player = {ln.player: ln for ln in lines}
        assert by_player[gone.id].dropped and by_player[gone.id].played == 2
        assert sum(ln.played for ln in lines) == 9 + 9 + 8
        # A table hands out 6 points a player on average, whatever its size.
        assert sum(ln.points for ln in lines) == pytest.approx(6 * 26)

        mails = list(Outbox.select().where(Outbox.kind == "league_round"))
        starts = [m for m in mails if "begins" in m.subject]
        assert len(starts) == 9 + 9 + 8
        ends = [m for m in mails if "is over" in m.subject]
        assert len(ends) == 9 + 8 + 9  # rounds 1 and 2 to those still in; the end to all
        last = [m for m in ends if m.subject.endswith("Winter League is over")]
        assert len(last) == 9 and "dropped out" in last[0].body_text


def test_a_short_league_with_an_autopassed_dropout(app):
    """On SQLite and PostgreSQL: four players at tables of two over two
    rounds; one drops out in round 2 and their seat passes automatically."""
    mailer = app.extensions["pbem_mailer"]
    with app.app_context(), db.connection_context():
        people = players("a", 4)
        league = make_league(
            app, people[0], people, table_min=2, table_max=2, rounds=2, dropout="autopass"
        )
        now = run(app, league, league.starts_at, until_round=2)
        (table, _) = leagues.tables_of(leagues.rounds_of(league)[1])
        gone = Seat.get((Seat.game == table.game_id) & (Seat.index == 0)).user
        leagues.drop(league, gone, mailer, now)
        seat = Seat.get((Seat.game == table.game_id) & (Seat.user == gone.id))
        assert seat.withdrawn and seat.bot is None
        with pytest.raises(leagues.LeagueError, match="not playing in this league"):
            leagues.drop(league, gone, mailer, now)
        run(app, league, now)
        assert League.get_by_id(league.id).state == "finished"
        met = [
            tuple(sorted(t.players))
            for r in leagues.rounds_of(league)
            for t in leagues.tables_of(r)
        ]
        assert len(met) == len(set(met)) == 4
        lines = leagues.standings(league)
        assert sum(ln.played for ln in lines) == 8
        assert [ln.dropped for ln in lines].count(True) == 1

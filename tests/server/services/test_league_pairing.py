"""The league's arithmetic: table sizes, pairings without repeats where the
numbers allow, balanced seats, points and tie-breaks."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from server.services.league_pairing import (
    History,
    pair_round,
    placement_points,
    points_for_ranks,
    standings,
    table_sizes,
)


def test_thirteen_players_at_tables_of_four_to_five():
    assert table_sizes(13, 4, 5) == [4, 4, 5]
    assert table_sizes(9, 3, 3) == [3, 3, 3]
    assert table_sizes(10, 3, 5) == [5, 5]
    assert table_sizes(7, 4, 5) is None
    assert table_sizes(1, 2, 5) is None


@given(st.integers(1, 60), st.integers(2, 5), st.integers(0, 3))
def test_table_sizes_seat_everyone_within_the_range(players, smallest, wider):
    largest = min(smallest + wider, 5)
    sizes = table_sizes(players, smallest, largest)
    if sizes is None:
        # Then no number of tables can do it.
        assert not any(k * smallest <= players <= k * largest for k in range(1, players + 1))
    else:
        assert sum(sizes) == players
        assert all(smallest <= s <= largest for s in sizes)
        assert max(sizes) - min(sizes) <= 1
        assert sizes == sorted(sizes)


def play_rounds(players, sizes, rounds, seed):
    history, all_rounds = History(), []
    for number in range(rounds):
        tables = pair_round(players, sizes, history, seed + number)
        for table in tables:
            history.add_table(table)
        all_rounds.append(tables)
    return history, all_rounds


def test_nine_players_in_threes_meet_nobody_twice_in_four_rounds():
    history, rounds = play_rounds(range(1, 10), [3, 3, 3], 4, seed=7)
    assert max(history.met.values()) == 1
    assert len(history.met) == 36  # everyone met everyone once
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(1, 10))


def test_four_players_in_pairs_play_a_round_robin():
    history, _ = play_rounds(range(4), [2, 2], 3, seed=1)
    assert sorted(history.met.values()) == [1] * 6


def test_seats_are_balanced_over_the_rounds():
    history, rounds = play_rounds(range(1, 10), [3, 3, 3], 3, seed=3)
    firsts = [t[0] for tables in rounds for t in tables]
    assert sorted(firsts) == list(range(1, 10))  # everyone moved first once


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 16), st.integers(0, 2**31), st.integers(1, 4))
def test_pairings_are_deterministic_and_seat_everyone_once(players, seed, rounds):
    sizes = table_sizes(players, 3, 4)
    if sizes is None:
        return
    first = play_rounds(range(players), sizes, rounds, seed)[1]
    again = play_rounds(range(players), sizes, rounds, seed)[1]
    assert first == again
    for tables in first:
        assert sorted(len(t) for t in tables) == sizes
        assert sorted(p for t in tables for p in t) == list(range(players))


@settings(max_examples=30, deadline=None)
@given(st.integers(6, 14), st.integers(0, 2**31))
def test_the_second_round_repeats_nobody_when_that_is_possible(players, seed):
    # With no table bigger than the number of tables, every table of round 2
    # can take at most one player of each table of round 1.
    sizes = table_sizes(players, 2, 3)
    if max(sizes) > len(sizes):
        return
    history, _ = play_rounds(range(players), sizes, 2, seed)
    assert max(history.met.values()) == 1


def test_swiss_puts_leaders_together_when_that_repeats_nobody():
    history = History()
    history.add_table([1, 2])
    history.add_table([3, 4])
    points = {1: 12, 3: 12, 2: 0, 4: 0}
    tables = pair_round([1, 2, 3, 4], [2, 2], history, 5, points)
    assert sorted(sorted(t) for t in tables) == [[1, 3], [2, 4]]


def test_points_per_place():
    assert [placement_points(3, b, 0) for b in (2, 1, 0)] == [12, 6, 0]
    assert [placement_points(4, b, 0) for b in (3, 2, 1, 0)] == [12, 8, 4, 0]
    assert [placement_points(5, b, 0) for b in (4, 3, 2, 1, 0)] == [12, 9, 6, 3, 0]
    # Two share first at a table of 3: the places 1 and 2 shared.
    assert points_for_ranks({1: 1, 2: 1, 3: 3}) == {1: 9, 2: 9, 3: 0}


@given(st.lists(st.integers(1, 5), min_size=2, max_size=5))
def test_a_table_always_hands_out_the_same_total(ranks):
    earned = points_for_ranks(dict(enumerate(ranks)))
    assert abs(sum(earned.values()) - 12 * len(ranks) / 2) < 1e-9


def test_standings_break_ties_by_wins_then_opponents_points():
    tables = [
        {1: 1, 2: 2, 3: 3},  # 1: 12, 2: 6, 3: 0
        {4: 1, 5: 1, 6: 3},  # 4: 9, 5: 9, 6: 0
        {2: 1, 4: 2, 6: 3},  # 2: 12, 4: 6, 6: 0
        {1: 2, 3: 1, 5: 3},  # 1: 6, 3: 12, 5: 0
    ]
    lines = standings(tables, range(1, 7), dropped=[6], seed=1)
    by_player = {ln.player: ln for ln in lines}
    assert by_player[1].points == by_player[2].points == 18
    assert by_player[1].wins == by_player[2].wins == 1
    # 1 met 2, 3 (twice over: 2 and 3 once, 3 and 5 once); 2 met 1, 3, 4, 6.
    order = [ln.player for ln in lines]
    assert order.index(1) < order.index(4)
    assert by_player[6].dropped and by_player[6].place == 6
    assert [ln.place for ln in lines] == sorted(ln.place for ln in lines)


def test_equal_on_every_tie_break_share_a_place():
    lines = standings([{1: 1, 2: 1}], [1, 2], seed=4)
    assert [ln.place for ln in lines] == [1, 1]


def test_no_split_is_refused_loudly():
    try:
        pair_round(range(5), [3, 3], History(), 1)
    except ValueError as exc:
        assert "5 players" in str(exc)
    else:
        raise AssertionError("pair_round accepted 5 players for 6 seats")


def test_every_pair_counts_once_per_table():
    history = History()
    history.add_table([1, 2, 3])
    assert {k: v for k, v in history.met.items()} == {
        pair: 1 for pair in itertools.combinations([1, 2, 3], 2)
    }

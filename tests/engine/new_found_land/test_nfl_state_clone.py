"""State.clone copies each field by its shape (a plain value shared, a flat
list sliced, a nested field as deep as it is ever changed, the board shared
until changed): these check the shapes it counts on, and that a state never
sees a change made to another."""

from __future__ import annotations

from engine.new_found_land import board
from engine.new_found_land.state import FIELDS, FLAT, NESTED, PLAIN, PLAYER_LISTS

from .nfl_helpers import GAME, random_game

IMMUTABLE = (int, str, bool, type(None))
IMMUTABLE_PLAYER_KEYS = ("nation", "score", "markers", "fifty", "hundred", "goals_played")


def test_every_field_is_copied_one_way() -> None:
    assert sorted(PLAIN + FLAT + NESTED + ("board",)) == sorted(FIELDS)


def test_plain_and_flat_fields_hold_no_mutable_values_through_whole_games() -> None:
    for players, seed in ((2, 3), (3, 11), (4, 5)):
        for _state, _seat, _action, new, _events in random_game(players, seed):
            for f in PLAIN:
                assert isinstance(getattr(new, f), IMMUTABLE), f
            for f in FLAT:
                value = getattr(new, f)
                assert isinstance(value, list), f
                assert all(isinstance(x, IMMUTABLE) for x in value), f


def _flat(value) -> bool:
    return isinstance(value, list) and all(isinstance(x, IMMUTABLE) for x in value)


def _pairs(value) -> bool:
    return isinstance(value, list) and all(_flat(list(x)) for x in value)


def test_nested_fields_have_the_shapes_the_clone_copies_through_whole_games() -> None:
    for players, seed in ((2, 3), (3, 11), (4, 5)):
        for _state, _seat, _action, new, _events in random_game(players, seed):
            for p in new.players:
                assert set(p) == set(PLAYER_LISTS) | set(IMMUTABLE_PLAYER_KEYS) | {"goods"}
                assert all(isinstance(n, int) for n in p["goods"].values())
                assert all(isinstance(p[k], IMMUTABLE) for k in IMMUTABLE_PLAYER_KEYS)
                assert all(_flat(p[k]) for k in PLAYER_LISTS if k != "final")
                assert _pairs(p["final"])
            for f in ("goal_piles", "cities", "discard"):
                assert all(_flat(v) for v in getattr(new, f).values()), f
            assert all(isinstance(n, int) for n in new.supply.values())
            assert all(
                isinstance(space, IMMUTABLE) and _flat(seats)
                for space, seats in new.frames.values()
            )
            assert all(_pairs(seats) for per_seat in new.plan.values() for seats in per_seat)
            assert _pairs(new.claims) and _pairs(new.queue)


def test_a_state_never_changes_when_a_later_one_does() -> None:
    """Every move of three whole games, by ``apply`` and by the bots' own
    ``simulate``: the states before it are as they were."""
    for players, seed in ((2, 8), (3, 13), (4, 21)):
        before = []
        for state, seat, action, new, _events in random_game(players, seed):
            before.append((state, state.to_json()))
            again = GAME.simulate(state)
            again.play(action)
            assert again.state.to_json() == new.to_json()
            assert GAME.apply(state, seat, action)[0].to_json() == new.to_json()
        for state, as_json in before:
            assert state.to_json() == as_json  # unchanged by every move after it


def test_a_clone_copies_the_shared_board_before_changing_it() -> None:
    state = GAME.new_game(3, {}, 1)
    state.board["NF1"] = ["T01", [[None, 0], [None, 0]]]
    copy = state.clone()
    assert copy.board is state.board
    board.put_markers(copy, "NF1", 0, 1)
    assert state.board["NF1"][1][0] == [None, 0]
    assert copy.board["NF1"][1][0] == [0, 1]
    board.put_markers(state, "NF1", 1, 2)
    assert copy.board["NF1"][1] == [[0, 1], [None, 0]]


def test_a_changed_board_still_shares_the_entries_it_did_not_change() -> None:
    state = GAME.new_game(3, {}, 1)
    state.board["NF1"] = ["T01", [[None, 0], [None, 0]]]
    state.board["NF2"] = ["T02", [[None, 0], [None, 0]]]
    copy = state.clone()
    board.put_markers(copy, "NF1", 0, 1)
    assert copy.board is not state.board
    assert copy.board["NF2"] is state.board["NF2"]
    board.put_markers(copy, "NF2", 2, 1)
    assert state.board["NF2"] == ["T02", [[None, 0], [None, 0]]]

"""State.clone copies each field by its shape (a plain value shared, a flat
list sliced, the board shared until changed): these check the shapes it
counts on, and that a state never sees a change made to another."""

from __future__ import annotations

from engine.new_found_land import board
from engine.new_found_land.state import FIELDS, FLAT, NESTED, PLAIN

from .nfl_helpers import GAME, random_game

IMMUTABLE = (int, str, bool, type(None))


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


def test_a_state_keeps_its_board_when_the_next_one_settles_and_explores() -> None:
    before = []
    for state, _seat, _action, new, _events in random_game(4, 21):
        before.append((state, state.to_json()))
        assert new.to_json() == GAME.apply(state, state.turn, _action)[0].to_json()
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

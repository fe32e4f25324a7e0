"""Property tests over many random New Found Land games (2, 3 and 4 players).

Random legal actions to the end, checking after every action: components
conserved (every id in exactly one place, goods and markers counted), the
old state unchanged; at the end: round 4 finished, an outcome; JSON round
trip and replay identical; only offered actions apply; views and event texts
never show hidden cards or tiles.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import IllegalMove
from tests.engine.new_found_land.nfl_helpers import (
    GAME,
    ID,
    every_action_shape,
    expected_ledger,
    hidden_ids,
    ledger,
    random_game,
    strings,
)

GAMES_PER_COUNT = 700  # 2,100 complete games in the conservation test


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_after_round_4_and_conserve_components(players):
    want = expected_ledger(players)
    for seed in range(GAMES_PER_COUNT):
        options = {"frame_tiles": "advanced"} if seed % 5 == 0 else {}
        for state, seat, action, new, _ in random_game(players, seed, options):
            if seed % 4 == 0 or GAME.is_over(new):
                assert ledger(new) == want, (seed, action)
        assert GAME.is_over(new) and new.round == 4
        assert GAME.outcome(new).winners


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_never_changes_the_state_it_was_given(players):
    for seed in range(15):
        for state, seat, action, new, _ in random_game(players, 1000 + seed):
            before = json.dumps(GAME.to_json(state), sort_keys=True)
            GAME.apply(state, seat, action)
            assert json.dumps(GAME.to_json(state), sort_keys=True) == before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_offered_action_applies_and_nothing_else_does(players):
    rnd = random.Random(players)
    for seed in range(20):
        for state, seat, action, new, _ in random_game(players, 2000 + seed):
            legal = GAME.legal_actions(state, seat)
            assert legal and len(legal) < 120
            assert isinstance(GAME.prompt(state), str)
            for a in legal:
                GAME.label(state, a)
            if rnd.random() > 0.1:
                continue
            probes = every_action_shape(state)
            for a in legal:
                assert a in probes, a
                GAME.apply(state, seat, a)  # must not raise
            for probe in probes:
                if probe not in legal:
                    with pytest.raises(IllegalMove):
                        GAME.apply(state, seat, probe)
            other = (seat + 1) % players
            with pytest.raises(IllegalMove, match="not your turn"):
                GAME.apply(state, other, action)
            assert GAME.legal_actions(state, other) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_json_round_trip_and_replay_give_the_identical_state(players):
    for seed in range(30):
        actions = []
        for state, seat, action, new, _ in random_game(players, 3000 + seed):
            actions.append((seat, action))
            data = json.loads(json.dumps(GAME.to_json(new)))
            assert GAME.to_json(GAME.from_json(data)) == GAME.to_json(new)
        replay = GAME.new_game(players, {}, 3000 + seed)
        for seat, action in actions:
            assert GAME.to_move(replay) == seat
            replay, _ = GAME.apply(replay, seat, json.loads(json.dumps(action)))
        assert GAME.to_json(replay) == GAME.to_json(new)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_and_events_never_show_hidden_cards_or_tiles(players):
    for seed in range(10):
        for state, seat, action, new, events in random_game(players, 4000 + seed):
            for viewer in list(range(players)) + [None]:
                hidden = hidden_ids(new, viewer)
                v = GAME.view(new, viewer)
                leaked = strings(json.loads(json.dumps(v))) & hidden
                assert not leaked, (viewer, leaked)
                for section in GAME.board(v):
                    for _, text in section.rows:
                        assert not set(ID.findall(text)) & hidden
                # an event leaks what was hidden before the action and still is,
                # unless it was played or built openly and then discarded
                seen = (hidden & hidden_ids(state, viewer)) - {
                    x for pile in new.discard.values() for x in pile
                }
                for e in events:
                    assert not set(ID.findall(e.text_for(viewer))) & seen, e


def test_the_default_action_is_always_legal_and_games_of_timeouts_end():
    for players in (2, 3, 4):
        state = GAME.new_game(players, {}, 7)
        while not GAME.is_over(state):
            seat = GAME.to_move(state)
            action = GAME.default_action(state)
            assert action in GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, action)
        assert GAME.outcome(state) is not None


def test_a_wrong_state_version_is_refused():
    data = GAME.to_json(GAME.new_game(3, {}, 1))
    data["version"] = 999
    with pytest.raises(ValueError, match="version"):
        GAME.from_json(data)


def test_bad_player_counts_and_options_are_refused():
    for n in (1, 5):
        with pytest.raises(IllegalMove):
            GAME.new_game(n, {}, 1)
    with pytest.raises(IllegalMove):
        GAME.new_game(3, {"frame_tiles": "sideways"}, 1)

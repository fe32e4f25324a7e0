"""Property tests over many random Puerto Rico games (2-5 players).

Each game plays uniformly random legal actions to the end and checks, after
every action: components are conserved, the old state was not changed, the
offered action applied; and at the end: JSON round trip and replay from the
action list give the identical state.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import IllegalMove
from tests.engine.puerto_rico.puerto_rico_helpers import (
    GAME,
    every_action_shape,
    expected_ledger,
    ledger,
    random_game,
)

GAMES_PER_COUNT = 500  # 2,000 complete games in all


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_and_conserve_components(players):
    want = expected_ledger(players)
    for seed in range(GAMES_PER_COUNT):
        rounds = 0
        for state, seat, action, new in random_game(players, seed):
            assert ledger(new) == want, (seed, action)
            rounds = new.round
        assert GAME.is_over(new)
        assert GAME.outcome(new).winners
        assert rounds < 60, "a random game should end well within 60 rounds"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_apply_never_changes_the_state_it_was_given(players):
    for seed in range(40):
        for state, seat, action, new in random_game(players, 1000 + seed):
            before = json.dumps(GAME.to_json(state), sort_keys=True)
            GAME.apply(state, seat, action)
            assert json.dumps(GAME.to_json(state), sort_keys=True) == before


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_only_offered_actions_apply(players):
    rnd = random.Random(players)
    for seed in range(25):
        for state, seat, action, new in random_game(players, 2000 + seed):
            if rnd.random() > 0.2:
                continue
            legal = GAME.legal_actions(state, seat)
            for probe in every_action_shape(state):
                if probe in legal:
                    GAME.apply(state, seat, probe)  # must not raise
                else:
                    with pytest.raises(IllegalMove):
                        GAME.apply(state, seat, probe)
            other = (seat + 1) % players
            with pytest.raises(IllegalMove, match="not your turn"):
                GAME.apply(state, other, action)
            assert GAME.legal_actions(state, other) == []


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_json_round_trip_and_replay_give_the_identical_state(players):
    for seed in range(40):
        actions = []
        for state, seat, action, new in random_game(players, 3000 + seed):
            actions.append((seat, action))
            data = json.loads(json.dumps(GAME.to_json(new)))
            assert GAME.to_json(GAME.from_json(data)) == GAME.to_json(new)
        replay = GAME.new_game(players, {}, 3000 + seed)
        for seat, action in actions:
            assert GAME.to_move(replay) == seat
            replay, _ = GAME.apply(replay, seat, action)
        assert GAME.to_json(replay) == GAME.to_json(new)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_views_never_show_another_seats_chips_or_the_stack_order(players):
    for seed in range(30):
        for state, seat, action, new in random_game(players, 4000 + seed):
            if GAME.is_over(new):
                continue
            for viewer in list(range(players)) + [None]:
                v = GAME.view(new, viewer)
                for i, p in enumerate(v["players"]):
                    if i == viewer:
                        assert p["vp"] == new.players[i].vp
                    else:
                        assert p["vp"] is None
                assert "stack" not in v and v["stack_size"] == len(new.stack)
                json.dumps(v)


def test_the_default_action_is_always_legal_and_games_of_timeouts_end():
    for players in (2, 3, 4, 5):
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

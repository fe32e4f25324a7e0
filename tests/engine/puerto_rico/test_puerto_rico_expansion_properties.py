"""Property tests over random Puerto Rico games for every building option.

For base, extended and random, with 2-5 players: uniformly random legal
actions to the end, checking after every action that goods, colonists,
doubloons, victory points, plantations (forests included) and buildings are
conserved; that the state given to ``apply`` is never changed; that only
offered actions apply; that JSON and replay rebuild the identical state; and
that games of timeouts end.

Counts: PR_EXPANSION_GAMES games per option and player count (default 6:
the file runs in about 25 seconds); the ``slow`` test plays 60 more each and
runs only with PR_SLOW=1 (about two minutes).
"""

from __future__ import annotations

import json
import os
import random

import pytest

from engine import IllegalMove
from tests.engine.puerto_rico import puerto_rico_helpers as base_helpers
from tests.engine.puerto_rico.pr_expansion_helpers import (
    GAME,
    OPTIONS,
    every_action_shape,
    expected_ledger,
    ledger,
    random_game,
)

GAMES = int(os.environ.get("PR_EXPANSION_GAMES", "6"))
CASES = [(option, n) for option in OPTIONS for n in (2, 3, 4, 5)]


def _conserve(option: str, n: int, seeds) -> None:
    for seed in seeds:
        new = None
        for state, seat, action, new in random_game(n, seed, option):
            assert ledger(new) == expected_ledger(new), (option, n, seed, action)
        assert GAME.is_over(new) and GAME.outcome(new).winners
        assert new.round < 60


@pytest.mark.parametrize("option, n", CASES)
def test_random_games_end_and_conserve_components(option, n):
    _conserve(option, n, range(GAMES))


@pytest.mark.slow
# Opt-in: two more minutes of the same checks on ten times the games; the
# default run above already plays every option and player count.
@pytest.mark.skipif(not os.environ.get("PR_SLOW"), reason="set PR_SLOW=1 for the long run")
@pytest.mark.parametrize("option, n", CASES)
def test_many_random_games_end_and_conserve_components(option, n):
    _conserve(option, n, range(10_000, 10_060))


@pytest.mark.parametrize("option, n", CASES)
def test_apply_never_changes_the_state_it_was_given(option, n):
    for state, seat, action, new in random_game(n, 100 + n, option):
        before = json.dumps(GAME.to_json(state), sort_keys=True)
        GAME.apply(state, seat, action)
        assert json.dumps(GAME.to_json(state), sort_keys=True) == before


@pytest.mark.parametrize("option, n", CASES)
def test_only_offered_actions_apply(option, n):
    rnd = random.Random(n)
    for state, seat, action, new in random_game(n, 200 + n, option):
        if rnd.random() > 0.1:
            continue
        legal = GAME.legal_actions(state, seat)
        probes = every_action_shape(state) + base_helpers.every_action_shape(state) + legal
        for probe in probes:
            if probe in legal:
                GAME.apply(state, seat, probe)  # must not raise
            else:
                with pytest.raises(IllegalMove):
                    GAME.apply(state, seat, probe)
        other = (seat + 1) % n
        with pytest.raises(IllegalMove, match="not your turn"):
            GAME.apply(state, other, action)


@pytest.mark.parametrize("option, n", CASES)
def test_json_round_trip_and_replay_give_the_identical_state(option, n):
    for seed in (300, 301):
        actions = []
        for state, seat, action, new in random_game(n, seed, option):
            actions.append((seat, action))
            data = json.loads(json.dumps(GAME.to_json(new)))
            assert GAME.to_json(GAME.from_json(data)) == GAME.to_json(new)
        replay = GAME.new_game(n, {"buildings": option}, seed)
        for seat, action in actions:
            assert GAME.to_move(replay) == seat
            replay, _ = GAME.apply(replay, seat, action)
        assert GAME.to_json(replay) == GAME.to_json(new)


@pytest.mark.parametrize("option, n", CASES)
def test_games_of_timeouts_end_with_legal_default_actions(option, n):
    state = GAME.new_game(n, {"buildings": option}, 17)
    while not GAME.is_over(state):
        seat = GAME.to_move(state)
        action = GAME.default_action(state)
        assert action in GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, action)
    assert GAME.outcome(state) is not None


@pytest.mark.parametrize("option, n", CASES)
def test_views_hide_other_chips_and_boards_and_labels_render(option, n):
    for state, seat, action, new in random_game(n, 400 + n, option):
        assert GAME.label(state, action)
        if GAME.is_over(new):
            continue
        v = GAME.view(new, seat)
        assert all(p["vp"] is None for i, p in enumerate(v["players"]) if i != seat)
        assert v["building_set"] == option
        json.dumps(v)
        assert GAME.board(v)[-1].rows
        assert GAME.prompt(new)

"""Bots in engine/, pure and seeded, for both games.

Every bot plays only legal moves, the same state and seed give the same
move, a bot never changes the state it is handed, its imagined futures
show the seat nothing it could not see, and the steady bot beats random
play by a wide margin (bench/bots.py measures the rates with intervals)."""

from __future__ import annotations

import random

import pytest

from engine import BUILT_IN, GAMES
from engine.bots import BOTS, choose, get_bot
from engine.bots.base import Draws
from engine.bots.determinize import imagine
from tests.engine.game_walks import positions as walk

# pbem's own games: an installed plug-in game (tests/plugin_game/) is for
# two players only and is tested on its own (tests/server/processes/test_plugin_game.py).
OWN_GAMES = sorted(BUILT_IN)
PLAYER_COUNTS = [
    (name, n)
    for name in OWN_GAMES
    for n in range(GAMES[name].min_players, GAMES[name].max_players + 1)
]


def positions(game_name: str, players: int, seed: int, every: int = 1) -> list:
    """Positions of one random game where a seat is to move."""
    game = GAMES[game_name]
    return [state for state in walk(game, players, {}, seed, every) if not game.is_over(state)]


def play(game_name: str, seats: list[str], seed: int):
    game = GAMES[game_name]
    state, r = game.new_game(len(seats), {}, seed=seed), random.Random(seed)
    while not game.is_over(state):
        seat = game.to_move(state)
        action = choose(seats[seat], game, state, seat, r.getrandbits(32))
        assert action in game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, action)
    return game.outcome(state)


@pytest.mark.parametrize("game_name,players", PLAYER_COUNTS)
def test_the_steady_bot_plays_whole_games_legally(game_name, players):
    outcome = play(game_name, ["heuristic"] * players, seed=players)
    assert outcome is not None and outcome.winners


@pytest.mark.parametrize("game_name", OWN_GAMES)
def test_the_thinking_bot_chooses_legal_moves_without_changing_the_state(game_name):
    game = GAMES[game_name]
    for state in positions(game_name, 3, seed=5, every=40)[:4]:
        seat = game.to_move(state)
        before = game.to_json(state)
        action = choose("search", game, state, seat, seed=1)
        assert action in game.legal_actions(state, seat)
        assert game.to_json(state) == before


@pytest.mark.parametrize("bot", ["random", "heuristic"])
@pytest.mark.parametrize("game_name", OWN_GAMES)
def test_same_state_and_seed_same_move_and_the_state_is_untouched(game_name, bot):
    game = GAMES[game_name]
    for state in positions(game_name, 4, seed=8, every=15)[:12]:
        seat = game.to_move(state)
        before = game.to_json(state)
        first = choose(bot, game, state, seat, seed=99)
        assert choose(bot, game, state, seat, seed=99) == first
        assert game.to_json(state) == before


@pytest.mark.parametrize("game_name", OWN_GAMES)
def test_an_imagined_future_shows_nothing_new_and_changes_what_is_hidden(game_name):
    """The redraw touches only what no seat sees: every seat's view of the
    imagined position is the view of the real one."""
    game = GAMES[game_name]
    redrawn = 0
    for state in positions(game_name, 3, seed=2, every=25)[:5]:
        copy = imagine(game_name, state, Draws(7))
        for seat in range(3):
            assert game.view(copy, seat) == game.view(state, seat)
        redrawn += game.to_json(copy) != game.to_json(state)
    assert redrawn >= 3  # it did redraw something hidden


@pytest.mark.parametrize("game_name", OWN_GAMES)
def test_the_steady_bot_beats_random_players(game_name):
    """The steady bot's goal is 90 % of 4-player games (bench/bots.py); here a
    small sample of 3-player games: at least 10 of 12 (a fair share is 4),
    where a random bot in the same seats wins far fewer."""

    def wins(bot: str) -> float:
        total = 0.0
        for i in range(12):
            seats = ["random"] * 3
            seats[i % 3] = bot
            winners = play(game_name, seats, seed=500 + i).winners
            total += (i % 3 in winners) / len(winners)
        return total

    assert wins("heuristic") >= 10
    assert wins("random") <= 8


def test_the_steady_bot_plans_a_free_ship_rather_than_leave_it_idle():
    """New Found Land: a ship not planned for any action sits the round out,
    so at the last action of the planning phase (Explore) the steady bot puts
    a free ship to work instead of finishing (engine/bots/evaluation.py
    counts a planned ship at what its action will bring)."""
    game = GAMES["new_found_land"]
    seen = 0
    for seed in range(3):
        for state in positions("new_found_land", 4, seed=seed):
            seat = game.to_move(state)
            if state.phase != "plan" or state.action != "explore" or state.plan["explore"][seat]:
                continue
            actions = game.legal_actions(state, seat)
            if not any(a.get("ship") in state.players[seat]["ships"] for a in actions):
                continue
            assert choose("heuristic", game, state, seat, seed=3)["type"] != "done"
            seen += 1
    assert seen >= 4


def test_an_unknown_bot_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="random"):
        get_bot("grandmaster")
    assert {"random", "heuristic", "search"} <= set(BOTS)


def test_the_thinking_bot_leaves_the_steady_choice_only_for_a_clear_gain():
    """A handful of rollouts in a game of random draws is noisy: another
    candidate must beat the steady bot's own choice by more than one
    standard error of the difference before the thinking bot takes it."""
    from engine.bots.search import SearchBot

    noisy = {0: [10.0, 2.0, 6.0], 1: [9.0, 5.0, 6.0], 2: [1.0, 1.0, 1.0]}
    assert SearchBot.pick([0, 1, 2], noisy) == 0  # 6.7 against 6.0: noise
    clear = {0: [3.0, 3.5, 2.5], 1: [9.0, 8.5, 9.5], 2: [1.0, 1.0, 1.0]}
    assert SearchBot.pick([0, 1, 2], clear) == 1
    assert SearchBot.pick([2, 0], {2: [1.0, 1.2], 0: []}) == 2  # no futures: not judged

"""The same games, move for move, before and after the engine got faster
(speed must not change a single move).

A fixed set of seeded games with uniformly random legal moves, both games,
every player count and Puerto Rico's building sets, is fingerprinted: every
move's legal actions with their labels, the action played, the events' texts,
the prompt, and the final state and outcome.  ``data/same_games.json`` was
written from the engine before the speed work; it is never rewritten to make
a change pass.  To record a new game or engine version on purpose:

    .venv/bin/python -m tests.engine.test_same_games --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from engine import GAMES

DATA = Path(__file__).parent / "data" / "same_games.json"
CASES = [
    ("puerto_rico", n, option, seed)
    for n in range(2, 6)
    for option in ("base", "extended", "random")
    for seed in (1, 2)
] + [("new_found_land", n, "", seed) for n in range(2, 5) for seed in (1, 2, 3)]


def case_id(case) -> str:
    return "-".join(str(part) for part in case if part != "")


def fingerprint(game_name: str, players: int, option: str, seed: int) -> str:
    game = GAMES[game_name]
    options = {"buildings": option} if option else {}
    state, r = game.new_game(players, options, seed=seed), random.Random(seed)
    digest = hashlib.sha256()

    def note(value) -> None:
        digest.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())

    while not game.is_over(state):
        seat = game.to_move(state)
        legal = game.legal_actions(state, seat)
        note([game.prompt(state), [[a, game.label(state, a)] for a in legal]])
        action = r.choice(legal)
        state, events = game.apply(state, seat, action)
        note([action, [english(e) for e in events]])
    outcome = {k: v for k, v in game.outcome(state).to_json().items() if k != "reason_words"}
    note([game.to_json(state), outcome])
    return digest.hexdigest()


def english(event) -> dict:
    """The event as recorded: its English texts (the templates that let the
    server translate them came later and say the same)."""
    return {k: v for k, v in event.to_json().items() if k not in ("words", "public_words")}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_same_game_is_played_move_for_move(case):
    recorded = json.loads(DATA.read_text())
    assert fingerprint(*case) == recorded[case_id(case)]


def write() -> None:
    DATA.write_text(json.dumps({case_id(c): fingerprint(*c) for c in CASES}, indent=1) + "\n")


def final_by_simulation(game_name: str, players: int, option: str, seed: int) -> dict:
    game = GAMES[game_name]
    options = {"buildings": option} if option else {}
    start, r = game.new_game(players, options, seed=seed), random.Random(seed)
    sim = game.simulate(start)
    while sim.to_move() is not None:
        sim.play(r.choice(sim.legal()))
    assert game.to_json(start) == game.to_json(game.new_game(players, options, seed=seed))
    return game.to_json(sim.state)


def final_by_apply(game_name: str, players: int, option: str, seed: int) -> dict:
    game = GAMES[game_name]
    options = {"buildings": option} if option else {}
    state, r = game.new_game(players, options, seed=seed), random.Random(seed)
    while not game.is_over(state):
        seat = game.to_move(state)
        state, _ = game.apply(state, seat, r.choice(game.legal_actions(state, seat)))
    return game.to_json(state)


@pytest.mark.parametrize("case", CASES[::3], ids=case_id)
def test_a_simulation_plays_the_same_game_as_apply_and_leaves_its_start_alone(case):
    assert final_by_simulation(*case) == final_by_apply(*case)


@pytest.mark.parametrize("game_name", ["puerto_rico", "new_found_land"])
def test_a_snapshot_stays_as_it_was_while_the_simulation_goes_on(game_name):
    game, r = GAMES[game_name], random.Random(3)
    sim = game.simulate(game.new_game(3, {}, seed=3))
    for _ in range(60):
        sim.play(r.choice(sim.legal()))
    snap = sim.snapshot()
    taken = game.to_json(snap)
    while sim.to_move() is not None:
        sim.play(r.choice(sim.legal()))
    assert game.to_json(snap) == taken


if __name__ == "__main__" and "--write" in sys.argv:
    write()

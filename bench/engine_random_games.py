"""Complete Puerto Rico games per second with uniformly random legal actions.

Usage: python bench/engine_random_games.py [--games N] [--players 2 3 4 5]
                                          [--options base extended random]
Prints games per CPU-second, actions/game, mean rounds, mean winning score and the share
of each end trigger, per building option and player count, and each expansion option's
speed beside base's.  One process, one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES  # noqa: E402


def end_trigger(state) -> str:
    """Which end conditions fired (several may fire in the same round)."""
    return state.end_triggered


def play(game, players: int, seed: int, option: str = "base", path: str = "apply"):
    """One game by the pure ``apply`` (a new state per action) or by the
    simulation path (one private copy changed in place: engine/turns.py)."""
    rnd = random.Random(seed)
    state = game.new_game(players, {"buildings": option} if option != "base" else {}, seed)
    actions = 0
    if path == "simulate":
        sim = game.simulate(state)
        while sim.to_move() is not None:
            sim.play(rnd.choice(sim.legal()))
            actions += 1
        return sim.state, actions
    while not state.over:
        seat = state.turn
        state, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
        actions += 1
    return state, actions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    ap.add_argument("--options", nargs="*", default=["base", "extended", "random"])
    ap.add_argument("--path", choices=["apply", "simulate"], default="simulate")
    args = ap.parse_args()
    game = GAMES["puerto_rico"]
    print(f"path: {args.path}")
    for n in args.players:
        speed = {}
        for option in args.options:
            speed[option] = run(game, n, option, args.games, args.path)
        if "base" in speed:
            print(
                "   "
                + "  ".join(
                    f"{o}: {v / speed['base']:.0%} of base's speed"
                    for o, v in speed.items()
                    if o != "base"
                )
            )


def run(game, n: int, option: str, games: int, path: str = "simulate") -> float:
    """Play ``games`` games; prints one line and returns games per CPU-second."""
    # CPU time of this process: the figure for "one core", steady even
    # when other work shares the machine.
    t0 = time.process_time()
    actions, rounds, best, triggers = [], [], [], Counter()
    for seed in range(games):
        state, k = play(game, n, seed, option, path)
        actions.append(k)
        rounds.append(state.round)
        best.append(max(sc.total for sc in game.outcome(state).scores))
        triggers[end_trigger(state)] += 1
    dt = time.process_time() - t0
    shares = ", ".join(f"{k} {v / games:.0%}" for k, v in triggers.most_common())
    print(
        f"{n} players {option:8}: {games / dt:7.1f} games/s  "
        f"{statistics.mean(actions):6.1f} actions/game  "
        f"rounds {statistics.mean(rounds):4.1f} (min {min(rounds)}, max {max(rounds)})  "
        f"winning score {statistics.mean(best):5.1f}  end: {shares}"
    )
    return games / dt


if __name__ == "__main__":
    main()

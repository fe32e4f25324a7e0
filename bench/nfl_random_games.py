"""Complete Race to the New Found Land games per second with random legal actions.

Usage: python bench/nfl_random_games.py [--games N] [--players 2 3 4]
Prints, per player count: games/s (CPU time, one core), mean decisions per
game (actions applied by players; forced single-choice decisions are played
by the engine and not counted), mean legal actions per decision, and the mean
and highest winning score.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES  # noqa: E402


def play(game, players: int, seed: int, path: str = "apply") -> tuple[object, int, int]:
    """One game by the pure ``apply`` or by the simulation path (engine/turns.py)."""
    rnd = random.Random(seed)
    state = game.new_game(players, {}, seed)
    decisions = choices = 0
    if path == "simulate":
        sim = game.simulate(state)
        while sim.to_move() is not None:
            legal = sim.legal()
            choices += len(legal)
            sim.play(rnd.choice(legal))
            decisions += 1
        return sim.state, decisions, choices
    while not game.is_over(state):
        seat = game.to_move(state)
        legal = game.legal_actions(state, seat)
        choices += len(legal)
        state, _ = game.apply(state, seat, rnd.choice(legal))
        decisions += 1
    return state, decisions, choices


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--path", choices=["apply", "simulate"], default="simulate")
    args = ap.parse_args()
    game = GAMES["new_found_land"]
    print(f"path: {args.path}")
    for n in args.players:
        t0 = time.process_time()
        decisions, widths, best = [], [], []
        for seed in range(args.games):
            state, k, c = play(game, n, seed, args.path)
            decisions.append(k)
            widths.append(c / k)
            best.append(max(sc.total for sc in game.outcome(state).scores))
        dt = time.process_time() - t0
        print(
            f"{n} players: {args.games / dt:7.1f} games/s  "
            f"{statistics.mean(decisions):6.1f} decisions/game  "
            f"{statistics.mean(widths):5.1f} choices/decision  "
            f"winning score {statistics.mean(best):5.1f} (max {max(best)})"
        )


if __name__ == "__main__":
    main()

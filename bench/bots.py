"""Bots against each other: win rates with 95 % confidence intervals.

Each match seats one bot against ``players - 1`` copies of another (or of
the default action, what a timed-out seat plays), over seeded games, the
bot's seat rotating so no seat has the edge.  A tie shares the win.  The
fair share at 4 players is 25 %.

    .venv/bin/python bench/bots.py                       # both games, 4 players
    .venv/bin/python bench/bots.py --game puerto_rico --games 400 --search-games 40
"""
from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from engine import GAMES
from engine.bots import choose

MATCHES = (("heuristic", "random"), ("heuristic", "default"),
           ("search", "heuristic"), ("search", "default"))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (ties count as fractions)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(game_name: str, players: int, seats: list[str], seed: int) -> tuple[int, ...]:
    """One game; the winning seats."""
    game = GAMES[game_name]
    state, r = game.new_game(players, {}, seed=seed), random.Random(seed)
    while not game.is_over(state):
        seat = game.to_move(state)
        bot = seats[seat]
        action = (game.default_action(state) if bot == "default"
                  else choose(bot, game, state, seat, r.getrandbits(48)))
        state, _ = game.apply(state, seat, action)
    return game.outcome(state).winners


def one(args) -> float:
    game_name, players, bot, rival, i = args
    seat = i % players
    seats = [rival] * players
    seats[seat] = bot
    winners = play(game_name, players, seats, 10_000 + i)
    return (seat in winners) / len(winners)


def match(pool, game_name: str, players: int, bot: str, rival: str, games: int) -> str:
    started = time.monotonic()
    wins = sum(pool.map(one, [(game_name, players, bot, rival, i) for i in range(games)]))
    low, high = wilson(wins, games)
    return (f"{game_name:15} {bot:9} vs {players - 1} x {rival:9} {games:5} games  "
            f"wins {wins / games:6.1%}  95% CI {low:6.1%} - {high:6.1%}  "
            f"({time.monotonic() - started:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200, help="per match without search")
    parser.add_argument("--search-games", type=int, default=24, help="per match with search")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with ProcessPoolExecutor(args.jobs) as pool:
        for game_name in args.game or sorted(GAMES):
            for bot, rival in MATCHES:
                games = args.search_games if "search" in (bot, rival) else args.games
                print(match(pool, game_name, args.players, bot, rival, games), flush=True)


if __name__ == "__main__":
    main()

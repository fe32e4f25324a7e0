"""Bots against each other: win rates with 95 % confidence intervals.

Each match seats one bot against ``players - 1`` copies of another (or of
the default action, what a timed-out seat plays), over seeded games, the
bot's seat rotating so no seat has the edge.  A tie shares the win.  The
fair share at 4 players is 25 %.  Game i of every match has seed
``--seed + i`` and its bots draw from a generator seeded by that seed, so a
run replays move for move whatever ``--jobs`` is.

    .venv/bin/python bench/bots.py                       # both games, 4 players
    .venv/bin/python bench/bots.py --game puerto_rico --games 400 --search-games 40
    .venv/bin/python bench/bots.py --match heuristic:random --games 2000 --jobs 2
    .venv/bin/python bench/bots.py --match search:heuristic --search-games 300 --playouts 20

``--playouts``/``--candidates``/``--depth`` set the thinking bot's budget
(default: the bot as it plays at the table); a smaller budget makes long runs
fit, and the line printed says which budget played.  The time printed is the
CPU time of the games, summed over the workers, and the wall time.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from engine import GAMES
from engine.bots import get_bot
from engine.bots.search import SearchBot

MATCHES = (
    ("heuristic", "random"),
    ("heuristic", "default"),
    ("search", "heuristic"),
    ("search", "default"),
)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (ties count as fractions)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def make_bot(name: str, budget: tuple | None):
    if name == "search" and budget is not None:
        return SearchBot(*budget)
    return get_bot(name)


def play(
    game_name: str, players: int, seats: list[str], seed: int, budget: tuple | None = None
) -> tuple[int, ...]:
    """One game; the winning seats."""
    game = GAMES[game_name]
    bots = {name: make_bot(name, budget) for name in set(seats) if name != "default"}
    state, r = game.new_game(players, {}, seed=seed), random.Random(seed)
    while not game.is_over(state):
        seat = game.to_move(state)
        bot = seats[seat]
        action = (
            game.default_action(state)
            if bot == "default"
            else bots[bot].choose(game, state, seat, r.getrandbits(48))
        )
        state, _ = game.apply(state, seat, action)
    return game.outcome(state).winners


def one(args) -> tuple[float, float]:
    """Game i of a match: the bot's share of the win, and the CPU seconds."""
    game_name, players, bot, rival, i, seed, budget = args
    started = time.process_time()
    seat = i % players
    seats = [rival] * players
    seats[seat] = bot
    winners = play(game_name, players, seats, seed + i, budget)
    return (seat in winners) / len(winners), time.process_time() - started


def match(
    pool,
    game_name: str,
    players: int,
    bot: str,
    rival: str,
    games: int,
    seed: int = 10_000,
    budget: tuple | None = None,
) -> str:
    started = time.monotonic()
    jobs = [(game_name, players, bot, rival, i, seed, budget) for i in range(games)]
    results = list(pool.map(one, jobs, chunksize=max(1, min(20, games // 20))))
    wins = sum(w for w, _ in results)
    cpu = sum(c for _, c in results)
    low, high = wilson(wins, games)
    thinking = ""
    if "search" in (bot, rival):
        b = make_bot("search", budget)
        thinking = f"  [search {b.playouts} playouts x {b.candidates} moves, depth {b.depth}]"
    return (
        f"{game_name:15} {bot:9} vs {players - 1} x {rival:9} {games:5} games  "
        f"wins {wins / games:6.1%}  95% CI {low:6.1%} - {high:6.1%}  "
        f"(cpu {cpu:.0f} s, {cpu / games:.2f} s a game; wall {time.monotonic() - started:.0f} s)"
        f"{thinking}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument(
        "--match",
        action="append",
        metavar="BOT:RIVAL",
        help="only these matches, e.g. heuristic:random (repeatable); "
        "default: " + ", ".join(f"{b}:{r}" for b, r in MATCHES),
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200, help="per match without search")
    parser.add_argument("--search-games", type=int, default=24, help="per match with search")
    parser.add_argument("--seed", type=int, default=10_000, help="seed of game 0")
    parser.add_argument("--playouts", type=int, help="thinking bot's playouts per decision")
    parser.add_argument("--candidates", type=int, help="thinking bot's moves tried")
    parser.add_argument("--depth", type=int, help="thinking bot's rollout length (decisions)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    matches = [tuple(m.split(":", 1)) for m in args.match] if args.match else MATCHES
    budget = None
    if (args.playouts, args.candidates, args.depth) != (None, None, None):
        base = SearchBot()
        budget = (
            args.playouts or base.playouts,
            args.candidates or base.candidates,
            args.depth or base.depth,
        )
    with ProcessPoolExecutor(args.jobs) as pool:
        for game_name in args.game or sorted(GAMES):
            for bot, rival in matches:
                games = args.search_games if "search" in (bot, rival) else args.games
                print(
                    match(pool, game_name, args.players, bot, rival, games, args.seed, budget),
                    flush=True,
                )


if __name__ == "__main__":
    main()

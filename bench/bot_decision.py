"""CPU time of one thinking-bot decision at the table's budget, per game.

The decisions are those of a seeded game of four steady bots, every one
with more than one legal move, sampled evenly through the game (early,
middle and late positions alike); the thinking bot decides each of them
anew.  With ``--at-table`` they are the thinking bot's own decisions in a
seeded game it plays in seat 0 against three steady bots: the positions it
meets at a table, where its own earlier moves shaped the game.  CPU time
of this process, so other work on a shared machine does not count (much).

    .venv/bin/python bench/bot_decision.py
    .venv/bin/python bench/bot_decision.py --at-table
    .venv/bin/python bench/bot_decision.py --game new_found_land --decisions 10
    .venv/bin/python bench/bot_decision.py --decisions 80 --playouts 40 --candidates 4 --depth 20
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
from engine.bots import get_bot  # noqa: E402
from engine.bots.search import SearchBot  # noqa: E402


def positions(game, players: int, seed: int, count: int, thinker=None) -> list[tuple[object, int]]:
    """``count`` decisions with a choice, evenly spread over one game; with
    ``thinker``, that bot plays seat 0 and only its decisions are kept."""
    steady, r = get_bot("heuristic"), random.Random(seed)
    state, found = game.new_game(players, {}, seed=seed), []
    while not game.is_over(state):
        seat = game.to_move(state)
        mine = thinker is None or seat == 0
        if mine and len(game.legal_actions(state, seat)) > 1:
            found.append((state, seat))
        bot = thinker if thinker is not None and seat == 0 else steady
        state, _ = game.apply(state, seat, bot.choose(game, state, seat, r.getrandbits(48)))
    step = max(1, len(found) // count)
    return found[::step][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--game", choices=sorted(GAMES), help="this game only (default: all)")
    parser.add_argument("--playouts", type=int)
    parser.add_argument("--candidates", type=int)
    parser.add_argument("--depth", type=int)
    parser.add_argument(
        "--at-table", action="store_true", help="the thinking bot's own decisions in its game"
    )
    args = parser.parse_args()
    table = SearchBot()
    bot = SearchBot(
        args.playouts or table.playouts,
        args.candidates or table.candidates,
        args.depth or table.depth,
    )
    thinker = bot if args.at_table else None
    for name, game in sorted(GAMES.items()):
        if args.game not in (None, name):
            continue
        players = min(max(args.players, game.min_players), game.max_players)
        spent = []
        for state, seat in positions(game, players, args.seed, args.decisions, thinker):
            started = time.process_time()
            bot.choose(game, state, seat, 1)
            spent.append((time.process_time() - started) * 1000)
        print(
            f"{name:15} {len(spent)} decisions: median {statistics.median(spent):6.1f} ms, "
            f"mean {statistics.fmean(spent):6.1f} ms, max {max(spent):7.1f} ms of CPU  "
            f"[{bot.playouts} playouts x {bot.candidates} moves, depth {bot.depth}]"
        )


if __name__ == "__main__":
    main()

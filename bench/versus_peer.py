"""Puerto Rico random games per CPU second: ours beside another engine's.

Plays complete games with uniformly random legal actions, 4 players (or
``--players``), base game, in one process, the engines taking turns in
rounds so that whatever else the machine does weighs on both alike.  Paths:

- ours ``simulate``: one private copy changed in place, no legality check
  (the move comes from the legal list), no event texts;
- ours ``apply``: the checked path the server uses, a new state and the
  events per action;
- the peer's ``validate=False`` (its unchecked rollout path, like for like
  with ``simulate``) and ``validate=True`` (its checked path).

The peer is somnambWl/puerto-rico (``Game(GameConfig(...))``, ``legal_actions``,
``apply(action, validate=...)``).  This script fetches nothing: give the path
of a checkout with ``--peer``; without it only our figures are printed.

Ours is the build Python loads: the pure source, or the optional compiled
build of the same source once ``scripts/build_fast_engine.py`` has put it
into engine/ (the first line printed says which).  ``--pure`` measures the
source even then; ``--compiled`` stops unless the compiled build is loaded.

    .venv/bin/python bench/versus_peer.py --games 200
    .venv/bin/python bench/versus_peer.py --peer /tmp/peer-pr --games 200
    .venv/bin/python scripts/build_fast_engine.py
    .venv/bin/python bench/versus_peer.py --peer /tmp/peer-pr --games 200 --compiled
    .venv/bin/python bench/versus_peer.py --peer /tmp/peer-pr --games 200 --pure
"""

from __future__ import annotations

import argparse
import importlib.machinery
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class SourceOnly:
    """Imports the engine from its .py files even where a compiled build
    lies beside them (``--pure``)."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "engine" and not name.startswith("engine."):
            return None
        source = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path or [str(ROOT)]:
            spec = importlib.machinery.FileFinder(entry, source).find_spec(name, target)
            if spec is not None:
                return spec
        return None


def load_ours(pure: bool):
    if pure:
        sys.meta_path.insert(0, SourceOnly)
    from engine import get_game
    from engine.puerto_rico import state

    return get_game("puerto_rico"), not state.__file__.endswith(".py")


def stale_builds() -> list[str]:
    """Compiled modules older than their source: they run the old rules."""
    stale = []
    for built in (ROOT / "engine").rglob("*.so"):
        source = built.with_name(built.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
            stale.append(str(source.relative_to(ROOT)))
    return stale


OURS = None  # set by main(): which build it is depends on --pure


def ours_simulate(players: int, seed: int) -> int:
    rnd = random.Random(seed)
    sim = OURS.simulate(OURS.new_game(players, {}, seed))
    actions = 0
    while sim.to_move() is not None:
        sim.play(rnd.choice(sim.legal()))
        actions += 1
    return actions


def ours_apply(players: int, seed: int) -> int:
    rnd = random.Random(seed)
    state = OURS.new_game(players, {}, seed)
    actions = 0
    while not state.over:
        seat = state.turn
        state, _ = OURS.apply(state, seat, rnd.choice(OURS.legal_actions(state, seat)))
        actions += 1
    return actions


def peer_paths(path: str) -> dict:
    sys.path.insert(0, path)
    from puerto_rico.engine.game import Game
    from puerto_rico.engine.state import GameConfig

    def play(validate: bool):
        def one(players: int, seed: int) -> int:
            rnd = random.Random(seed)
            game = Game(GameConfig(num_players=players, seed=seed))
            actions = 0
            while not game.is_terminal:
                game.apply(rnd.choice(game.legal_actions()), validate=validate)
                actions += 1
            return actions

        return one

    return {"peer validate=False": play(False), "peer validate=True": play(True)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games per path")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="the games are played in this many rounds, the paths taking turns",
    )
    ap.add_argument(
        "--peer", metavar="PATH", help="a checkout of somnambWl/puerto-rico (nothing is fetched)"
    )
    ap.add_argument("--pure", action="store_true", help="ours from source, even when compiled")
    ap.add_argument(
        "--compiled", action="store_true", help="stop unless ours is the compiled build"
    )
    args = ap.parse_args()
    global OURS
    OURS, compiled = load_ours(args.pure)
    if args.compiled and not compiled:
        sys.exit("the compiled engine is not built: .venv/bin/python scripts/build_fast_engine.py")
    print(f"ours: {'compiled build (mypyc)' if compiled else 'pure Python'}")
    stale = stale_builds() if compiled else []
    if stale:
        sys.exit(f"the compiled build is older than {', '.join(stale)}: rebuild it or --clean")
    paths = {"ours simulate": ours_simulate, "ours apply": ours_apply}
    if args.peer:
        paths.update(peer_paths(args.peer))
    per_round = max(args.games // args.rounds, 1)
    rates: dict[str, list[float]] = {name: [] for name in paths}
    actions: dict[str, list[int]] = {name: [] for name in paths}
    for r in range(args.rounds):
        seeds = range(r * per_round, (r + 1) * per_round)
        for name, play in paths.items():
            started = time.process_time()
            actions[name] += [play(args.players, seed) for seed in seeds]
            rates[name].append(per_round / (time.process_time() - started))
    print(
        f"{args.players} players, base game, {per_round * args.rounds} random games per path "
        f"in {args.rounds} rounds; games per CPU second, median of the rounds (min-max)"
    )
    median = {name: statistics.median(r) for name, r in rates.items()}
    for name, r in rates.items():
        print(
            f"  {name:20} {median[name]:8.1f}  ({min(r):.1f}-{max(r):.1f})  "
            f"{statistics.mean(actions[name]):6.1f} actions a game"
        )
    if args.peer:
        print(
            f"  like for like (simulate / validate=False): "
            f"{median['ours simulate'] / median['peer validate=False']:.2f}x"
        )
        print(
            f"  apply / validate=False: "
            f"{median['ours apply'] / median['peer validate=False']:.2f}x; "
            f"checked (apply / validate=True): "
            f"{median['ours apply'] / median['peer validate=True']:.2f}x"
        )


if __name__ == "__main__":
    main()

"""The thinking bot: the steady bot's best few moves, each tried in many
imagined futures, and the one that fares best on average is played.

Flat Monte-Carlo with truncated rollouts: for each candidate, ``playouts``
rollouts in turn, each from a copy whose hidden piles are redrawn
(engine/bots/determinize.py); every seat then plays the steady bot's
one-move-deep choice for ``depth`` decisions, and the position is judged
(engine/bots/evaluation.py).  The budget is counted in playouts, never in
seconds, so the same state and seed always give the same move.

It does see what the other players hold in hand (New Found Land's cards):
the state it is handed has them.  It uses them only through the positions
its rollouts reach, and no page or mail shows them.
"""

from __future__ import annotations

from typing import Any

from engine.bots.base import Bot, Draws
from engine.bots.determinize import imagine
from engine.bots.evaluation import settled, value
from engine.bots.heuristic import HeuristicBot, play
from engine.interface import Action, Rules
from engine.words import N_

SETTLE_MORE = 30


class SearchBot(Bot):
    name = "search"
    title = N_("thinking bot")
    description = "tries its best moves in many imagined futures (slow)"

    def __init__(self, playouts: int = 16, candidates: int = 3, depth: int = 12):
        self.playouts, self.candidates, self.depth = playouts, candidates, depth
        self.steady = HeuristicBot()

    def choose(self, game: Rules, state, seat: int, seed: int) -> Action:
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        ranked = sorted(
            range(len(actions)),
            reverse=True,
            key=lambda i: self.steady.judge(game, state, seat, actions[i]),
        )
        shortlist = ranked[: self.candidates]
        r = Draws(seed)
        results: dict[Any, list[Any]] = {i: [] for i in shortlist}
        for n in range(self.playouts):
            i = shortlist[n % len(shortlist)]
            after = play(game, imagine(game.name, state, r), seat, actions[i])
            results[i].append(value(game, self.rollout(game, after), seat))
        return actions[self.pick(shortlist, results)]

    @staticmethod
    def pick(shortlist: list[int], results: dict[int, list[float]]) -> int:
        """The candidate whose futures fared best, but the steady bot's own
        choice unless another beat it by more than the noise of so few
        futures (one standard error of the difference): a handful of
        rollouts in a game of random draws must not talk it out of a good
        move."""

        def mean(i: int) -> float:
            return sum(results[i]) / len(results[i])

        def variance(i: int) -> float:
            m, n = mean(i), len(results[i])
            return sum((x - m) ** 2 for x in results[i]) / max(n - 1, 1) / n

        shortlist = [i for i in shortlist if results[i]]  # fewer playouts than candidates
        steady = shortlist[0]
        best = max(shortlist, key=lambda i: (mean(i), -shortlist.index(i)))
        if (
            best != steady
            and mean(best) - mean(steady) <= (variance(best) + variance(steady)) ** 0.5
        ):
            return steady
        return best

    def rollout(self, game: Rules, state):
        """``depth`` decisions, then on until the position is settled (a
        seat halfway through an action would be misjudged), at most
        SETTLE_MORE decisions more."""
        for step in range(self.depth + SETTLE_MORE):
            seat = game.to_move(state)
            if seat is None or (step >= self.depth and settled(game, state)):
                break
            state = self.steady.greedy_step(game, state, seat)
        return state

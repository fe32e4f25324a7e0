"""The steady bot: one decision at a time, the move that leaves the best
position (engine/bots/evaluation.py).

Many moves pay off only in the seat's next decisions (a role is worth what
its owner then does with it: the building bought, the goods sold), so each
candidate is followed through the seat's own decisions that come straight
after it, greedily, a few deep, before the position is judged.
"""

from __future__ import annotations

from engine.bots.base import Bot, Draws
from engine.bots.evaluation import value
from engine.interface import Action, Rules
from engine.words import N_

FOLLOW = 3  # own decisions followed after a candidate
CLOSE = 1e-9  # values closer than this are a tie, broken by the seed


def play(game: Rules, state, seat: int, action: Action):
    """The position after a legal ``action``: by ``Rules.simulate`` where the
    game has it (the same state as ``apply``, without the events nobody
    reads), else by ``apply``."""
    simulate = getattr(game, "simulate", None)
    if simulate is None:
        return game.apply(state, seat, action)[0]
    sim = simulate(state)
    sim.play(action)
    return sim.state


class HeuristicBot(Bot):
    name = "heuristic"
    title = N_("steady bot")
    description = "weighs every move by the position it leaves"

    def choose(self, game: Rules, state, seat: int, seed: int) -> Action:
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        scored = [(self.judge(game, state, seat, action), i) for i, action in enumerate(actions)]
        best = max(v for v, _ in scored)
        ties = [i for v, i in scored if v >= best - CLOSE]
        return actions[Draws(seed).choice(ties)]

    def judge(self, game: Rules, state, seat: int, action: Action) -> float:
        after = play(game, state, seat, action)
        for _ in range(FOLLOW):
            if game.to_move(after) != seat:
                break
            after = self.greedy_step(game, after, seat)
        return value(game, after, seat)

    @staticmethod
    def greedy_step(game: Rules, state, seat: int):
        """The seat's next decision, judged one move deep."""
        best, best_value = None, float("-inf")
        for action in game.legal_actions(state, seat):
            after = play(game, state, seat, action)
            v = value(game, after, seat)
            if v > best_value:
                best, best_value = after, v
        return best

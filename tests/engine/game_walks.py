"""Walking through whole seeded games with random legal moves, for tests
that check something at many positions."""

from __future__ import annotations

import random
from collections.abc import Iterator


def positions(game, players: int, options: dict, seed: int, every: int = 1) -> Iterator:
    """Every ``every``-th position of one random game, and the final one."""
    state, r, k = game.new_game(players, options, seed=seed), random.Random(seed), 0
    while not game.is_over(state):
        if k % every == 0:
            yield state
        seat = game.to_move(state)
        state, _ = game.apply(state, seat, r.choice(game.legal_actions(state, seat)))
        k += 1
    yield state

"""A position as a bot may imagine it: the same table, but the hidden draw
piles shuffled anew and a fresh generator.

The engine keeps its seeded generator and the order of every face-down pile
in the state (so a log replays), and the server hands a bot that whole
state.  A search that played its rollouts on it would know the next
plantation, ship or card: each rollout starts from a copy whose hidden
piles are reshuffled from the bot's own seed.  What the other players hold in
hand (New Found Land's cards) is left as it is: see engine/bots/search.py.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.bots.base import Draws

NFL_PILES = (
    "small_pile",
    "large_pile",
    "card_pile",
    "contract_pile",
    "island_pile",
    "compass_pile",
)


def puerto_rico(state, r: Draws):
    s = state.clone()  # its own copy of the plantation stack
    r.shuffle(s.stack)
    s.rng = r.bits()
    return s


def new_found_land(state, r: Draws):
    s = state.clone()  # a deep copy: its piles are its own
    for name in NFL_PILES:
        r.shuffle(getattr(s, name))
    s.rng = r.bits()
    return s


IMAGINE: dict[str, Callable] = {"puerto_rico": puerto_rico, "new_found_land": new_found_land}


def imagine(game_name: str, state, r: Draws):
    """A copy of ``state`` with its hidden order redrawn (or the state
    itself for a game with nothing hidden in its piles)."""
    redraw = IMAGINE.get(game_name)
    return redraw(state, r) if redraw else state

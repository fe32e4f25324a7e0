"""Bots: players made of pure functions, for absent seats and practice games.

A bot reads the same ``Rules`` interface the server uses (``legal_actions``,
``apply``, ``view`` …) and nothing else, so one bot plays every game; what it
knows of a game's strategy lives in a per-game module.  A bot is pure and
seeded: the same state, seat and seed always give the same action.  It sees
the whole state it is handed; the server hands it the state only to choose a
move and never shows a player what the bot looked at.

>>> from engine import GAMES
>>> from engine.bots import choose
>>> game = GAMES["puerto_rico"]
>>> state = game.new_game(3, {}, seed=1)
>>> action = choose("random", game, state, game.to_move(state), seed=7)
>>> action in game.legal_actions(state, game.to_move(state))
True
"""

from __future__ import annotations

from engine.bots.base import Bot, RandomBot
from engine.bots.heuristic import HeuristicBot
from engine.bots.search import SearchBot
from engine.interface import Action, Rules

BOTS: dict[str, Bot] = {}


def register(bot: Bot) -> Bot:
    BOTS[bot.name] = bot
    return bot


def get_bot(name: str) -> Bot:
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; there are: {', '.join(BOTS)}") from None


def choose(name: str, game: Rules, state, seat: int, seed: int = 0) -> Action:
    """The action bot ``name`` plays for ``seat`` in ``state``."""
    return get_bot(name).choose(game, state, seat, seed)


register(RandomBot())
register(HeuristicBot())
register(SearchBot())

__all__ = ["BOTS", "Bot", "choose", "get_bot", "register"]

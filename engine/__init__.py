"""Pure game rules behind one interface; nothing here does I/O.

>>> from engine import GAMES
>>> game = GAMES["puerto_rico"]
>>> state = game.new_game(4, {}, seed=1)
>>> seat = game.to_move(state)
>>> state, events = game.apply(state, seat, game.legal_actions(state, seat)[0])
"""
from engine.interface import (
    Action,
    Choice,
    Event,
    Game,
    IllegalMove,
    OptionSpec,
    Outcome,
    SeatScore,
    Section,
)
from engine.new_found_land.game import NewFoundLand
from engine.puerto_rico.game import PuertoRico

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise IllegalMove(f"unknown game {name!r}") from None


register(PuertoRico())
register(NewFoundLand())

__all__ = ["Action", "Choice", "Event", "Game", "GAMES", "IllegalMove", "OptionSpec",
           "Outcome", "SeatScore", "Section", "get_game", "register"]

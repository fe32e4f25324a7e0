"""Pure game rules behind one interface; nothing here does I/O.

Games are plug-ins: every installed distribution may name games in the entry
point group ``pbem.games`` (``name = "package.module:GameClass"``); pbem's own
two are declared the same way in its pyproject.toml.  A game installed as its
own package (tests/plugin_game/ is one) needs no line changed here or in the
server.

>>> from engine import GAMES
>>> game = GAMES["puerto_rico"]
>>> state = game.new_game(4, {}, seed=1)
>>> seat = game.to_move(state)
>>> state, events = game.apply(state, seat, game.legal_actions(state, seat)[0])
"""

from importlib import import_module
from importlib.metadata import entry_points

from engine.build_check import guard

# Before any engine module is imported: a compiled build that does not match
# its source is passed over for the source (engine/build_check.py).
COMPILED = guard(__file__)

from engine.interface import (  # noqa: E402 - after the build check, on purpose
    Action,
    Choice,
    Event,
    IllegalMove,
    OptionSpec,
    Outcome,
    Rules,
    SeatScore,
    Section,
)

GROUP = "pbem.games"
# pbem's own games, as pyproject.toml declares them: used only when pbem runs
# from a checkout that was never installed (no entry points to read).
BUILT_IN = {
    "puerto_rico": "engine.puerto_rico.game:PuertoRico",
    "new_found_land": "engine.new_found_land.game:NewFoundLand",
}

GAMES: dict[str, Rules] = {}
# Plug-ins that are installed but do not load (an import error, or not a game's Rules):
# name -> the error.  They are left out; the server names them in its log.
BROKEN: dict[str, str] = {}


def register(game: Rules) -> Rules:
    GAMES[game.name] = game
    return game


def get_game(name: str) -> Rules:
    try:
        return GAMES[name]
    except KeyError:
        raise IllegalMove(f"unknown game {name!r}") from None


def _instance(found: object, name: str) -> Rules:
    """An entry point names a Rules class (or an instance); its name must be
    the entry point's, which is what games are stored under."""
    game = found() if isinstance(found, type) else found
    if not isinstance(game, Rules) or game.name != name:
        raise TypeError(f"entry point {GROUP}:{name} is not the Rules of a game named {name!r}")
    return game


def load_games() -> None:
    """Registers every game the installed distributions declare."""
    points = {point.name: point for point in entry_points(group=GROUP)}
    # pbem's own games first (the first is the new-game page's default); a
    # broken one of those is a broken pbem, so it raises.
    for name in BUILT_IN:
        module, _, attr = BUILT_IN[name].partition(":")
        found = points[name].load() if name in points else getattr(import_module(module), attr)
        register(_instance(found, name))
    for name in sorted(points.keys() - BUILT_IN.keys()):
        try:
            register(_instance(points[name].load(), name))
        except Exception as exc:  # any error of a plug-in's code: leave that game out
            BROKEN[name] = f"{exc.__class__.__name__}: {exc}"


load_games()

__all__ = [
    "Action",
    "BROKEN",
    "Choice",
    "Event",
    "Rules",
    "GAMES",
    "IllegalMove",
    "OptionSpec",
    "Outcome",
    "SeatScore",
    "Section",
    "get_game",
    "load_games",
    "register",
]

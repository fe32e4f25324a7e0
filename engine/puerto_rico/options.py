"""The options chosen before a game: today only the building set.

003_d47d98a651436bc3.txt lines 7-14: "With /option base the game uses the
standard building set; With /option extended the players select the buildings
from the standard and expansion set; With /option random a random set of
buildings in selected by the server."  Line 312 calls the second one
"/option extension" (and 002_… line 182 "extension"): both are accepted.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.interface import IllegalMove, OptionSpec
from engine.words import N_

BASE, EXTENDED, RANDOM = "base", "extended", "random"

BUILDING_SET = OptionSpec(
    "buildings",
    N_("Building set"),
    (BASE, EXTENDED, RANDOM),
    BASE,
    help=(
        N_("The standard buildings of the base game."),
        N_(
            "Expansion buildings too: before the first round the players choose, one at a "
            "time from the governor, which violet buildings are in play, each in a slot of "
            "its cost."
        ),
        N_(
            "Expansion buildings too: the server draws the violet buildings in play at "
            "random, each in a slot of its cost."
        ),
    ),
    synonyms=(("extension", EXTENDED), ("basis", BASE)),
)
OPTIONS = (BUILDING_SET,)


def building_set(options: Mapping[str, str] | None) -> str:
    """The building option asked for; ``IllegalMove`` naming the allowed values."""
    for key in options or {}:
        if key != BUILDING_SET.name:
            raise IllegalMove(f"unknown option {key!r}; Puerto Rico has only {BUILDING_SET.name!r}")
    value = (options or {}).get(BUILDING_SET.name, BUILDING_SET.default)
    chosen = BUILDING_SET.canonical(value)
    if chosen is None:
        raise IllegalMove(
            f"unknown option {BUILDING_SET.name}={value}; allowed: {BUILDING_SET.allowed()}"
        )
    return chosen

"""Which violet buildings are in play: base, extended (chosen) or random.

003_d47d98a651436bc3.txt lines 318-324: "The production buildings are always
used, only the purple buildings are selected by players. … Buildings selected
must "fit" based upon their cost."  The fit, as in the published expansion
(its building board has one space per base building, and "the building cost
must match"): a cost takes as many violet types as the base set has at that
cost (``VIOLET_SLOTS``: one at 1, two at 2, …, five at 10).  003's own example
("only 2 buildings in the basic game that cost 7") miscounts: its section 6
lists the Factory alone at 7 (line 271), so the base count is what we follow.

A set under construction lives in ``State.buildings_left`` itself: production
buildings from the start, each chosen violet type added with its copies.
"""

from __future__ import annotations

from engine import rng
from engine.puerto_rico.data import (
    BASE_SET,
    CARDS,
    VIOLET_SLOTS,
    Setup,
    building_supply,
)

PRODUCTION = tuple(name for name in BASE_SET if CARDS[name].produces is not None)
VIOLET = tuple(b.name for b in CARDS.values() if b.violet)


def open_slots(chosen) -> dict[int, int]:
    """Cost -> violet types still to choose at that cost."""
    slots = dict(VIOLET_SLOTS)
    for name in chosen:
        b = CARDS[name]
        if b.violet:
            slots[b.cost] -= 1
    return slots


def candidates(chosen) -> list[str]:
    """Violet types that still fit, in table order (never an unfitting one)."""
    slots = open_slots(chosen)
    return [name for name in VIOLET if name not in chosen and slots[CARDS[name].cost] > 0]


def is_complete(chosen) -> bool:
    return not any(open_slots(chosen).values())


def with_building(left: dict[str, int], setup: Setup, name: str) -> dict[str, int]:
    """``left`` with one more type and its copies, in table order."""
    names = set(left) | {name}
    return {n: left.get(n, 0) or building_supply(setup, (n,))[n] for n in CARDS if n in names}


def random_set(x: int, setup: Setup) -> tuple[int, dict[str, int]]:
    """A fitting set drawn with generator state ``x``: per cost, in rising
    cost order, the first types of a shuffled list of that cost's types."""
    chosen = list(PRODUCTION)
    for cost in sorted(VIOLET_SLOTS):
        pool = [name for name in VIOLET if CARDS[name].cost == cost]
        x = rng.shuffle(x, pool)
        chosen += pool[: VIOLET_SLOTS[cost]]
    names = tuple(n for n in CARDS if n in chosen)
    return x, building_supply(setup, names)


def production_only(setup: Setup) -> dict[str, int]:
    return building_supply(setup, PRODUCTION)

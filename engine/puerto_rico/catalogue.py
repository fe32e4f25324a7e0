"""What a page or an email says about a building: for base and expansion.

``building_info(name)`` is the whole card as plain data; ``describe(name)``
is the one line that labels and the board use.  The server reaches both
through ``Rules.board`` (the "Buildings in play" section) and the labels of
build and select actions, so it needs no Puerto Rico import.
"""

from __future__ import annotations

from typing import Any

from engine.puerto_rico.data import CARDS, GOODS
from engine.words import Words, msg, term


def building_info(name: str) -> dict[str, Any]:
    """Name, title, cost, points, quarry column, circles, size and effect text."""
    b = CARDS[name]
    return {
        "name": b.name,
        "title": b.title,
        "cost": b.cost,
        "vp": b.vp,
        "column": b.column,
        "circles": b.circles,
        "large": b.large,
        "produces": GOODS[b.produces] if b.produces is not None else None,
        "violet": b.violet,
        "expansion": b.expansion,
        "text": b.text,
    }


def describe(name: str) -> Words:
    """``cost 5, 2 VP, column 2: Trader: …`` (the printed cost, not a price)."""
    b = CARDS[name]
    return msg(
        "cost %(cost)s, %(vp)s VP, column %(column)s: %(effect)s",
        cost=b.cost,
        vp=b.vp,
        column=b.column,
        effect=term(b.text),
    )


def all_buildings() -> list[dict[str, Any]]:
    """Every building card, base and expansion, in table order."""
    return [building_info(name) for name in CARDS]

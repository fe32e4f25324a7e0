"""Black market: part of a price paid with a good, a colonist and/or a VP.

003_d47d98a651436bc3.txt lines 335-337: "During building phase. may reduce
building cost by up to 3 by "spending" a good, a colonist, and/or a VP."
Published expansion sheet: each counts 1 doubloon, at most one of each, only
for what the owner cannot pay in doubloons (it never pays out), the good goes
to the supply, the colonist (from San Juan or any tile or building) to the
colonist supply, the chip to the chip supply.

So a building is on offer when its price minus ``capacity`` is affordable;
choosing it when short opens a follow-up decision, one item per action,
until the shortfall is covered (or "cancel" gives the items back and returns
to the build choice).  A colonist taken from a quarry or an occupied Forest
house or Black market may cost its discount: the price is worked out anew
after every item.
"""

from __future__ import annotations

from engine.puerto_rico.data import CARDS, GOODS, PRICE, TILES
from engine.puerto_rico.state import Player, State

CANCEL = {"type": "black_market", "pay": "cancel"}


def capacity(p: Player, used: tuple[str, ...] = ()) -> int:
    """Doubloons the owner's black market can still stand in for (0 without one)."""
    if not p.active("black_market"):
        return 0
    return (
        ("good" not in used and any(p.goods))
        + ("colonist" not in used and p.colonists() > 0)
        + ("vp" not in used and p.vp > 0)
    )


def colonist_places(p: Player) -> list[str]:
    out = ["san_juan"] if p.san_juan else []
    out += [TILES[t] for t in range(6) if p.worked[t]]
    return out + [n for n, c in p.buildings.items() if c]


def options(p: Player, used: list[str]) -> list[dict]:
    """Payments in a fixed order, the first being what a timed-out seat pays:
    the cheapest good, a chip, a colonist (San Juan first); then cancel."""
    opts = []
    if "good" not in used:
        kinds = sorted((k for k in range(5) if p.goods[k]), key=lambda k: PRICE[k])
        opts += [{"type": "black_market", "pay": "good", "kind": GOODS[k]} for k in kinds]
    if "vp" not in used and p.vp > 0:
        opts.append({"type": "black_market", "pay": "vp"})
    if "colonist" not in used:  # last: a colonist at work is the dearest item
        opts += [
            {"type": "black_market", "pay": "colonist", "from": place}
            for place in colonist_places(p)
        ]
    return opts + [CANCEL]


def pay(s: State, seat: int, action: dict, back: int = 1) -> str:
    """Hand over one item (``back=-1``: take it back, when the owner cancels
    the building); returns what it was, for the log."""
    p = s.edit(seat)
    what = action["pay"]
    if what == "good":
        k = GOODS.index(action["kind"])
        p.goods[k] -= back
        s.goods_supply[k] += back
        return f"one {GOODS[k]}"
    if what == "vp":
        p.vp -= back
        s.vp_supply += back
        return "a victory point"
    place = action["from"]
    if place == "san_juan":
        p.san_juan -= back
    elif place in CARDS:
        p.buildings[place] -= back
    else:
        p.worked[TILES.index(place)] -= back
    s.colonist_supply += back
    return "a colonist"

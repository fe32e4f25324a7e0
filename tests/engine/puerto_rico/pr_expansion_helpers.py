"""Helpers for the Puerto Rico expansion tests: positions, random play, ledger.

Positions start from a ``random``-option game (so the expansion is switched
on) whose building supply is then set to every card, base and expansion, so a
test may hand any building to any player.  Everything after that goes through
the public interface, as in tests/engine/puerto_rico/pr_positions.py.
"""

from __future__ import annotations

from itertools import combinations

from engine.puerto_rico.data import (
    CARDS,
    DOUBLOONS_TOTAL,
    GOODS,
    GOODS_SUPPLY,
    PLANTATION_TILES,
    QUARRY,
    QUARRY_TILES,
    SETUPS,
    TILES,
    building_supply,
)
from tests.engine.puerto_rico.pr_positions import GAME, _by_name, fresh
from tests.engine.puerto_rico.puerto_rico_helpers import random_game as base_random_game

OPTIONS = ("base", "extended", "random")


# -- positions ---------------------------------------------------------------
def xtable(n: int, governor: int = 0, seed: int = 1):
    """An expansion game past the selection, every card on offer, islands empty."""
    s = fresh(GAME.new_game(n, {"buildings": "random"}, seed))
    s.buildings_left = building_supply(SETUPS[n], tuple(CARDS))
    s.governor = s.turn = governor
    for p in s.players:
        p.tiles = [0] * 6
        p.worked = [0] * 6
    s._legal = None
    return s


def setx(
    s,
    seat: int,
    *,
    doubloons=None,
    vp=None,
    goods=None,
    tiles=None,
    worked=None,
    buildings=None,
    san_juan=None,
    forests=None,
):
    """Like pr_positions.setp, for expansion cards too; ``forests`` is a count."""
    p = s.players[seat]
    if doubloons is not None:
        p.doubloons = doubloons
    if vp is not None:
        p.vp = vp
    if goods is not None:
        p.goods = _by_name(GOODS, goods)
    if tiles is not None:
        p.tiles = _by_name(TILES, tiles)
        if worked is None:
            p.worked = [0] * 6
    if worked is not None:
        p.worked = _by_name(TILES, worked)
        assert all(w <= t for w, t in zip(p.worked, p.tiles)), "more colonists than tiles"
    if buildings is not None:
        for name, c in buildings.items():
            assert 0 <= c <= CARDS[name].circles, name
        p.buildings = {n: buildings[n] for n in CARDS if n in buildings}
    if san_juan is not None:
        p.san_juan = san_juan
    if forests is not None:
        p.forests = (0,) * forests  # face down: the kind never matters to the rules
    s._legal = None
    return p


# -- random play -------------------------------------------------------------
def random_game(players: int, seed: int, option: str = "extended"):
    """Uniformly random legal actions to the end; yields (state, seat, action, new)."""
    return base_random_game(players, seed, {"buildings": option})


def ledger(s) -> dict:
    """Every counted component wherever it is; never changes within a game.
    Forest tiles are plantations face down; the buildings are counted against
    the copies of the types in play (which grow while the set is chosen)."""
    goods = [
        s.goods_supply[k]
        + sum(p.goods[k] for p in s.players)
        + sum(c for _, kind, c in s.ships if kind == k)
        + s.house.count(k)
        for k in range(5)
    ]
    plantations = [
        s.stack.count(k)
        + s.face_up.count(k)
        + s.discard.count(k)
        + sum(p.tiles[k] + p.forests.count(k) for p in s.players)
        for k in range(5)
    ]
    owned = {}
    for p in s.players:
        for name in p.buildings:
            owned[name] = owned.get(name, 0) + 1
    in_play = tuple(s.buildings_left)
    return {
        "colonists": s.colonist_supply
        + s.colonist_ship
        + s.mayor_pool
        + sum(p.colonists() for p in s.players),
        "goods": goods,
        "doubloons": s.bank + sum(p.doubloons for p in s.players) + sum(s.roles.values()),
        "plantations": plantations,
        "quarries": s.quarries + sum(p.tiles[QUARRY] for p in s.players),
        "buildings": {b: s.buildings_left[b] + owned.get(b, 0) for b in in_play},
        "supply": building_supply(SETUPS[s.n], in_play),
        "vp": s.vp_supply + sum(p.vp for p in s.players),
        "owned_in_play": set(owned) <= set(in_play),
    }


def expected_ledger(s) -> dict:
    setup = SETUPS[s.n]
    in_play = tuple(s.buildings_left)
    return {
        "colonists": setup.colonists + s.n,
        "goods": [g - setup.removed_goods for g in GOODS_SUPPLY],
        "doubloons": DOUBLOONS_TOTAL,
        "plantations": [t - setup.removed_plantations for t in PLANTATION_TILES],
        "quarries": QUARRY_TILES - setup.removed_quarries,
        "buildings": building_supply(setup, in_play),
        "supply": building_supply(setup, in_play),
        "vp": setup.vp_chips,
        "owned_in_play": True,
    }


def every_action_shape(s) -> list[dict]:
    """A superset of the expansion's action shapes, to probe what is refused."""
    out = [{"type": "select", "building": b} for b in CARDS]
    out += [{"type": t} for t in ("forest", "guests_done", "pass", "hacienda", "quarry")]
    out += [{"type": "forest", "colonist": False}]
    out += [{"type": "hacienda_tile", "as": a} for a in ("plantation", "forest")]
    places = list(TILES) + list(CARDS)
    out += [{"type": "guest", "target": t} for t in places]
    out += [{"type": "build", "building": b} for b in CARDS]
    out += [{"type": "black_market", "pay": p} for p in ("vp", "cancel")]
    out += [{"type": "black_market", "pay": "colonist", "from": t} for t in places + ["san_juan"]]
    for g in GOODS:
        out += [
            {"type": "black_market", "pay": "good", "kind": g},
            {"type": "sell", "kind": g, "to": "trading_post"},
            {"type": "sell", "kind": g},
            {"type": "bonus", "kind": g},
        ]
        out += [{"type": "store", "warehouse": [], "barrels": [g] * i} for i in range(1, 5)]
    out += [
        {"type": "small_wharf", "kinds": list(c)}
        for r in range(1, 4)
        for c in combinations(GOODS, r)
    ]
    return out

"""Shared helpers for the Puerto Rico tests: random play and the component ledger."""

from __future__ import annotations

import random
from itertools import combinations

from engine import GAMES
from engine.puerto_rico.data import (
    BUILDINGS,
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

GAME = GAMES["puerto_rico"]


def random_game(players: int, seed: int, options: dict | None = None):
    """Play uniformly random legal actions to the end; yields (state, seat, action, new)."""
    rnd = random.Random(seed)
    state = GAME.new_game(players, options or {}, seed)
    while not GAME.is_over(state):
        seat = GAME.to_move(state)
        action = rnd.choice(GAME.legal_actions(state, seat))
        new, _ = GAME.apply(state, seat, action)
        yield state, seat, action, new
        state = new


def ledger(s) -> dict:
    """Every counted component, wherever it is; must never change in a game."""
    n, setup = s.n, SETUPS[s.n]
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
        + sum(p.tiles[k] for p in s.players)
        for k in range(5)
    ]
    owned = {}
    for p in s.players:
        for name in p.buildings:
            owned[name] = owned.get(name, 0) + 1
    return {
        "colonists": s.colonist_supply
        + s.colonist_ship
        + s.mayor_pool
        + sum(p.colonists() for p in s.players),
        "goods": goods,
        "doubloons": s.bank + sum(p.doubloons for p in s.players) + sum(s.roles.values()),
        "plantations": plantations,
        "quarries": s.quarries + sum(p.tiles[QUARRY] for p in s.players),
        "buildings": {b: s.buildings_left[b] + owned.get(b, 0) for b in BUILDINGS},
        "vp": s.vp_supply + sum(p.vp for p in s.players),
        "n": n,
        "setup": setup,
    }


def expected_ledger(n: int) -> dict:
    setup = SETUPS[n]
    return {
        "colonists": setup.colonists + n,
        "goods": [g - setup.removed_goods for g in GOODS_SUPPLY],
        "doubloons": DOUBLOONS_TOTAL,
        "plantations": [t - setup.removed_plantations for t in PLANTATION_TILES],
        "quarries": QUARRY_TILES - setup.removed_quarries,
        "buildings": building_supply(setup),
        "vp": setup.vp_chips,
        "n": n,
        "setup": setup,
    }


def every_action_shape(s) -> list[dict]:
    """A superset of all actions of every phase, to probe what is refused."""
    out = [
        {"type": "role", "role": r}
        for r in (
            "settler",
            "mayor",
            "builder",
            "craftsman",
            "trader",
            "captain",
            "prospector",
            "prospector2",
        )
    ]
    out += [{"type": t} for t in ("pass", "quarry", "hacienda", "auto_place")]
    out += [{"type": "plantation", "kind": k} for k in TILES]
    out += [
        {"type": "place", "target": t, "count": c}
        for t in list(TILES) + list(BUILDINGS)
        for c in (1, 2, 3)
    ]
    out += [{"type": "build", "building": b} for b in BUILDINGS]
    out += [{**a, "colonist": False} for a in out if a["type"] in ("plantation", "quarry", "build")]
    for g in GOODS:
        out += [
            {"type": "bonus", "kind": g},
            {"type": "sell", "kind": g},
            {"type": "wharf", "kind": g},
        ]
        out += [{"type": "load", "kind": g, "ship": i} for i in range(len(s.ships))]
        for w in range(3):
            for stored in combinations(GOODS, w):
                if g not in stored:
                    out.append({"type": "store", "warehouse": list(stored), "single": g})
    return out

"""A new game laid out as the rulebook's "Voorbereiding van het spel" says."""

from __future__ import annotations

from engine import rng
from engine.interface import IllegalMove
from engine.puerto_rico import building_sets
from engine.puerto_rico.data import (
    DOUBLOONS_TOTAL,
    GOODS_SUPPLY,
    PLANTATION_TILES,
    QUARRY_TILES,
    SETUPS,
    building_supply,
)
from engine.puerto_rico.options import BASE, EXTENDED, RANDOM
from engine.puerto_rico.state import Player, State
from engine.words import msg

EMPTY = -1


def new_state(n: int, seed: int, buildings: str = BASE) -> State:
    if n not in SETUPS:
        raise IllegalMove(msg("Puerto Rico is for 2 to 5 players, not %(n)s", n=n))
    setup = SETUPS[n]
    s = State.__new__(State)
    s.n, s.rng = n, seed & rng.MASK
    s.rng, s.governor = rng.below(s.rng, n)  # "het lot bepaalt de startspeler"
    s.players = [Player(setup.doubloons) for _ in range(n)]
    tiles = list(PLANTATION_TILES)
    for i, kind in enumerate(setup.start_tiles):
        s.players[(s.governor + i) % n].tiles[kind] += 1
        tiles[kind] -= 1
    s.stack = [k for k in range(5) for _ in range(tiles[k] - setup.removed_plantations)]
    s.rng = rng.shuffle(s.rng, s.stack)
    s.face_up = sorted(s.stack.pop() for _ in range(n + 1))
    s.discard, s.quarries = [], QUARRY_TILES - setup.removed_quarries
    s.goods_supply = [g - setup.removed_goods for g in GOODS_SUPPLY]
    s.colonist_supply, s.colonist_ship = setup.colonists, n
    s.vp_supply = setup.vp_chips
    s.bank = DOUBLOONS_TOTAL - n * setup.doubloons
    s.ships = [[cap, EMPTY, 0] for cap in setup.ships]
    s.house, s.buildings_left = [], building_supply(setup)
    s.roles, s.taken = dict.fromkeys(setup.roles, 0), {}
    s.round, s.picks, s.phase, s.turn = 1, 0, "role", s.governor
    s.role_player, s.order, s.step, s.idle = None, [], 0, 0
    s.over = s.captain_bonus_paid = s.hacienda_used = False
    s.end_triggered = ""  # the end conditions met, comma-separated
    s.wharf_used, s.memo, s.mayor_pool, s._legal, s._owned = [], None, 0, None, -1
    s.x = None
    if buildings != BASE:
        _expansion(s, setup, buildings)
    return s


def _expansion(s: State, setup, buildings: str) -> None:
    """Everything above is the base game's; only the buildings differ.
    Extended: the players first choose the violet set ("select" phase, from
    the governor); random: the set is drawn now, after the base layout, so
    the same seed lays out the same island either way."""
    s.x = {"set": buildings, "pending": None, "small_wharf_used": []}
    if buildings == EXTENDED:
        s.buildings_left = building_sets.production_only(setup)
        s.phase = "select"
    elif buildings == RANDOM:
        s.rng, s.buildings_left = building_sets.random_set(s.rng, setup)

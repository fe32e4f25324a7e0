"""Mayor: new colonists arrive and every player re-arranges all of theirs.

Privilege: one colonist from the supply.  The ship is dealt one by one from
the mayor.  Each player lifts all colonists and places them again; San Juan
only holds what finds no empty circle.  A player with at least as many
colonists as circles has no choice and is placed automatically.  Placing is
one colonist, or as many as fit on one tile or building, per action; or
"auto": the previous arrangement, then the new colonists on empty circles in
the order of ``AUTO_ORDER``.
"""

from __future__ import annotations

from operator import sub
from typing import Any

from engine.interface import Event
from engine.puerto_rico.data import CARDS, KIND_INDEX, QUARRY, TILES
from engine.puerto_rico.phases import roles
from engine.puerto_rico.phases.common import (
    order_from,
    privilege,
    run_order,
    say,
    seat_ref,
    trigger_end,
)
from engine.puerto_rico.state import Player, State
from engine.turns import NO_EVENTS
from engine.words import msg, nmsg

AUTO = {"type": "auto_place"}


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "mayor"
    mayor = s.edit(s.role_player)
    for _ in range(privilege(s, s.role_player)):  # two with a Library
        if s.colonist_supply > 0:
            s.colonist_supply -= 1
            mayor.san_juan += 1
    for i in range(s.colonist_ship):
        s.edit((s.role_player + i) % s.n).san_juan += 1
    if ev is not NO_EVENTS:
        say(
            ev,
            s.role_player,
            nmsg(
                "%(n)s colonist leave the ship.", "%(n)s colonists leave the ship.", s.colonist_ship
            ),
        )
    s.colonist_ship = 0
    s.order, s.step = order_from(s, s.role_player), 0
    run_order(s, ev, options, _finish, begin=_begin_seat)


# Every place action there can be, by target then count: made once and
# shared, never changed.  ``TILE_PLACES`` lists the tiles' in tile order.
MOST_PER_TARGET = 12  # an island holds 12 tiles of one kind at most
PLACE: dict[str, list[Any]] = {
    target: [None]
    + [{"type": "place", "target": target, "count": k} for k in range(1, MOST_PER_TARGET + 1)]
    for target in (*TILES, *CARDS)
}
TILE_PLACES = tuple(PLACE[tile] for tile in TILES)
CIRCLES = {name: card.circles for name, card in CARDS.items()}


def options(s: State, seat: int) -> list[dict]:
    """Auto, then per target with room: one colonist, and "fill it" when more fit.

    The mayor is asked again after every placement, so this runs more than
    any other option list (a third of all decisions): hence the loops over
    prebuilt actions, and the single colonist's case on its own."""
    p = s.players[seat]
    pool = s.mayor_pool
    opts: list[dict] = [AUTO]
    add = opts.append
    free_tiles = map(sub, p.tiles, p.worked)
    if pool == 1:  # one colonist: only "put one there"
        for places, free in zip(TILE_PLACES, free_tiles):
            if free:
                add(places[1])
        for name, c in p.buildings.items():
            if CIRCLES[name] > c:
                add(PLACE[name][1])
        return opts
    for places, free in zip(TILE_PLACES, free_tiles):
        if free:
            add(places[1])
            if free > 1:
                add(places[free if free < pool else pool])
    for name, c in p.buildings.items():
        free = CIRCLES[name] - c
        if free:
            places = PLACE[name]
            add(places[1])
            if free > 1:
                add(places[free if free < pool else pool])
    return opts


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    p = s.edit(seat)
    if action["type"] == "auto_place":
        _auto_place(p, s.memo, s.mayor_pool)
        s.mayor_pool = 0
    else:
        target, count = action["target"], action["count"]
        if target in CIRCLES:
            p.buildings[target] += count
        else:
            p.worked[KIND_INDEX[target]] += count
        s.mayor_pool -= count
        if s.mayor_pool:
            # Kept (see common.run_order): the same seat places again.
            s._legal = options(s, seat)
            return
    if ev is not NO_EVENTS:
        say(ev, seat, msg("%(who)s has placed all colonists.", who=seat_ref(seat)))
    s.step += 1
    run_order(s, ev, options, _finish, begin=_begin_seat)


def _begin_seat(s: State, seat: int, ev: list[Event]) -> bool:
    """Lift all colonists; place them directly when there is nothing to choose."""
    p = s.edit(seat)
    worked, buildings = p.worked, p.buildings
    pool = sum(worked) + sum(buildings.values()) + p.san_juan
    circles = sum(p.tiles) + sum(map(CIRCLES.__getitem__, buildings))
    # The lifted arrangement is kept as it was (the player gets new
    # containers, so nothing changes it): "auto" starts from it.
    s.memo = {"worked": worked, "buildings": buildings}
    if pool >= circles:
        p.worked = p.tiles[:]
        p.buildings = {n: CIRCLES[n] for n in buildings}
        p.san_juan = pool - circles
        return False
    p.worked = [0] * 6
    p.buildings = dict.fromkeys(buildings, 0)
    p.san_juan = 0
    s.mayor_pool = pool
    return pool > 0


# Where "auto" puts colonists beyond the previous arrangement: buildings
# first (they pay only when occupied), then plantations of the most valuable
# goods, quarries, and the Guest house last (its guests work nowhere until
# moved, but may still be moved: better than San Juan).
AUTO_ORDER: tuple[Any, ...] = ("buildings", 4, 3, 2, 1, 0, QUARRY, "guest_house")
GUEST_HOUSE = "guest_house"


def _auto_place(p: Player, prev: dict, pool: int) -> None:
    for places, key, full in _auto_targets(p, prev):
        if not pool:
            break
        n = min(full - places[key], pool)
        if n > 0:
            places[key] += n
            pool -= n
    p.san_juan += pool


def _auto_targets(p: Player, prev: dict):
    """Where "auto" places, in order: (``p.worked`` or ``p.buildings``, the
    key in it, how many colonists it holds when filled that far)."""
    for t, before in enumerate(prev["worked"]):
        yield p.worked, t, min(before, p.tiles[t])
    for name, before in prev["buildings"].items():
        yield p.buildings, name, before
    for step in AUTO_ORDER:
        if step == "buildings":
            for name in p.buildings:
                if name != GUEST_HOUSE:
                    yield p.buildings, name, CIRCLES[name]
        elif step == GUEST_HOUSE:
            if GUEST_HOUSE in p.buildings:
                yield p.buildings, GUEST_HOUSE, CIRCLES[GUEST_HOUSE]
        else:
            yield p.worked, step, p.tiles[step]


def _finish(s: State, ev: list[Event]) -> None:
    s.memo = None
    s.mayor_pool = 0
    need = max(s.n, sum(p.empty_building_circles() for p in s.players))
    if s.colonist_supply < need:
        # Game end: the ship cannot be filled (finish the round first).
        trigger_end(
            s,
            "colonists",
            ev,
            msg("Not enough colonists are left to fill the ship: this is the last round."),
        )
    put = min(need, s.colonist_supply)
    s.colonist_supply -= put
    s.colonist_ship = put
    roles.end_role(s, ev)

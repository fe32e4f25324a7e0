"""Builder: each player, from the builder on, may build one building.

Privilege: one doubloon less.  Each occupied quarry lowers the cost by one,
at most as many as the building's column; the cost never drops below 0.
No player builds the same building twice; a large building needs two free
city spaces.  University: a colonist on the new building, if the owner wants it.
"""
from __future__ import annotations

from engine.interface import Event
from engine.puerto_rico.data import BUILDINGS, CITY_SPACES, QUARRY
from engine.puerto_rico.phases import roles
from engine.puerto_rico.phases.common import (PASS, order_from, run_order, say,
                                                seat_ref, take_colonist, trigger_end,
                                                with_optional_colonist)
from engine.puerto_rico.state import State, in_table_order

# (building, its action) pairs made once: options() runs for every seat in
# every builder phase.  Actions are shared and must not be changed by callers.
BUILD_ACTIONS = tuple((b, {"type": "build", "building": b.name}) for b in BUILDINGS.values())


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "builder"
    s.order, s.step = order_from(s, s.role_player), 0
    run_order(s, ev, options, _finish)


def cost(s: State, seat: int, name: str) -> int:
    b = BUILDINGS[name]
    p = s.players[seat]
    discount = min(p.worked[QUARRY], b.column) + (1 if seat == s.role_player else 0)
    return max(0, b.cost - discount)


def options(s: State, seat: int) -> list[dict]:
    p = s.players[seat]
    free = CITY_SPACES - p.city_spaces()
    quarries, money, left = p.worked[QUARRY], p.doubloons, s.buildings_left
    privilege = 1 if seat == s.role_player else 0
    opts = []
    owned = p.buildings
    for b, action in BUILD_ACTIONS:     # the sum of cost(), inlined for speed
        if (b.cost - min(quarries, b.column) - privilege <= money and b.size <= free
                and left[b.name] > 0 and b.name not in owned):
            opts.append(action)
    if opts:
        opts.append(PASS)
    return with_optional_colonist(s, opts, p.active("builder_colonist"))


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    if action["type"] == "build":
        _build(s, seat, action, ev)
    else:
        say(ev, seat, f"{seat_ref(seat)} builds nothing.")
    s.step += 1
    run_order(s, ev, options, _finish)


def _build(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    name = action["building"]
    p = s.edit(seat)
    price = cost(s, seat, name)
    p.doubloons -= price
    s.bank += price
    s.buildings_left[name] -= 1
    p.buildings = in_table_order({**p.buildings, name: 0})
    note = ""
    if action.get("colonist", True) and p.active("builder_colonist") and take_colonist(s):
        p.buildings[name] = 1
        note = " and puts a colonist on it from the university"
    say(ev, seat, f"{seat_ref(seat)} builds the {BUILDINGS[name].title} for {price}{note}.")
    if p.city_spaces() >= CITY_SPACES:
        trigger_end(s, "city", ev,
                    f"{seat_ref(seat)} has filled the 12th city space: this is the last round.")



def _finish(s: State, ev: list[Event]) -> None:
    roles.end_role(s, ev)

"""Captain: players must ship, again and again, until nobody can.

From the captain on, clockwise and round again: whoever can load must load
one kind, as many barrels as fit.  A ship takes one kind, a kind sails on one
ship only, and of the empty ships the one that takes the most barrels must be
used (the largest-ship rule).  1 VP per barrel, +1 for the captain's first
load, +1 per load with a harbor.  A wharf ships all barrels of one kind once
per phase, even a kind already afloat; using it is optional.
"""
from __future__ import annotations

from engine.interface import Event
from engine.puerto_rico.data import GOODS
from engine.puerto_rico.phases import storage
from engine.puerto_rico.phases.common import PASS, seat_ref
from engine.puerto_rico.state import State

EMPTY = -1


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "captain"
    s.wharf_used = [False] * s.n
    s.captain_bonus_paid = False
    s.step, s.idle = 0, 0
    _advance(s, ev)


def load_options(s: State, seat: int) -> list[dict]:
    goods = s.players[seat].goods
    opts = []
    for kind in range(5):
        have = goods[kind]
        if not have:
            continue
        afloat = [i for i, (_, k, _) in enumerate(s.ships) if k == kind]
        if afloat:
            cap, _, count = s.ships[afloat[0]]
            if count < cap:
                opts.append({"type": "load", "kind": GOODS[kind], "ship": afloat[0]})
            continue
        empty = [i for i, (_, k, _) in enumerate(s.ships) if k == EMPTY]
        if empty:
            best = max(min(have, s.ships[i][0]) for i in empty)
            opts.extend({"type": "load", "kind": GOODS[kind], "ship": i}
                        for i in empty if min(have, s.ships[i][0]) == best)
    return opts


def options(s: State, seat: int) -> list[dict]:
    loads = load_options(s, seat)
    p = s.players[seat]
    wharf = []
    if not s.wharf_used[seat] and p.active("wharf"):
        wharf = [{"type": "wharf", "kind": GOODS[k]} for k in range(5) if p.goods[k]]
    if loads:
        return loads + wharf            # loading is compulsory
    return wharf + [PASS] if wharf else []


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    p = s.edit(seat)
    if action["type"] == "pass":
        s.idle += 1
        ev.append(Event(f"{seat_ref(seat)} does not use the wharf.", seat))
    else:
        kind = GOODS.index(action["kind"])
        if action["type"] == "load":
            ship = s.ships[action["ship"]]
            amount = min(p.goods[kind], ship[0] - ship[2])
            ship[1], ship[2] = kind, ship[2] + amount
            where = f"the {ship[0]}-ship"
        else:
            amount = p.goods[kind]
            s.goods_supply[kind] += amount
            s.wharf_used[seat] = True
            where = "the wharf"
        p.goods[kind] -= amount
        vp = _score(s, seat, amount)
        text = f"{seat_ref(seat)} ships {amount} {GOODS[kind]} on {where}"
        ev.append(Event(f"{text} for {vp} VP.", seat, private_to=seat, public_text=f"{text}."))
        s.idle = 0
    s.step += 1
    _advance(s, ev)


def _score(s: State, seat: int, amount: int) -> int:
    vp = amount + s.players[seat].active("ship_bonus")
    if seat == s.role_player and not s.captain_bonus_paid:
        s.captain_bonus_paid = True
        vp += 1
    # Chips may run out: players go on scoring for the rest of the phase, so
    # the supply may go below zero (the shortfall is "written on paper").
    s.edit(seat).vp += vp
    s.vp_supply -= vp
    return vp


def _advance(s: State, ev: list[Event]) -> None:
    while s.idle < s.n:
        seat = (s.role_player + s.step) % s.n
        opts = options(s, seat)
        if opts:
            s.turn, s._legal = seat, opts      # kept: see common.run_order
            return
        s.idle += 1
        s.step += 1
    storage.enter(s, ev)

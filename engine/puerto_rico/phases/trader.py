"""Trader: from the trader on, each player may sell one barrel.

The trading house holds four barrels of different kinds (office: any kind).
Price 0-4 by kind, +1 for the trader, +1 small market, +2 large market.
A full house ends the phase and is emptied; otherwise it keeps its barrels.
"""
from __future__ import annotations

from engine.interface import Event
from engine.puerto_rico.data import GOODS, PRICE, TRADING_HOUSE_SIZE
from engine.puerto_rico.phases import roles
from engine.puerto_rico.phases.common import PASS, order_from, run_order, say, seat_ref
from engine.puerto_rico.state import State


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "trader"
    s.order, s.step = order_from(s, s.role_player), 0
    run_order(s, ev, options, _finish)


def price(s: State, seat: int, kind: int) -> int:
    p = s.players[seat]
    bonus = (seat == s.role_player) + p.active("trade_bonus_1") + 2 * p.active("trade_bonus_2")
    return PRICE[kind] + bonus


def options(s: State, seat: int) -> list[dict]:
    if len(s.house) >= TRADING_HOUSE_SIZE:
        return []
    p = s.players[seat]
    office = p.active("sell_duplicate")
    opts = [{"type": "sell", "kind": GOODS[k]} for k in range(5)
            if p.goods[k] > 0 and (office or k not in s.house)]
    if opts:
        opts.append(PASS)
    return opts


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    if action["type"] == "sell":
        kind = GOODS.index(action["kind"])
        gain = price(s, seat, kind)
        p = s.edit(seat)
        p.goods[kind] -= 1
        p.doubloons += gain
        s.bank -= gain
        s.house.append(kind)
        say(ev, seat, f"{seat_ref(seat)} sells one {GOODS[kind]} for {gain}.")
    else:
        say(ev, seat, f"{seat_ref(seat)} sells nothing.")
    s.step += 1
    run_order(s, ev, options, _finish)



def _finish(s: State, ev: list[Event]) -> None:
    if len(s.house) >= TRADING_HOUSE_SIZE:
        for kind in s.house:
            s.goods_supply[kind] += 1
        s.house = []
        say(ev, None, "The full trading house is emptied.")
    roles.end_role(s, ev)

"""Trader: from the trader on, each player may sell one barrel.

The trading house holds four barrels of different kinds (office: any kind).
Price 0-4 by kind, +1 for the trader, +1 small market, +2 large market.
A full house ends the phase and is emptied; otherwise it keeps its barrels.

Expansion: the Trading post is a house of one's own (a sale marked
``"to": "trading_post"``), the Library doubles the trader's doubloon.
"""

from __future__ import annotations

from engine.interface import Event
from engine.puerto_rico import guests
from engine.puerto_rico.data import GOODS, PRICE, TRADING_HOUSE_SIZE
from engine.puerto_rico.phases import roles
from engine.puerto_rico.phases.common import (
    PASS,
    order_from,
    privilege,
    run_order,
    say,
    seat_ref,
)
from engine.puerto_rico.state import State
from engine.turns import NO_EVENTS
from engine.words import msg, term


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "trader"
    s.order, s.step = order_from(s, s.role_player), 0
    run_order(s, ev, options, _finish)


def price(s: State, seat: int, kind: int, to: str = "house") -> int:
    p = s.players[seat]
    if to == "trading_post":
        # 003_… lines 346-348: "at full price … Small market and large
        # market bonuses do not apply. Bonus for being the trader does."
        return PRICE[kind] + privilege(s, seat)
    bonus = privilege(s, seat) + p.active("trade_bonus_1") + 2 * p.active("trade_bonus_2")
    return PRICE[kind] + bonus


def options(s: State, seat: int) -> list[dict]:
    p = s.players[seat]
    opts = []
    if len(s.house) < TRADING_HOUSE_SIZE:
        office = p.active("sell_duplicate")
        opts = [
            {"type": "sell", "kind": GOODS[k]}
            for k in range(5)
            if p.goods[k] > 0 and (office or k not in s.house)
        ]
    if s.x is not None and p.active("trading_post"):
        # 003_… lines 348-349: "You may sell a good that is in the trading
        # house and you may even sell if the trading house is full."
        opts += [
            {"type": "sell", "kind": GOODS[k], "to": "trading_post"}
            for k in range(5)
            if p.goods[k] > 0
        ]
    if opts:
        opts.append(PASS)
    return guests.with_moves(s, seat, opts)


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    if action["type"] == "guest":
        guests.move(s, seat, action, ev)
        s._legal = options(s, seat)
        return
    if action["type"] == "sell":
        kind = GOODS.index(action["kind"])
        to = action.get("to", "house")
        gain = price(s, seat, kind, to)
        p = s.edit(seat)
        p.goods[kind] -= 1
        p.doubloons += gain
        s.bank -= gain
        if to == "trading_post":
            s.goods_supply[kind] += 1  # the post's barrels go straight back
            if ev is not NO_EVENTS:
                say(
                    ev,
                    seat,
                    msg(
                        "%(who)s sells one %(good)s to the trading post for %(gain)s.",
                        who=seat_ref(seat),
                        good=term(GOODS[kind]),
                        gain=gain,
                    ),
                )
        else:
            s.house = s.house + [kind]  # replaced, not changed: see State.clone
            if ev is not NO_EVENTS:
                say(
                    ev,
                    seat,
                    msg(
                        "%(who)s sells one %(good)s for %(gain)s.",
                        who=seat_ref(seat),
                        good=term(GOODS[kind]),
                        gain=gain,
                    ),
                )
    elif ev is not NO_EVENTS:
        say(ev, seat, msg("%(who)s sells nothing.", who=seat_ref(seat)))
    s.step += 1
    run_order(s, ev, options, _finish)


def _finish(s: State, ev: list[Event]) -> None:
    if len(s.house) >= TRADING_HOUSE_SIZE:
        for kind in s.house:
            s.goods_supply[kind] += 1
        s.house = []
        say(ev, None, msg("The full trading house is emptied."))
    roles.end_role(s, ev)

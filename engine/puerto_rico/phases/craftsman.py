"""Craftsman: everybody produces, from the craftsman on, while supply lasts.

Corn needs only an occupied plantation; the other goods need as many
occupied production circles as occupied plantations.  Factory pays by kinds
produced.  Privilege: one more barrel of a kind the craftsman produced.
"""
from __future__ import annotations

from engine.interface import Event
from engine.puerto_rico.data import CORN, FACTORY_BONUS, GOODS, PRODUCTION_BUILDINGS
from engine.puerto_rico.phases import roles
from engine.puerto_rico.phases.common import order_from, say, seat_ref
from engine.puerto_rico.state import Player, State


def capacity(p: Player, kind: int) -> int:
    """Barrels of ``kind`` this player's occupied tiles and buildings make."""
    if kind == CORN:
        return p.worked[CORN]
    circles = 0
    for name in PRODUCTION_BUILDINGS[kind]:
        circles += p.buildings.get(name, 0)
    return min(p.worked[kind], circles)


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "craftsman"
    s.order = []
    for seat in order_from(s, s.role_player):
        _produce(s, seat, ev)
    opts = options(s, s.role_player)
    if len(opts) > 1:
        s.turn = s.role_player          # the bonus barrel is a real choice
        s.order = [s.role_player]       # marks what was produced, see options()
        return
    if opts:
        _bonus(s, s.role_player, GOODS.index(opts[0]["kind"]), ev)
    s.memo = None
    roles.end_role(s, ev)


def options(s: State, seat: int) -> list[dict]:
    produced = s.memo or {}     # the kinds the craftsman produced this phase
    return [{"type": "bonus", "kind": GOODS[k]}
            for k in produced.get("kinds", ()) if s.goods_supply[k] > 0]


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    _bonus(s, seat, GOODS.index(action["kind"]), ev)
    roles.end_role(s, ev)


def _produce(s: State, seat: int, ev: list[Event]) -> None:
    p = s.edit(seat)
    made = []
    for kind in range(5):
        n = min(capacity(p, kind), s.goods_supply[kind])
        if n:
            s.goods_supply[kind] -= n
            p.goods[kind] += n
            made.append((kind, n))
    if p.active("factory") and len(made) >= 2:
        pay = FACTORY_BONUS[len(made)]
        p.doubloons += pay
        s.bank -= pay
    if seat == s.role_player:
        # Remember what the craftsman made: his bonus must be one of those kinds.
        s.memo = {"kinds": [k for k, _ in made]}
    if made:
        text = ", ".join(f"{n} {GOODS[k]}" for k, n in made)
        say(ev, seat, f"{seat_ref(seat)} produces {text}.")


def _bonus(s: State, seat: int, kind: int, ev: list[Event]) -> None:
    s.goods_supply[kind] -= 1
    s.edit(seat).goods[kind] += 1
    s.memo = None
    say(ev, seat, f"{seat_ref(seat)} takes one more {GOODS[kind]} as craftsman.")

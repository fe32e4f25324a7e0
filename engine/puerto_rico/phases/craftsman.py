"""Craftsman: everybody produces, from the craftsman on, while supply lasts.

Corn needs only an occupied plantation; the other goods need as many
occupied production circles as occupied plantations.  Factory pays by kinds
produced.  Privilege: one more barrel of a kind the craftsman produced.

Expansion: Aqueduct (+1 indigo/sugar from a large plant), Specialty factory
(doubloons for the largest production), Library (two bonus barrels).
"""

from __future__ import annotations

from engine.interface import Event
from engine.puerto_rico.data import (
    CORN,
    FACTORY_BONUS,
    GOODS,
    INDIGO,
    PRODUCTION_BUILDINGS,
    SUGAR,
)
from engine.puerto_rico.phases import roles
from engine.puerto_rico.phases.common import order_from, privilege, say, seat_ref
from engine.puerto_rico.state import Player, State
from engine.turns import NO_EVENTS
from engine.words import listing, msg, term


def capacity(p: Player, kind: int) -> int:
    """Barrels of ``kind`` this player's occupied tiles and buildings make."""
    plantations = p.worked[kind]
    if kind == CORN or not plantations:
        return plantations
    circles = 0
    for name in PRODUCTION_BUILDINGS[kind]:
        circles += p.buildings.get(name, 0)
    return min(plantations, circles)


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "craftsman"
    s.order = []
    for seat in order_from(s, s.role_player):
        _produce(s, seat, ev)
    _offer_bonus(s, ev, privilege(s, s.role_player))


def _offer_bonus(s: State, ev: list[Event], left: int) -> None:
    """The craftsman's bonus barrels (two with a Library), each a real
    choice only when more than one kind is possible."""
    while left > 0:
        opts = options(s, s.role_player)
        if len(opts) > 1:
            s.turn = s.role_player  # the bonus barrel is a real choice
            s.order = [s.role_player]
            if s.x is not None:
                s.x = dict(s.x, pending={"kind": "bonus", "left": left})
            return
        if not opts:
            break
        _bonus(s, s.role_player, GOODS.index(opts[0]["kind"]), ev)
        left -= 1
    s.memo = None
    if s.x is not None:
        s.x = dict(s.x, pending=None)
    roles.end_role(s, ev)


def options(s: State, seat: int) -> list[dict]:
    produced = s.memo or {}  # the kinds the craftsman produced this phase
    return [
        {"type": "bonus", "kind": GOODS[k]}
        for k in produced.get("kinds", ())
        if s.goods_supply[k] > 0
    ]


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    left = s.x["pending"]["left"] if s.x is not None else 1
    _bonus(s, seat, GOODS.index(action["kind"]), ev)
    _offer_bonus(s, ev, left - 1)


def _produce(s: State, seat: int, ev: list[Event]) -> None:
    p = s.edit(seat)
    made = []
    for kind in range(5):
        if not p.worked[kind]:
            continue  # nothing to make it from
        n = min(capacity(p, kind), s.goods_supply[kind])
        if n:
            s.goods_supply[kind] -= n
            p.goods[kind] += n
            made.append((kind, n))
    if s.x is not None and made:
        made = _aqueduct(s, p, made)
        _specialty_factory(s, p, made)
    if p.active("factory") and len(made) >= 2:
        pay = FACTORY_BONUS[len(made)]
        p.doubloons += pay
        s.bank -= pay
    if seat == s.role_player:
        # Remember what the craftsman made: his bonus must be one of those kinds.
        s.memo = {"kinds": [k for k, _ in made]}
    if made and ev is not NO_EVENTS:
        made_text = listing([msg("%(n)s %(good)s", n=n, good=term(GOODS[k])) for k, n in made])
        say(ev, seat, msg("%(who)s produces %(goods)s.", who=seat_ref(seat), goods=made_text))


def _bonus(s: State, seat: int, kind: int, ev: list[Event]) -> None:
    s.goods_supply[kind] -= 1
    s.edit(seat).goods[kind] += 1
    if ev is not NO_EVENTS:
        say(
            ev,
            seat,
            msg(
                "%(who)s takes one more %(good)s as craftsman.",
                who=seat_ref(seat),
                good=term(GOODS[kind]),
            ),
        )


LARGE_PLANT = {INDIGO: "indigo_plant", SUGAR: "sugar_mill"}


def _aqueduct(s: State, p: Player, made: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """003_… lines 328-330: "Produces one extra Indigo or Sugar, if production
    came from a large Indigo plant or a large Sugar mill": one more of each
    such kind made with the large building occupied (published sheet: "at
    least one"), while the supply lasts."""
    if not p.active("aqueduct"):
        return made
    out = []
    for kind, n in made:
        if kind in LARGE_PLANT and p.buildings.get(LARGE_PLANT[kind]) and s.goods_supply[kind]:
            s.goods_supply[kind] -= 1
            p.goods[kind] += 1
            n += 1
        out.append((kind, n))
    return out


def _specialty_factory(s: State, p: Player, made: list[tuple[int, int]]) -> None:
    """003_… lines 359-362: "Does not apply to Corn. Take the number of goods
    that you produced the most of minus one.  You get that many doubloons."
    The Aqueduct's extra barrels count: they are produced too."""
    if not p.active("specialty_factory"):
        return
    most = max((n for kind, n in made if kind != CORN), default=0)
    if most > 1:
        p.doubloons += most - 1
        s.bank -= most - 1

"""Captain: players must ship, again and again, until nobody can.

From the captain on, clockwise and round again: whoever can load must load
one kind, as many barrels as fit.  A ship takes one kind, a kind sails on one
ship only, and of the empty ships the one that takes the most barrels must be
used (the largest-ship rule).  1 VP per barrel, +1 for the captain's first
load, +1 per load with a harbor.  A wharf ships all barrels of one kind once
per phase, even a kind already afloat; using it is optional.

Expansion: Union hall points before shipping, the Small wharf (any kinds,
1 VP per 2 barrels), the Lighthouse's doubloons, the Library's doubled
privilege.
"""

from __future__ import annotations

from itertools import combinations

from engine.interface import Event
from engine.puerto_rico import guests
from engine.puerto_rico.data import GOODS, SETUPS
from engine.puerto_rico.phases import storage
from engine.puerto_rico.phases.common import PASS, order_from, privilege, seat_ref
from engine.puerto_rico.state import State
from engine.turns import NO_EVENTS
from engine.words import listing, msg, term

EMPTY = -1


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "captain"
    s.wharf_used = [False] * s.n
    s.captain_bonus_paid = False
    s.step, s.idle = 0, 0
    if s.x is not None:
        s.x = dict(s.x, small_wharf_used=[])
        _union_hall(s, ev)
    _advance(s, ev)


# Every load action there can be, by kind then ship: made once and shared,
# never changed (``load_options`` runs for every seat on every turn).
MOST_SHIPS = max(len(setup.ships) for setup in SETUPS.values())
LOADS = tuple(
    tuple({"type": "load", "kind": good, "ship": i} for i in range(MOST_SHIPS)) for good in GOODS
)


def load_options(s: State, seat: int) -> list[dict]:
    goods = s.players[seat].goods
    if not any(goods):
        return []
    ships = s.ships
    kinds_afloat = [k for _, k, _ in ships]
    opts = []
    for kind in range(5):
        have = goods[kind]
        if not have:
            continue
        if kind in kinds_afloat:
            i = kinds_afloat.index(kind)
            cap, _, count = ships[i]
            if count < cap:
                opts.append(LOADS[kind][i])
            continue
        empty = [i for i, k in enumerate(kinds_afloat) if k == EMPTY]
        if empty:
            best = max(min(have, ships[i][0]) for i in empty)
            opts.extend(LOADS[kind][i] for i in empty if min(have, ships[i][0]) == best)
    return opts


def options(s: State, seat: int) -> list[dict]:
    loads = load_options(s, seat)
    p = s.players[seat]
    wharf = []
    if not s.wharf_used[seat] and any(p.goods) and p.active("wharf"):
        wharf = [{"type": "wharf", "kind": GOODS[k]} for k in range(5) if p.goods[k]]
    if s.x is not None:
        wharf += _small_wharf_options(s, seat)
    if loads:
        return guests.with_moves(s, seat, loads + wharf)  # loading is compulsory
    return guests.with_moves(s, seat, wharf + [PASS]) if wharf else []


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    if action["type"] == "guest":
        guests.move(s, seat, action, ev)
        s._legal = options(s, seat)
        return
    p = s.edit(seat)
    if action["type"] == "small_wharf":
        _ship_small_wharf(s, seat, action, ev)
    elif action["type"] == "pass":
        s.idle += 1
        if ev is not NO_EVENTS:
            ev.append(Event(msg("%(who)s does not use the wharf.", who=seat_ref(seat)), seat))
    else:
        kind = GOODS.index(action["kind"])
        # Ships and wharves are replaced, not changed in place: see State.clone.
        if action["type"] == "load":
            i = action["ship"]
            cap, _, count = s.ships[i]
            amount = min(p.goods[kind], cap - count)
            s.ships = s.ships[:i] + [[cap, kind, count + amount]] + s.ships[i + 1 :]
            where = cap
        else:
            amount = p.goods[kind]
            s.goods_supply[kind] += amount
            s.wharf_used = [used or i == seat for i, used in enumerate(s.wharf_used)]
            where = None
        p.goods[kind] -= amount
        vp = _score(s, seat, amount)
        if ev is not NO_EVENTS:
            _say_shipped(ev, seat, kind, amount, where, vp)
        s.idle = 0
    s.step += 1
    _advance(s, ev)


def _say_shipped(
    ev: list[Event], seat: int, kind: int, amount: int, ship: int | None, vp: int
) -> None:
    """The shipment for the log (``ship``: its size, None for the wharf); the
    points only for the shipper, who may keep them hidden."""
    where = msg("the wharf") if ship is None else msg("the %(n)s-ship", n=ship)
    said = dict(who=seat_ref(seat), n=amount, good=term(GOODS[kind]), where=where)
    ev.append(
        Event(
            msg("%(who)s ships %(n)s %(good)s on %(where)s for %(vp)s VP.", vp=vp, **said),
            seat,
            private_to=seat,
            public_text=msg("%(who)s ships %(n)s %(good)s on %(where)s.", **said),
        )
    )


def _score(s: State, seat: int, amount: int) -> int:
    """Points for one shipment: ``amount`` for the barrels, the harbor's one
    and the captain's privilege (first shipment only, twice with a Library)."""
    vp = amount + s.players[seat].active("ship_bonus")
    first = seat == s.role_player and not s.captain_bonus_paid
    if first:
        s.captain_bonus_paid = True
        vp += privilege(s, seat)
    if s.x is not None:
        _lighthouse(s, seat, first)
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
            s.turn, s._legal = seat, opts  # kept: see common.run_order
            return
        s.idle += 1
        s.step += 1
    storage.enter(s, ev)


def _union_hall(s: State, ev: list[Event]) -> None:
    """003_… lines 365-366: "Before shipping, take 1 VP for every 2 goods you
    have" (all barrels, any kinds), chips from the supply."""
    for seat in order_from(s, s.role_player):
        p = s.players[seat]
        vp = sum(p.goods) // 2
        if vp and p.active("union_hall"):
            s.edit(seat).vp += vp
            s.vp_supply -= vp
            ev.append(
                Event(
                    msg("%(who)s takes %(vp)s VP with the Union hall.", who=seat_ref(seat), vp=vp),
                    seat,
                    private_to=seat,
                    public_text="",
                )
            )


def _lighthouse(s: State, seat: int, first: bool) -> None:
    """003_… lines 356-358: "1 Doubloon whenever you ship. Also, if you are
    the captain and ship you get an extra doubloon" (once: with the first
    shipment, like the captain's point)."""
    if s.players[seat].active("lighthouse"):
        pay = 1 + first
        s.edit(seat).doubloons += pay
        s.bank -= pay


def _small_wharf_options(s: State, seat: int) -> list[dict]:
    """003_… lines 353-355: "A private ship. May ship goods of different
    types."  Once per phase (published expansion), all barrels of each kind
    chosen: every non-empty set of the kinds held is one action."""
    p = s.players[seat]
    if not any(p.goods) or seat in s.x["small_wharf_used"] or not p.active("small_wharf"):
        return []
    kinds = [GOODS[k] for k in range(5) if p.goods[k]]
    return [
        {"type": "small_wharf", "kinds": list(c)}
        for r in range(1, len(kinds) + 1)
        for c in combinations(kinds, r)
    ]


def _ship_small_wharf(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    """ "However, you only get 1 VP for each 2 goods shipped" (rounded down);
    the barrels go back to the supply."""
    p = s.edit(seat)
    barrels = 0
    for name in action["kinds"]:
        k = GOODS.index(name)
        barrels += p.goods[k]
        s.goods_supply[k] += p.goods[k]
        p.goods[k] = 0
    s.x = dict(s.x, small_wharf_used=s.x["small_wharf_used"] + [seat])
    vp = _score(s, seat, barrels // 2)
    said = dict(who=seat_ref(seat), n=barrels, kinds=listing([term(k) for k in action["kinds"]]))
    ev.append(
        Event(
            msg(
                "%(who)s ships %(n)s barrels (%(kinds)s) on the small wharf for %(vp)s VP.",
                vp=vp,
                **said,
            ),
            seat,
            private_to=seat,
            public_text=msg("%(who)s ships %(n)s barrels (%(kinds)s) on the small wharf.", **said),
        )
    )
    s.idle = 0

"""Builder: each player, from the builder on, may build one building.

Privilege: one doubloon less.  Each occupied quarry lowers the cost by one,
at most as many as the building's column; the cost never drops below 0.
No player builds the same building twice; a large building needs two free
city spaces.  University: a colonist on the new building, if the owner wants it.

Expansion: forests lower the cost too (Forest house), the Black market pays
a shortfall with goods, colonists and chips (``black_market``), the Church
pays points for the building bought, the Library doubles the privilege.
"""

from __future__ import annotations

from engine.interface import Event
from engine.puerto_rico import black_market, guests
from engine.puerto_rico.data import BUILDING_ORDER, CARDS, CITY_SPACES, ISLAND_SPACES, QUARRY
from engine.puerto_rico.phases import roles
from engine.puerto_rico.phases.common import (
    PASS,
    order_from,
    privilege,
    run_order,
    say,
    seat_ref,
    take_colonist,
    trigger_end,
    with_optional_colonist,
)
from engine.puerto_rico.state import Player, State, with_building
from engine.turns import NO_EVENTS
from engine.words import listing, msg, term

# The action for each building, made once: options() runs for every seat in
# every builder phase.  Actions are shared and must not be changed by callers.
BUILD_ACTIONS = {name: {"type": "build", "building": name} for name in CARDS}


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "builder"
    s.order, s.step = order_from(s, s.role_player), 0
    run_order(s, ev, options, _finish)


def forest_discount(p: Player) -> int:
    """003_… lines 333-334: "Each 2 forests reduces building costs by one
    doubloon"; no quarry-column limit (published expansion sheet)."""
    return len(p.forests) // 2 if p.forests and p.active("forest") else 0


def cost(s: State, seat: int, name: str) -> int:
    b = CARDS[name]
    p = s.players[seat]
    discount = min(p.worked[QUARRY], b.column) + privilege(s, seat) + forest_discount(p)
    return max(0, b.cost - discount)


# Per building: its action, the city spaces it takes, and its cost less the
# quarries' discount for 0, 1, 2 … occupied quarries (``cost()`` without the
# privilege and forests), looked up instead of worked out in options().
OFFERS = {
    name: (
        BUILD_ACTIONS[name],
        b.size,
        tuple(b.cost - min(q, b.column) for q in range(ISLAND_SPACES + 1)),
    )
    for name, b in CARDS.items()
}
# Per building and quarry count: the least of those costs from this building
# on, in table order (the order of ``buildings_left``): once it is out of
# reach, so is every building after it.
CHEAPEST_FROM = {
    name: tuple(
        min(OFFERS[later][2][q] for later in BUILDING_ORDER[i:]) for q in range(ISLAND_SPACES + 1)
    )
    for i, name in enumerate(BUILDING_ORDER)
}


def options(s: State, seat: int) -> list[dict]:
    if _pending(s):
        return black_market.options(s.players[seat], s.x["pending"]["used"])
    p = s.players[seat]
    free = CITY_SPACES - p.city_spaces()
    quarries, owned = p.worked[QUARRY], p.buildings
    reach = p.doubloons + privilege(s, seat)  # what the sum of cost() allows, inlined
    if s.x is not None:
        reach += forest_discount(p) + black_market.capacity(p)
    opts = []
    for name, left in s.buildings_left.items():
        if CHEAPEST_FROM[name][quarries] > reach:
            break
        if left and name not in owned:
            action, size, costs = OFFERS[name]
            if costs[quarries] <= reach and size <= free:
                opts.append(action)
    if opts:
        opts.append(PASS)
    opts = with_optional_colonist(s, opts, p.active("builder_colonist"))
    return guests.with_moves(s, seat, opts)


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    kind = action["type"]
    if guests.in_follow_up(s):
        if guests.act_follow_up(s, seat, action, ev):
            return
    elif kind == "guest":
        guests.move(s, seat, action, ev)
        s._legal = options(s, seat)
        return
    elif kind == "black_market":
        if _black_market(s, seat, action, ev):
            return
    elif kind == "build":
        if _build(s, seat, action, ev):
            return
    elif ev is not NO_EVENTS:
        say(ev, seat, msg("%(who)s builds nothing.", who=seat_ref(seat)))
    s.step += 1
    run_order(s, ev, options, _finish)


def _pending(s: State) -> bool:
    return s.x is not None and (s.x["pending"] or {}).get("kind") == "black_market"


def _build(
    s: State, seat: int, action: dict, ev: list[Event], paid: int = 0, items: str = ""
) -> bool:
    """Build; True when a follow-up decision of this seat comes first (a
    black-market payment, or guests to move onto the new building)."""
    name = action["building"]
    price = cost(s, seat, name) - paid
    if price > s.players[seat].doubloons:
        s.x = dict(s.x, pending={"kind": "black_market", "build": action, "used": [], "paid": []})
        s._legal = options(s, seat)
        return True
    p = s.edit(seat)
    p.doubloons -= price
    s.bank += price
    left = s.buildings_left  # replaced, not changed: see State.clone
    s.buildings_left = {**left, name: left[name] - 1}
    church = _church_points(s, seat, CARDS[name], ev)
    p.buildings = with_building(p.buildings, name)
    university = action.get("colonist", True) and p.active("builder_colonist") and take_colonist(s)
    if university:
        p.buildings[name] = 1
    if ev is not NO_EVENTS:
        _say_built(ev, seat, name, price, items, university, church)
    if p.city_spaces() >= CITY_SPACES:
        who = seat_ref(seat)
        trigger_end(
            s,
            "city",
            ev,
            msg("%(who)s has filled the 12th city space: this is the last round.", who=who),
        )
    return guests.follow_up(s, seat)


def _say_built(
    ev: list[Event], seat: int, name: str, price: int, items: str, university: bool, church: int
) -> None:
    notes = [msg(", with %(items)s on the black market", items=items)] if items else []
    if university:
        notes.append(msg(" and puts a colonist on it from the university"))
    who = seat_ref(seat)
    say(
        ev,
        seat,
        msg(
            "%(who)s builds the %(building)s for %(price)s%(notes)s.",
            who=who,
            building=term(CARDS[name].title),
            price=price,
            notes=listing(notes, ""),
        ),
    )
    if church:
        say(ev, seat, msg("%(who)s takes %(vp)s VP with the Church.", who=who, vp=church))


def _black_market(s: State, seat: int, action: dict, ev: list[Event]) -> bool:
    pending = s.x["pending"]
    if action["pay"] == "cancel":
        for item in pending["paid"]:
            black_market.pay(s, seat, item, back=-1)
        s.x = dict(s.x, pending=None)
        say(
            ev,
            seat,
            msg("%(who)s does not build on the black market after all.", who=seat_ref(seat)),
        )
        s._legal = options(s, seat)
        return bool(s._legal)  # nothing else to build: the turn ends
    item = black_market.pay(s, seat, action)
    used = pending["used"] + [action["pay"]]
    items = ", ".join(filter(None, [pending.get("items", ""), item]))
    s.x = dict(s.x, pending=dict(pending, used=used, items=items, paid=pending["paid"] + [action]))
    build = pending["build"]
    if cost(s, seat, build["building"]) - len(used) > s.players[seat].doubloons:
        s._legal = options(s, seat)  # still short: the next item
        return True
    s.x = dict(s.x, pending=None)
    return _build(s, seat, build, ev, paid=len(used), items=items)


def _church_points(s: State, seat: int, b, ev: list[Event]) -> int:
    """003_… lines 350-352: "One victory point when buying a 2VP or 3VP
    building. 2 VPs when buying a Large purple building."  Chips come from
    the supply; when they run out, that ends the game as in shipping."""
    if s.x is None or not s.players[seat].active("church"):
        return 0
    vp = 2 if b.large else (1 if b.vp in (2, 3) else 0)
    if vp:
        s.edit(seat).vp += vp
        s.vp_supply -= vp
        if s.vp_supply <= 0:
            trigger_end(
                s, "vp chips", ev, msg("The victory-point chips are gone: this is the last round.")
            )
    return vp


def _finish(s: State, ev: list[Event]) -> None:
    roles.end_role(s, ev)

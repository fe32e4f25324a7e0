"""End of the captain phase: storing goods, then unloading full ships.

Every player keeps one barrel; each occupied warehouse keeps all barrels of
one more kind (small: 1 kind, large: 2).  The rest goes back to the supply.
A player who can keep everything is not asked.

Expansion: an occupied Storehouse keeps three more barrels of any kinds
(003_… lines 338-339: "May store up to 3 goods after shipping"; the published
sheet: "in addition to the one un-shipped good he is normally allowed to
keep").  Its owner's action lists the barrels kept besides the warehouses:
``{"type": "store", "warehouse": [...], "barrels": ["corn", "corn", ...]}``.
"""

from __future__ import annotations

from itertools import combinations

from engine.interface import Event
from engine.puerto_rico.data import GOODS, PRICE
from engine.puerto_rico.phases import roles
from engine.puerto_rico.phases.common import (
    order_from,
    run_order,
    say,
    seat_ref,
    trigger_end,
)
from engine.puerto_rico.state import Player, State
from engine.turns import NO_EVENTS
from engine.words import listing, msg, term

EMPTY = -1


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "storage"
    s.order, s.step = order_from(s, s.role_player), 0
    run_order(s, ev, options, _finish)


def warehouse_kinds(p: Player) -> int:
    return p.active("store_kind_1") + 2 * p.active("store_kind_2")


def loose_barrels(s: State, p: Player) -> int:
    """Barrels kept besides the warehouse kinds: 1, or 4 with a Storehouse."""
    return 4 if s.x is not None and p.active("store_barrels_3") else 1


def options(s: State, seat: int) -> list[dict]:
    p = s.players[seat]
    kinds = [k for k in range(5) if p.goods[k]]
    if not kinds:
        return []  # asked of every seat: most hold nothing
    w = warehouse_kinds(p)
    if loose_barrels(s, p) > 1:
        return _storehouse_options(p, kinds, w, loose_barrels(s, p))
    if len(kinds) <= w or (len(kinds) == w + 1 and any(p.goods[k] == 1 for k in kinds)):
        return []  # everything fits: nothing to decide
    opts = []
    for stored in combinations(kinds, w):
        for single in kinds:
            if single not in stored:
                opts.append(
                    {
                        "type": "store",
                        "warehouse": [GOODS[k] for k in stored],
                        "single": GOODS[single],
                    }
                )
    return opts


def best_option(s: State, seat: int) -> dict:
    """The default: keep the most barrels, then the most valuable ones."""
    goods = s.players[seat].goods

    def kept(opt: dict) -> tuple[int, int]:
        ks = [GOODS.index(g) for g in opt["warehouse"]]
        loose = [GOODS.index(g) for g in opt.get("barrels", [opt.get("single")])]
        return (
            sum(goods[k] for k in ks) + len(loose),
            sum(goods[k] * PRICE[k] for k in ks) + sum(PRICE[k] for k in loose),
        )

    return max(options(s, seat), key=kept)


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    p = s.edit(seat)
    stored = {GOODS.index(g) for g in action["warehouse"]}
    loose = [GOODS.index(g) for g in action.get("barrels", [action.get("single")])]
    lost = []
    for k in range(5):
        keep = p.goods[k] if k in stored else loose.count(k)
        if p.goods[k] > keep:
            lost.append((k, p.goods[k] - keep))
            s.goods_supply[k] += p.goods[k] - keep
            p.goods[k] = keep
    if ev is not NO_EVENTS:
        returned = listing([msg("%(n)s %(good)s", n=n, good=term(GOODS[k])) for k, n in lost])
        say(
            ev,
            seat,
            msg("%(who)s keeps goods and returns %(goods)s.", who=seat_ref(seat), goods=returned),
        )
    s.step += 1
    run_order(s, ev, options, _finish)


def _storehouse_options(p: Player, kinds: list[int], w: int, loose: int) -> list[dict]:
    """Every warehouse choice with every way to keep as many loose barrels as
    allowed; nothing to ask when all fits."""
    if sum(sorted((p.goods[k] for k in kinds), reverse=True)[w:]) <= loose:
        return []
    opts = []
    for stored in combinations(kinds, min(w, len(kinds))):
        rest = [(k, p.goods[k]) for k in kinds if k not in stored]
        take = min(loose, sum(n for _, n in rest))
        for barrels in _multisets(rest, take):
            opts.append(
                {
                    "type": "store",
                    "warehouse": [GOODS[k] for k in stored],
                    "barrels": [GOODS[k] for k in barrels],
                }
            )
    return opts


def _multisets(rest: list[tuple[int, int]], size: int) -> list[list[int]]:
    """Ways to pick ``size`` barrels from (kind, count) pairs, kinds in order."""
    if size == 0:
        return [[]]
    if not rest:
        return []
    (k, n), tail = rest[0], rest[1:]
    return [
        [k] * i + more for i in range(min(n, size), -1, -1) for more in _multisets(tail, size - i)
    ]


def _finish(s: State, ev: list[Event]) -> None:
    ships = []  # new lists (see State.clone): full ships come back empty
    for cap, kind, count in s.ships:
        if count == cap:
            s.goods_supply[kind] += count
            kind, count = EMPTY, 0
        ships.append([cap, kind, count])
    s.ships = ships
    s.wharf_used = []
    if s.vp_supply <= 0:
        trigger_end(
            s, "vp chips", ev, msg("The victory-point chips are gone: this is the last round.")
        )
    roles.end_role(s, ev)

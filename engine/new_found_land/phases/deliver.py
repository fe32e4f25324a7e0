"""Deliver: one ship or more per contract, never one ship for two contracts;
the crate values cap the goods.  Points at once (France's toll house +3), a
marker in that contract's city if a field is free (a full city still takes
contracts), then the contracts are refilled to 9.  Gold may stand in for any
of a contract's goods: when the goods can be paid in more than one way, the
player chooses how in a second decision ("pay", as in the land phase).

Antwerp: the ships that fulfil no contract may carry goods to Antwerp
instead, 1 point per good and one crate per good.  A player may fulfil
contracts with some ships and go to Antwerp with others, in any order
(README.md): the first good for Antwerp sends a ship there (the player
chooses which when it matters), and its crates take goods to Antwerp until
they are used up; then another ship may follow.  A ship sent to Antwerp
fulfils no contract.  Da Gama: +3 crates on his ship."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engine.interface import Event
from engine.new_found_land import board
from engine.new_found_land.common import (
    DONE,
    affordable,
    bundle_text,
    draw,
    pay_options,
    payment,
    payments,
    say,
    seat_ref,
    spend,
)
from engine.new_found_land.components import ANTWERP
from engine.new_found_land.data import (
    CONTRACT_FIELDS,
    CONTRACTS,
    DA_GAMA_CRATES,
    GOODS,
    SHIPS,
)
from engine.new_found_land.phases.planning import ships_at
from engine.new_found_land.state import State
from engine.new_found_land.track import add_points
from engine.words import msg, nmsg, term

TOLL_HOUSE_POINTS = 3


def begin(s: State, seat: int, ev: list[Event]) -> bool:
    ships = [
        [sid, SHIPS[sid].crate + (DA_GAMA_CRATES if c == "da_gama" else 0)]
        for sid, c in ships_at(s, seat)
    ]
    # ships: not yet used, [id, crates]; antwerp: crates left on ships sent there
    # pending: a deliver action waiting for the player to choose how to pay
    s.work = {"ships": ships, "antwerp": 0, "pending": None}
    return True


def ship_groups(ships: list[list], need: int) -> list[list[str]]:
    """Smallest groups of ships carrying ``need`` goods: no ship could be left
    out; one group per distinct set of crate values."""
    out, seen = [], set()
    for k in range(1, len(ships) + 1):
        for group in combinations(ships, k):
            crates = [c for _, c in group]
            if sum(crates) < need or any(sum(crates) - c >= need for c in crates):
                continue
            key = tuple(sorted(crates))
            if key not in seen:
                seen.add(key)
                out.append(sorted(sid for sid, _ in group))
    return out


def options(s: State, seat: int) -> list[dict]:
    goods = s.players[seat]["goods"]
    w = s.work
    if w.get("pending"):
        return pay_options(goods, CONTRACTS[s.contracts[w["pending"]["field"]]]["goods"])
    opts: list[Any] = []
    for i, cid in enumerate(s.contracts):
        if cid is None or not affordable(goods, CONTRACTS[cid]["goods"]):
            continue
        need = sum(CONTRACTS[cid]["goods"].values())
        opts.extend(
            {"type": "deliver", "field": i, "ships": g} for g in ship_groups(w["ships"], need)
        )
    have = [g for g in GOODS if goods[g]]
    if w["antwerp"]:
        opts.extend({"type": "antwerp", "good": g} for g in have)
    else:
        senders = antwerp_ships(w["ships"])
        for g in have:
            if len(senders) == 1:
                opts.append({"type": "antwerp", "good": g})
            else:
                opts.extend({"type": "antwerp", "good": g, "ship": sid} for sid in senders)
    opts.append(DONE)
    return opts


def antwerp_ships(ships: list[list]) -> list[str]:
    """Ships that could go to Antwerp: one per crate value (ships with the
    same crates are alike for the rest of the action)."""
    out, seen = [], set()
    for sid, crates in ships:
        if crates and crates not in seen:
            seen.add(crates)
            out.append(sid)
    return out


def act(s: State, seat: int, a: dict, ev: list[Event]) -> bool:
    if a["type"] == "pay":
        pending, s.work["pending"] = s.work["pending"], None
        _contract(s, seat, pending, a["gold_for"], ev)
    elif a["type"] == "deliver":
        cost = CONTRACTS[s.contracts[a["field"]]]["goods"]
        if len(payments(s.players[seat]["goods"], cost)) > 1:
            s.work["pending"] = a  # how to pay: the next decision
        else:
            _contract(s, seat, a, [], ev)
    elif a["type"] == "antwerp":
        _antwerp(s, seat, a, ev)
    else:
        refill(s)
        return True
    return False


def _contract(s: State, seat: int, a: dict, gold_for: list[str], ev: list[Event]) -> None:
    p = s.players[seat]
    cid, city = s.contracts[a["field"]], CONTRACT_FIELDS[a["field"]]
    k = CONTRACTS[cid]
    pay: Any = payment(p["goods"], k["goods"], gold_for)  # legal: payable
    spend(s, seat, pay)
    s.contracts[a["field"]] = None
    s.discard["contracts"].append(cid)
    s.work["ships"] = [sh for sh in s.work["ships"] if sh[0] not in a["ships"]]
    say(
        ev,
        seat,
        nmsg(
            "%(who)s delivers %(goods)s to %(city)s with ship %(ships)s.",
            "%(who)s delivers %(goods)s to %(city)s with ships %(ships)s.",
            len(a["ships"]),
            who=seat_ref(seat),
            goods=bundle_text(pay),
            city=city,
            ships=", ".join(a["ships"]),
        ),
    )
    points = k["points"] + (TOLL_HOUSE_POINTS if "toll_house" in p["exts"] else 0)
    add_points(s, seat, points, ev, msg("a contract in %(city)s", city=city))
    if not board.city_full(s, city):
        s.cities[city].append(seat)
        p["markers"] -= 1
        say(ev, seat, msg("%(who)s puts a marker in %(city)s.", who=seat_ref(seat), city=city))


def antwerp_sender(s: State, a: dict) -> str | None:
    """The ship a (legal) Antwerp action sends there, None if one already has room."""
    w = s.work
    if w["antwerp"]:
        return None
    return a.get("ship") or antwerp_ships(w["ships"])[0]


def _antwerp(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    w = s.work
    sid = antwerp_sender(s, a)
    if sid is not None:
        ship = next(sh for sh in w["ships"] if sh[0] == sid)
        w["ships"].remove(ship)
        w["antwerp"] = ship[1]
        say(
            ev,
            seat,
            nmsg(
                "%(who)s sends ship %(ship)s to Antwerp (%(n)s crate).",
                "%(who)s sends ship %(ship)s to Antwerp (%(n)s crates).",
                ship[1],
                who=seat_ref(seat),
                ship=sid,
            ),
        )
    w["antwerp"] -= 1
    spend(s, seat, {a["good"]: 1})
    say(
        ev,
        seat,
        msg("%(who)s delivers 1 %(good)s to Antwerp.", who=seat_ref(seat), good=term(a["good"])),
    )
    add_points(s, seat, ANTWERP["points_per_good"], ev, msg("Antwerp"))


def refill(s: State) -> None:
    for i, cid in enumerate(s.contracts):
        if cid is None:
            got = draw(s, "contract_pile", "contracts", 1)
            s.contracts[i] = got[0] if got else None

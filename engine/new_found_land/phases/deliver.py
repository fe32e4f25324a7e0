"""Deliver: one ship or more per contract, never one ship for two contracts;
the crate values cap the goods.  Points at once (France's toll house +3), a
marker in that contract's city if a field is free (a full city still takes
contracts), then the contracts are refilled to 9.  Or Antwerp: 1 point per
good, one crate per good, instead of (further) contracts.  Da Gama: +3
crates on his ship."""
from __future__ import annotations

from itertools import combinations

from engine.interface import Event
from engine.new_found_land import board
from engine.new_found_land.common import (DONE, bundle_text, draw, payment, say, seat_ref,
                                          spend)
from engine.new_found_land.components import ANTWERP
from engine.new_found_land.data import CONTRACT_FIELDS, CONTRACTS, DA_GAMA_CRATES, GOODS, SHIPS
from engine.new_found_land.state import State
from engine.new_found_land.track import add_points

TOLL_HOUSE_POINTS = 3


def begin(s: State, seat: int, ev: list[Event]) -> bool:
    from engine.new_found_land.phases.actions import ships_at
    ships = [[sid, SHIPS[sid].crate + (DA_GAMA_CRATES if c == "da_gama" else 0)]
             for sid, c in ships_at(s, seat)]
    s.work = {"ships": ships, "antwerp": None}
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
    opts = []
    if w["antwerp"] is None:
        for i, cid in enumerate(s.contracts):
            if cid is None or not payment(goods, CONTRACTS[cid]["goods"]):
                continue
            need = sum(CONTRACTS[cid]["goods"].values())
            opts.extend({"type": "deliver", "field": i, "ships": g}
                        for g in ship_groups(w["ships"], need))
        room = sum(c for _, c in w["ships"])
    else:
        room = w["antwerp"]
    if room:
        opts.extend({"type": "antwerp", "good": g} for g in GOODS if goods[g])
    opts.append(DONE)
    return opts


def act(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    from engine.new_found_land.phases.actions import turn_done
    if a["type"] == "deliver":
        _contract(s, seat, a, ev)
    elif a["type"] == "antwerp":
        _antwerp(s, seat, a["good"], ev)
    else:
        refill(s)
        turn_done(s, seat, ev)


def _contract(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    p = s.players[seat]
    cid, city = s.contracts[a["field"]], CONTRACT_FIELDS[a["field"]]
    k = CONTRACTS[cid]
    pay = payment(p["goods"], k["goods"])
    spend(s, seat, pay)
    s.contracts[a["field"]] = None
    s.discard["contracts"].append(cid)
    s.work["ships"] = [sh for sh in s.work["ships"] if sh[0] not in a["ships"]]
    say(ev, seat, f"{seat_ref(seat)} delivers {bundle_text(pay)} to {city} "
                  f"with ship{'s' * (len(a['ships']) > 1)} {', '.join(a['ships'])}.")
    points = k["points"] + (TOLL_HOUSE_POINTS if "toll_house" in p["exts"] else 0)
    add_points(s, seat, points, ev, f"a contract in {city}")
    if not board.city_full(s, city):
        s.cities[city].append(seat)
        p["markers"] -= 1
        say(ev, seat, f"{seat_ref(seat)} puts a marker in {city}.")


def _antwerp(s: State, seat: int, good: str, ev: list[Event]) -> None:
    w = s.work
    if w["antwerp"] is None:
        w["antwerp"] = sum(c for _, c in w["ships"])
        w["ships"] = []
    w["antwerp"] -= 1
    spend(s, seat, {good: 1})
    say(ev, seat, f"{seat_ref(seat)} delivers 1 {good} to Antwerp.")
    add_points(s, seat, ANTWERP["points_per_good"], ev, "Antwerp")


def refill(s: State) -> None:
    for i, cid in enumerate(s.contracts):
        if cid is None:
            got = draw(s, "contract_pile", "contracts", 1)
            s.contracts[i] = got[0] if got else None

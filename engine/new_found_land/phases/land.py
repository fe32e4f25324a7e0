"""Land phase, in turn order: income, harbour extensions, building ships.

Income 1 wood + 1 cloth (Cortés: +1 gold).  The extra shipyard costs 1 cloth
+ 1 iron, the nation's own extension its printed cost; both in any order,
both in one phase allowed.  A small ship costs 1 wood + 1 cloth, a large one
its printed cost and gives 3 points.  Never more than one ship per shipyard:
a player with no free shipyard discards one of his ships to build.  Gold may
replace wood, cloth or iron, as often as the player has gold: when a cost
can be paid in more than one way, the player chooses how in a second
decision ("pay", whose ``gold_for`` lists the goods he holds but pays with
gold instead).  The offer is refilled after the player's land
phase, reshuffling the discard when a pile runs out.
"""

from __future__ import annotations

from typing import Any

from engine.interface import Event
from engine.new_found_land.common import (
    DONE,
    affordable,
    bundle_text,
    draw,
    gain_goods,
    pay_options,
    payment,
    payments,
    say,
    seat_ref,
    spend,
    turn_order,
)
from engine.new_found_land.components import (
    BASE_SHIPYARDS,
    EXTRA_SHIPYARD,
    INCOME,
    LARGE_SHIP_POINTS,
)
from engine.new_found_land.data import NATIONS, SHIPS
from engine.new_found_land.phases.flow import end_turn, phase_over, run_order
from engine.new_found_land.state import State
from engine.new_found_land.track import add_points
from engine.words import N_, Words, msg, term


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "land"
    s.order, s.step = turn_order(s), 0
    say(
        ev,
        s.start,
        msg("Round %(round)s: %(who)s is start player.", round=s.round, who=seat_ref(s.start)),
    )
    run_order(s, ev, begin, finish)


def resume(s: State, ev: list[Event]) -> None:
    run_order(s, ev, begin, finish)


def begin(s: State, seat: int, ev: list[Event]) -> bool:
    income = dict(INCOME["goods"])
    if "cortes" in s.players[seat]["captains"]:
        income["gold"] = 1
    gain_goods(s, seat, income)
    say(
        ev,
        seat,
        msg("%(who)s takes income: %(goods)s.", who=seat_ref(seat), goods=bundle_text(income)),
    )
    return True


def finish(s: State, ev: list[Event]) -> None:
    phase_over(s, ev, "land")


def shipyards(p: dict) -> int:
    """3 to start, +1 extra shipyard, +1 Portugal's own shipyard, +1 Drake."""
    return (
        BASE_SHIPYARDS["value"]
        + ("shipyard" in p["exts"])
        + ("portuguese_shipyard" in p["exts"])
        + ("drake" in p["captains"])
    )


def extension_cost(p: dict, ext: str) -> dict:
    return (
        EXTRA_SHIPYARD["cost"] if ext == "shipyard" else NATIONS[p["nation"]]["extension"]["cost"]
    )


def ship_cost(ship_id: str) -> dict:
    return SHIPS[ship_id].cost


def options(s: State, seat: int) -> list[dict]:
    p = s.players[seat]
    if s.work and s.work.get("pending"):
        return pay_options(p["goods"], action_cost(s, seat, s.work["pending"]))
    opts = []
    for ext in ("shipyard", NATIONS[p["nation"]]["extension"]["id"]):
        if ext not in p["exts"] and affordable(p["goods"], extension_cost(p, ext)):
            opts.append({"type": "extend", "ext": ext})
    full = len(p["ships"]) >= shipyards(p)
    for row, offer in (("small", s.small_offer), ("large", s.large_offer)):
        for i, ship_id in enumerate(offer):
            if ship_id is None or not affordable(p["goods"], ship_cost(ship_id)):
                continue
            if not full:
                opts.append({"type": "build", "row": row, "slot": i})
            else:
                opts.extend(
                    {"type": "build", "row": row, "slot": i, "discard": old} for old in p["ships"]
                )
    opts.append(DONE)
    return opts


def action_cost(s: State, seat: int, a: dict) -> dict:
    """The cost of an extend or build action."""
    if a["type"] == "extend":
        return extension_cost(s.players[seat], a["ext"])
    return ship_cost((s.small_offer if a["row"] == "small" else s.large_offer)[a["slot"]])


def choose_payment(s: State, seat: int, a: dict) -> bool:
    """True when ``a`` can be paid in several ways: it waits for a "pay"."""
    if len(payments(s.players[seat]["goods"], action_cost(s, seat, a))) < 2:
        return False
    s.work = {"pending": a}
    return True


def act(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    gold_for: list[str] = []
    if a["type"] == "pay":
        a, gold_for = s.work["pending"], a["gold_for"]
        s.work = None
    elif a["type"] in ("extend", "build") and choose_payment(s, seat, a):
        return
    p = s.players[seat]
    if a["type"] == "extend":
        pay: Any = payment(p["goods"], extension_cost(p, a["ext"]), gold_for)  # payable
        spend(s, seat, pay)
        p["exts"].append(a["ext"])
        p["markers"] -= 1  # a marker shows it is built
        say(
            ev,
            seat,
            msg(
                "%(who)s builds the %(extension)s for %(goods)s.",
                who=seat_ref(seat),
                extension=ext_title(p, a["ext"]),
                goods=bundle_text(pay),
            ),
        )
    elif a["type"] == "build":
        _build(s, seat, a, gold_for, ev)
    else:
        _refill(s)
        end_turn(s, ev, begin, finish)


def ext_title(p: dict, ext: str) -> Words:
    return term(
        N_("extra shipyard") if ext == "shipyard" else NATIONS[p["nation"]]["extension"]["title"]
    )


def _build(s: State, seat: int, a: dict, gold_for: list[str], ev: list[Event]) -> None:
    p = s.players[seat]
    offer = s.small_offer if a["row"] == "small" else s.large_offer
    ship_id = offer[a["slot"]]
    pay: Any = payment(p["goods"], ship_cost(ship_id), gold_for)  # legal: payable
    spend(s, seat, pay)
    offer[a["slot"]] = None
    if "discard" in a:
        p["ships"].remove(a["discard"])
        s.discard[SHIPS[a["discard"]].kind].append(a["discard"])
        say(
            ev,
            seat,
            msg(
                "%(who)s discards ship %(ship)s to free a shipyard.",
                who=seat_ref(seat),
                ship=a["discard"],
            ),
        )
    p["ships"].append(ship_id)
    template = (
        N_("%(who)s builds small ship %(ship)s for %(goods)s.")
        if a["row"] == "small"
        else N_("%(who)s builds large ship %(ship)s for %(goods)s.")
    )
    say(ev, seat, msg(template, who=seat_ref(seat), ship=ship_id, goods=bundle_text(pay)))
    if a["row"] == "large":
        add_points(s, seat, LARGE_SHIP_POINTS["value"], ev, msg("a large ship"))


def _refill(s: State) -> None:
    for offer, pile, kind in (
        (s.small_offer, "small_pile", "small"),
        (s.large_offer, "large_pile", "large"),
    ):
        for i, ship_id in enumerate(offer):
            if ship_id is None:
                got = draw(s, pile, kind, 1)
                offer[i] = got[0] if got else None

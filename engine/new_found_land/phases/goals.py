"""Goal cards, in turn order from the start player, once each; then the start
player passes left and the next round (or the final scoring) begins.

A goal pays if its upper or its lower condition holds (the upper pays more).
Each extra card in one round costs 2 goods of the player's choice, paid
before the card is turned, so the condition must still hold after paying.
Gold is not a wild good for goods goals; charter ships, captains and
extensions don't count for ship goals.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from engine.interface import Event
from engine.new_found_land import board, scoring
from engine.new_found_land.common import DONE, say, seat_ref, spend, turn_order
from engine.new_found_land.components import GOAL_EXTRA_COST
from engine.new_found_land.data import CITIES, GOALS, GOODS, ISLANDS, ROUNDS, SHIPS
from engine.new_found_land.phases.flow import end_turn, phase_over, run_order
from engine.new_found_land.state import State
from engine.new_found_land.track import add_points
from engine.words import listing, msg, term


def measure(s: State, seat: int, goal: dict, goods: dict | None = None) -> int:
    p = s.players[seat]
    kind, param = goal["kind"], goal["param"]
    if kind == "goods":
        return (goods or p["goods"])[param]
    if kind == "symbol":
        return sum(getattr(SHIPS[sid], param) for sid in p["ships"])
    if kind == "ships":
        return sum(SHIPS[sid].kind == param for sid in p["ships"])
    if kind in ("city_markers", "full_cities"):
        mine = {c: board.city_markers(s, c).get(seat, 0) for c in CITIES}
        if kind == "city_markers":
            return sum(mine.values())
        return sum(1 for c, k in mine.items() if k and board.city_full(s, c))
    mine = {i: board.island_markers(s, i).get(seat, 0) for i in ISLANDS}
    if kind == "one_island":
        return max(mine.values())
    if kind == "island_markers":
        return sum(mine.values())
    return sum(1 for i, k in mine.items() if k >= 6 and board.island_full(s, i))  # full_islands


def goal_points(s: State, seat: int, card: str, goods: dict | None = None) -> int:
    """What the goal card pays now (0: neither condition holds)."""
    g = GOALS[card]
    m = measure(s, seat, g, goods)
    if g.get("upper") and m >= g["upper"][0]:
        return g["upper"][1]
    return g["lower"][1] if m >= g["lower"][0] else 0


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "goals"
    s.order, s.step = turn_order(s), 0
    for p in s.players:
        p["goals_played"] = 0
    run_order(s, ev, begin, finish)


def resume(s: State, ev: list[Event]) -> None:
    run_order(s, ev, begin, finish)


def begin(s: State, seat: int, ev: list[Event]) -> bool:
    return bool(options(s, seat))


def _payments(goods: dict) -> list[list[str]]:
    have = [g for g in GOODS if goods[g]]
    return [
        list(pair)
        for pair in combinations_with_replacement(have, GOAL_EXTRA_COST["goods"])
        if all(goods[g] >= pair.count(g) for g in pair)
    ]


def options(s: State, seat: int) -> list[dict]:
    p = s.players[seat]
    opts = []
    for card in p["goals"]:
        if p["goals_played"] == 0:
            if goal_points(s, seat, card):
                opts.append({"type": "goal", "card": card})
            continue
        for pay in _payments(p["goods"]):
            after = dict(p["goods"])
            for g in pay:
                after[g] -= 1
            if goal_points(s, seat, card, after):
                opts.append({"type": "goal", "card": card, "pay": pay})
    if opts:
        opts.append(DONE)
    return opts


def act(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    if a["type"] == "done":
        end_turn(s, ev, begin, finish)
        return
    p = s.players[seat]
    if "pay" in a:
        cost: dict = {}
        for g in a["pay"]:
            cost[g] = cost.get(g, 0) + 1
        spend(s, seat, cost)
        say(
            ev,
            seat,
            msg(
                "%(who)s pays %(goods)s for an extra goal card.",
                who=seat_ref(seat),
                goods=listing([term(g) for g in a["pay"]], " + "),
            ),
        )
    pts = goal_points(s, seat, a["card"])
    p["goals"].remove(a["card"])
    s.discard["goals"].append(a["card"])
    p["goals_played"] += 1
    say(ev, seat, msg("%(who)s plays goal card %(card)s.", who=seat_ref(seat), card=a["card"]))
    add_points(s, seat, pts, ev, msg("a goal card"))
    if not options(s, seat):
        end_turn(s, ev, begin, finish)


def finish(s: State, ev: list[Event]) -> None:
    s.start = (s.start + 1) % s.n
    if s.round >= ROUNDS:
        scoring.final_scoring(s, ev)
        s.over, s.phase, s.turn = True, "over", None
        say(ev, None, msg("The game is over."))
        return
    s.round += 1
    phase_over(s, ev, "goals")

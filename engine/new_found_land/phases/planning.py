"""Planning phase: per action (Load, Settle, Deliver, Explore), each player in
turn order assigns ships or passes.

Load takes at most one ship, the others up to the nation's printed maximum.
A charter ship from the hand counts like a ship and toward that maximum.
Ships are assigned one at a time, then "done"; any ship may go to any
action (every ship shows all three symbols: components.py).  Magellan (+7 sailing) and
Da Gama (+3 crates, Load or Deliver only) go with one ship each round.
Ships not assigned sit out the round.
"""

from __future__ import annotations

from engine.interface import Event
from engine.new_found_land.common import DONE, say, seat_ref, turn_order
from engine.new_found_land.components import LOAD_MAX_SHIPS
from engine.new_found_land.data import ACTIONS, CARDS, NATIONS
from engine.new_found_land.phases.flow import end_turn, phase_over, run_order
from engine.new_found_land.state import State
from engine.words import N_, msg, term

TITLES = {
    "load": N_("Load"),
    "settle": N_("Settle"),
    "deliver": N_("Deliver"),
    "explore": N_("Explore"),
}


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "plan"
    s.plan = {a: [[] for _ in range(s.n)] for a in ACTIONS}
    _start_action(s, ev, "load")


def _start_action(s: State, ev: list[Event], action: str) -> None:
    s.action = action
    s.order, s.step = turn_order(s), 0
    run_order(s, ev, begin, finish)


def resume(s: State, ev: list[Event]) -> None:
    run_order(s, ev, begin, finish)


def begin(s: State, seat: int, ev: list[Event]) -> bool:
    return bool(options(s, seat))


def finish(s: State, ev: list[Event]) -> None:
    i = ACTIONS.index(s.action)
    if i + 1 < len(ACTIONS):
        _start_action(s, ev, ACTIONS[i + 1])
        return
    phase_over(s, ev, "plan")


def max_ships(s: State, seat: int, action: str) -> int:
    if action == "load":
        return LOAD_MAX_SHIPS["value"]
    return NATIONS[s.players[seat]["nation"]]["max"][action]


def captain_used(s: State, seat: int, captain: str) -> bool:
    return any(c == captain for a in ACTIONS for _, c in s.plan[a][seat])


def planned(s: State, seat: int) -> set[str]:
    return {sid for a in ACTIONS for sid, _ in s.plan[a][seat]}


def ships_at(s: State, seat: int) -> list[list]:
    """[ship id, captain] the seat has at the current action."""
    return s.plan[s.action][seat]


def options(s: State, seat: int) -> list[dict]:
    action = s.action
    if len(s.plan[action][seat]) >= max_ships(s, seat, action):
        return []
    p = s.players[seat]
    used = planned(s, seat)
    charters = [c for c in p["hand"] if CARDS[c]["kind"] == "charter"]
    captains = [
        c
        for c in ("magellan", "da_gama")
        if c in p["captains"]
        and not captain_used(s, seat, c)
        and (c == "magellan" or action in ("load", "deliver"))
    ]
    opts = []
    for sid in p["ships"] + charters:
        if sid in used:
            continue
        opts.append({"type": "assign", "ship": sid})
        opts.extend({"type": "assign", "ship": sid, "captain": c} for c in captains)
    if opts:
        opts.append(DONE)
    return opts


def act(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    if a["type"] == "done":
        end_turn(s, ev, begin, finish)
        return
    p = s.players[seat]
    sid, captain = a["ship"], a.get("captain", "")
    if sid in p["hand"]:
        p["hand"].remove(sid)
    s.plan[s.action][seat].append([sid, captain])
    said = dict(who=seat_ref(seat), ship=sid, action=term(TITLES[s.action]))
    if captain:
        say(
            ev,
            seat,
            msg(
                "%(who)s plans ship %(ship)s with %(captain)s for %(action)s.",
                captain=captain.replace("_", " ").title(),
                **said,
            ),
        )
    else:
        say(ev, seat, msg("%(who)s plans ship %(ship)s for %(action)s.", **said))
    if not options(s, seat):
        end_turn(s, ev, begin, finish)

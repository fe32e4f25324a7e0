"""Action phase: Load, Settle, Deliver, Explore, one after the other.

Per action the player with the highest total sailing value acts first; ties
go in turn order from the start player; a player with no ship there does not
act.  The Netherlands' naval base adds 2 in every action, Magellan 7 on his
ship.  After acting, ships go back to their shipyards and charter ships to
the discard.  Each action's own rules live in its module; its ``act``
returns True when the seat is done with that action.
"""

from __future__ import annotations

from engine.interface import Event
from engine.new_found_land.common import say, seat_ref, turn_order
from engine.new_found_land.data import ACTIONS, MAGELLAN_SAIL, NAVAL_BASE_SAIL, SHIPS
from engine.new_found_land.phases import deliver, explore, load, settle
from engine.new_found_land.phases.flow import end_turn, phase_over, run_order
from engine.new_found_land.phases.planning import TITLES
from engine.new_found_land.state import State
from engine.words import msg, term

SUB = {"load": load, "settle": settle, "deliver": deliver, "explore": explore}


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "act"
    _start_action(s, ev, ACTIONS[0])


def sailing_value(s: State, seat: int, action: str) -> int:
    ships = s.plan[action][seat]
    if not ships:
        return 0
    total = sum(SHIPS[sid].sail + (MAGELLAN_SAIL if c == "magellan" else 0) for sid, c in ships)
    if "naval_base" in s.players[seat]["exts"]:
        total += NAVAL_BASE_SAIL
    return total


def acting_order(s: State, action: str) -> list[int]:
    seats = turn_order(s)
    acting = [i for i in seats if s.plan[action][i]]
    return sorted(acting, key=lambda i: (-sailing_value(s, i, action), seats.index(i)))


def _start_action(s: State, ev: list[Event], action: str) -> None:
    s.action = action
    s.order, s.step = acting_order(s, action), 0
    if s.order:
        values = ", ".join(f"{seat_ref(i)} {sailing_value(s, i, action)}" for i in s.order)
        say(
            ev,
            None,
            msg(
                "%(action)s: sailing values %(values)s.", action=term(TITLES[action]), values=values
            ),
        )
    run_order(s, ev, begin, finish)


def resume(s: State, ev: list[Event]) -> None:
    run_order(s, ev, begin, finish)


def begin(s: State, seat: int, ev: list[Event]) -> bool:
    if SUB[s.action].begin(s, seat, ev):
        return True
    _ships_home(s, seat)
    s.work, s.drawn = None, []
    return False


def finish(s: State, ev: list[Event]) -> None:
    i = ACTIONS.index(s.action)
    if i + 1 < len(ACTIONS):
        _start_action(s, ev, ACTIONS[i + 1])
        return
    phase_over(s, ev, "act")


def options(s: State, seat: int) -> list[dict]:
    return SUB[s.action].options(s, seat)


def act(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    if SUB[s.action].act(s, seat, a, ev):
        turn_done(s, seat, ev)


def turn_done(s: State, seat: int, ev: list[Event]) -> None:
    """The acting seat has finished this action."""
    _ships_home(s, seat)
    end_turn(s, ev, begin, finish)


def _ships_home(s: State, seat: int) -> None:
    for sid, _ in s.plan[s.action][seat]:
        if SHIPS[sid].kind == "charter":
            s.discard["cards"].append(sid)
    s.plan[s.action][seat] = []

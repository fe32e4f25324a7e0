"""Walking the seats of an ordered phase, and the interruptions for frame tiles.

An ordered phase module has ``begin(s, seat, ev) -> bool`` (start that seat's
turn; False: nothing to decide, skip it) and ``finish(s, ev)`` (everybody has
had a turn).  Between two turns, frame tiles reached during the turn are
handled first ("aan het einde van zijn volledige beurt").
"""
from __future__ import annotations

from typing import Callable

from engine.interface import Event
from engine.new_found_land.state import State

Begin = Callable[[State, int, list[Event]], bool]
Finish = Callable[[State, list[Event]], None]


def run_order(s: State, ev: list[Event], begin: Begin, finish: Finish) -> None:
    from engine.new_found_land.phases import frames
    while True:
        if s.claims:
            frames.start(s, ev)
            return
        if s.step >= len(s.order):
            finish(s, ev)
            return
        seat = s.order[s.step]
        if begin(s, seat, ev):
            s.turn = seat
            return
        s.step += 1


def end_turn(s: State, ev: list[Event], begin: Begin, finish: Finish) -> None:
    s.step += 1
    s.work, s.drawn = None, []
    run_order(s, ev, begin, finish)

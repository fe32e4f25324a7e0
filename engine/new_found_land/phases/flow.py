"""How play moves on: from phase to phase, from seat to seat, and aside for
the frame tiles reached.

A round runs land → plan → act → scoring → goals, then the next round's land
(``NEXT``).  A phase that is over calls ``phase_over`` with its own name and
the next one begins; a phase interrupted for frame tiles is picked up again
with ``resume``.  Both find the phase modules by name in ``PHASES``, which
``phases/__init__.py`` fills once it has imported them all: a phase imports
this module, not the phase it hands over to.

An ordered phase module has ``begin(s, seat, ev) -> bool`` (start that seat's
turn; False: nothing to decide, skip it) and ``finish(s, ev)`` (everybody has
had a turn).  Between two turns, frame tiles reached during the turn are
handled first ("aan het einde van zijn volledige beurt").
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from engine.interface import Event
from engine.new_found_land.state import State

Begin = Callable[[State, int, list[Event]], bool]
Finish = Callable[[State, list[Event]], None]

NEXT = {"land": "plan", "plan": "act", "act": "scoring", "scoring": "goals", "goals": "land"}
PHASES: dict[str, ModuleType] = {}  # phase name -> module; phases/__init__.py fills it


def phase_over(s: State, ev: list[Event], phase: str) -> None:
    """``phase`` is over: the next one of the round begins."""
    PHASES[NEXT[phase]].enter(s, ev)


def resume(s: State, ev: list[Event]) -> None:
    """Go on with ``s.phase`` where the frame tiles interrupted it."""
    PHASES[s.phase].resume(s, ev)


def run_order(s: State, ev: list[Event], begin: Begin, finish: Finish) -> None:
    while True:
        if s.claims:
            PHASES["frame"].start(s, ev)
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

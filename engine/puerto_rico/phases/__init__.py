"""One module per role; each has ``enter``, ``options`` and ``act``.

``enter(s, ev)`` starts the phase on a copied state, ``options(s, seat)``
lists what the seat to move may do, ``act(s, seat, action, ev)`` applies one
of those.  When a phase is done it calls ``roles.end_role``.  Choosing a
role (``roles.act``) returns the role whose phase begins, and ``act`` below
enters it: the phases import ``roles``, never this table.
"""

from __future__ import annotations

from engine.interface import Event
from engine.puerto_rico import guests
from engine.puerto_rico.phases import (
    builder,
    captain,
    craftsman,
    mayor,
    roles,
    select,
    settler,
    storage,
    trader,
)
from engine.puerto_rico.state import State

PHASES = {
    "role": roles,
    "settler": settler,
    "mayor": mayor,
    "builder": builder,
    "craftsman": craftsman,
    "trader": trader,
    "captain": captain,
    "storage": storage,
    "select": select,
}


def _choose_role(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    role = roles.act(s, seat, action, ev)
    if role is not None:
        PHASES[role].enter(s, ev)


# The functions by phase name, looked up once per action (a dispatch run
# for every move of every simulated game).
_ACTS = {name: phase.act for name, phase in PHASES.items()} | {"role": _choose_role}
_OPTIONS = {name: phase.options for name, phase in PHASES.items()}


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    """Apply one action of the phase in play; a role just chosen begins here."""
    _ACTS[s.phase](s, seat, action, ev)


def options(s: State, seat: int) -> list[dict]:
    """Every action ``seat`` may take in the phase in play.  The guest
    follow-up is read from the state itself (``x["pending"]``), so a state
    read back from JSON (a snapshot) offers it as the live one did."""
    if s.x is not None and guests.in_follow_up(s):
        return guests.moves(s, seat) + [guests.DONE]
    return _OPTIONS[s.phase](s, seat)


def step(s: State, action: dict, ev: list[Event]) -> None:
    """``OneSeatAtATime.step_in_place`` and its ``play_forced``, the same
    steps in one function of this module: the compiled build
    (scripts/build_fast_engine.py) compiles this module but not turns.py,
    and this is the loop every move of a simulation runs."""
    s._legal = None
    act(s, s.turn, action, ev)
    opts = s._legal
    if opts is not None and len(opts) != 1:
        return  # a real decision is waiting
    while not s.over:
        opts = s._legal
        if opts is None:
            opts = s._legal = options(s, s.turn)
        if len(opts) != 1:
            return
        s._legal = None
        act(s, s.turn, opts[0], ev)

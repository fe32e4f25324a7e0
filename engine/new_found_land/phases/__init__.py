"""One module per phase; each has ``options(s, seat)``, ``act(s, seat, a, ev)``
and ``resume(s, ev)`` (go on after a frame-tile pick).  Ordered phases walk
their seats with ``flow.run_order``; the action phase hands each action to
load / settle / deliver / explore.

No phase imports the one it hands over to: a phase that is over tells
``flow`` (its table ``NEXT`` names the next phase), which finds the modules
in ``PHASES``, filled here."""

from engine.new_found_land.phases import (
    actions,
    endphase,
    flow,
    frames,
    goals,
    land,
    planning,
)

PHASES = flow.PHASES
PHASES.update(
    {
        "land": land,
        "plan": planning,
        "act": actions,
        "frame": frames,
        "scoring": endphase,
        "goals": goals,
    }
)

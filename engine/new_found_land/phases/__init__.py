"""One module per phase; each has ``options(s, seat)``, ``act(s, seat, a, ev)``
and ``resume(s, ev)`` (go on after a frame-tile pick).  Ordered phases walk
their seats with ``flow.run_order``; the action phase hands each action to
load / settle / deliver / explore."""
from engine.new_found_land.phases import (actions, endphase, frames, goals, land,
                                          planning)

PHASES = {"land": land, "plan": planning, "act": actions, "frame": frames,
          "scoring": endphase, "goals": goals}

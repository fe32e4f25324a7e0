"""One module per role; each has ``enter``, ``options`` and ``act``.

``enter(s, ev)`` starts the phase on a copied state, ``options(s, seat)``
lists what the seat to move may do, ``act(s, seat, action, ev)`` applies one
of those.  When a phase is done it calls ``roles.end_role``.
"""
from engine.puerto_rico.phases import (builder, captain, craftsman, mayor, roles, settler,
                                       storage, trader)

PHASES = {"role": roles, "settler": settler, "mayor": mayor, "builder": builder,
          "craftsman": craftsman, "trader": trader, "captain": captain, "storage": storage}

"""Before the first round (/option extended): the players choose the violet
buildings in play, one type per decision, in turn order from the governor.

003_d47d98a651436bc3.txt lines 318-324: "The production buildings are always
used, only the purple buildings are selected by players. Players select
buildings to be used. Buildings selected must "fit" based upon their cost. …
Once, a full set of buildings have been selected, the game begins."
Only fitting types are offered (``building_sets.candidates``); a cost with a
single type left is filled at once, since a one-action decision is played
for the seat.  The set grows in ``State.buildings_left``.
"""

from __future__ import annotations

from engine.interface import Event
from engine.puerto_rico import building_sets
from engine.puerto_rico.data import CARDS, SETUPS
from engine.puerto_rico.phases.common import say, seat_ref
from engine.puerto_rico.state import State
from engine.words import msg, term


def options(s: State, seat: int) -> list[dict]:
    return [
        {"type": "select", "building": name} for name in building_sets.candidates(s.buildings_left)
    ]


def default(s: State, opts: list[dict]) -> dict:
    """A timed-out seat keeps the base game: the first base building offered
    (table order, so the cheapest), else the first one offered."""
    for a in opts:
        if not CARDS[a["building"]].expansion:
            return a
    return opts[0]


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    name = action["building"]
    s.buildings_left = building_sets.with_building(s.buildings_left, SETUPS[s.n], name)
    b = CARDS[name]
    say(
        ev,
        seat,
        msg(
            "%(who)s chooses the %(building)s (cost %(cost)s) for the building set.",
            who=seat_ref(seat),
            building=term(b.title),
            cost=b.cost,
        ),
    )
    s.picks += 1
    if building_sets.is_complete(s.buildings_left):
        s.picks = 0
        s.phase, s.turn = "role", s.governor
        say(ev, None, msg("The building set is complete: the game begins."))
    else:
        s.turn = (s.governor + s.picks) % s.n

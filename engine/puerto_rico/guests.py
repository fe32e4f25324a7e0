"""Guest house: colonists parked in the mayor phase, moved later.

003_d47d98a651436bc3.txt lines 340-343: "During the mayor phase, may place 1
or 2 colonists on the Guesthouse. These colonists may be moved at end time
during the players turn."  The published expansion: at any later time, to an
empty circle of a plantation, quarry or building, where they then stay.

Here: whenever the owner has a decision outside the mayor phase (who re-places
everything anyway), one guest may be moved per action, and the decision stays
open; and right after the owner's own settler or builder action (which ends
that turn) the owner may still move guests onto the new tile or building.
A guest works where it goes; on the Guest house it works nowhere.
"""

from __future__ import annotations

from engine.interface import Event
from engine.puerto_rico.data import CARDS, TILES
from engine.puerto_rico.state import Player, State
from engine.words import msg, term

HOUSE = "guest_house"
DONE = {"type": "guests_done"}


def targets(p: Player) -> list[str]:
    """Places with an empty circle a guest may go to, tiles first."""
    out = [TILES[t] for t in range(6) if p.tiles[t] > p.worked[t]]
    out += [n for n, c in p.buildings.items() if n != HOUSE and c < CARDS[n].circles]
    return out


def moves(s: State, seat: int) -> list[dict]:
    if s.x is None:
        return []
    p = s.players[seat]
    if not p.buildings.get(HOUSE):
        return []
    return [{"type": "guest", "target": t} for t in targets(p)]


def with_moves(s: State, seat: int, opts: list[dict]) -> list[dict]:
    """A decision's options plus the guest moves (only when it is one)."""
    if not opts or s.x is None:
        return opts
    return opts + moves(s, seat)


def move(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    p = s.edit(seat)
    target = action["target"]
    p.buildings[HOUSE] -= 1
    if target in CARDS:
        p.buildings[target] += 1
        where = term(CARDS[target].title)
    else:
        p.worked[TILES.index(target)] += 1
        where = msg("%(kind)s tile", kind=term(target))
    ev.append(
        Event(
            msg(
                "%(who)s moves a colonist from the Guest house to the %(where)s.",
                who="{s%d}" % seat,
                where=where,
            ),
            seat,
        )
    )


def follow_up(s: State, seat: int) -> bool:
    """After a settler or builder action: offer the guest moves before the
    turn ends.  True when there is such a decision (``s._legal`` is set)."""
    opts = moves(s, seat)
    if not opts:
        return False
    s.x = dict(s.x, pending={"kind": "guests"})
    s.turn, s._legal = seat, opts + [DONE]
    return True


def in_follow_up(s: State) -> bool:
    return s.x is not None and (s.x.get("pending") or {}).get("kind") == "guests"


def act_follow_up(s: State, seat: int, action: dict, ev: list[Event]) -> bool:
    """One follow-up action; True while the follow-up goes on."""
    if action["type"] == "guest":
        move(s, seat, action, ev)
        opts = moves(s, seat)
        if opts:
            s._legal = opts + [DONE]
            return True
    s.x = dict(s.x, pending=None)
    return False

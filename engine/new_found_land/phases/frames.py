"""Frame tiles reached during a turn, handled at the end of that turn.

The player looks at the tile's goal pile and keeps one card (the others go
back face down); the pentagon gives a captain instead, the triangle a good
from the goods field.  Then the tile moves back (track.step_back).  Cortés
gives 1 gold at once; Drake's shipyard counts from now on.
"""

from __future__ import annotations

from engine.interface import Event
from engine.new_found_land.common import gain_goods, say, seat_ref, whisper
from engine.new_found_land.data import CAPTAINS, FRAMES
from engine.new_found_land.phases import flow
from engine.new_found_land.state import State
from engine.new_found_land.track import step_back
from engine.words import msg, term


def start(s: State, ev: list[Event]) -> None:
    s.resume = s.phase
    s.phase = "frame"
    _next(s, ev)


def options(s: State, seat: int) -> list[dict]:
    if not s.claims or s.claims[0][0] != seat:
        return []
    gives = FRAMES[s.claims[0][1]]["gives"]
    if gives == "captain":
        return [{"type": "captain", "captain": c} for c in s.captains]
    if gives == "good":
        return [{"type": "field_good", "good": g} for g in dict.fromkeys(s.goods_field)]
    return [{"type": "take_goal", "card": c} for c in s.goal_piles[gives]]


def _next(s: State, ev: list[Event]) -> None:
    while s.claims:
        seat, fid = s.claims[0]
        if options(s, seat):
            s.turn = seat
            return
        say(
            ev,
            seat,
            msg(
                "%(who)s reaches the %(frame)s frame tile; nothing is left to take.",
                who=seat_ref(seat),
                frame=term(fid),
            ),
        )
        _done(s, ev)
    s.phase, s.resume = s.resume, ""
    flow.resume(s, ev)


def _done(s: State, ev: list[Event]) -> None:
    _, fid = s.claims.pop(0)
    step_back(s, fid, ev)


def act(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    p = s.players[seat]
    fid = s.claims[0][1]
    t = a["type"]
    if t == "captain":
        s.captains.remove(a["captain"])
        p["captains"].append(a["captain"])
        say(
            ev,
            seat,
            msg(
                "%(who)s reaches the %(frame)s frame tile and takes %(captain)s.",
                who=seat_ref(seat),
                frame=term(fid),
                captain=CAPTAINS[a["captain"]],
            ),
        )
        if a["captain"] == "cortes":
            gain_goods(s, seat, {"gold": 1})
    elif t == "field_good":
        s.goods_field.remove(a["good"])
        p["goods"][a["good"]] += 1
        say(
            ev,
            seat,
            msg(
                "%(who)s reaches the %(frame)s frame tile and takes 1 %(good)s from "
                "the goods field.",
                who=seat_ref(seat),
                frame=term(fid),
                good=term(a["good"]),
            ),
        )
    else:
        s.goal_piles[FRAMES[fid]["gives"]].remove(a["card"])
        p["goals"].append(a["card"])
        said = dict(who=seat_ref(seat), frame=term(fid))
        whisper(
            ev,
            seat,
            msg(
                "%(who)s reaches the %(frame)s frame tile and keeps goal card %(card)s.",
                card=a["card"],
                **said,
            ),
            msg("%(who)s reaches the %(frame)s frame tile and keeps a goal card.", **said),
        )
    _done(s, ev)
    _next(s, ev)

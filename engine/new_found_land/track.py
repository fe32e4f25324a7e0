"""The score track: points, the 50/100 cards and reaching frame tiles.

Reaching or passing a frame tile is noted at once (``s.claims``); the pick
and the tile's step back happen at the end of the player's whole turn
(phases/frames.py).  The track is modelled as the plain score: a ship past
50 never blocks a frame tile (the board's track wraps at 50; the engine does
not model the wrap, which only matters for a tile stepping back below a
ship that has gone round).
"""

from __future__ import annotations

from engine.interface import Event
from engine.new_found_land.common import say, seat_ref
from engine.new_found_land.components import FIFTY_CARDS, FRAME_STEP_BACK
from engine.new_found_land.data import FRAMES
from engine.new_found_land.state import State
from engine.words import Words, msg, term

FRAME_ORDER = tuple(FRAMES)


def add_points(s: State, seat: int, pts: int, ev: list[Event], why: Words | str) -> None:
    if pts <= 0:
        return
    p = s.players[seat]
    old = p["score"]
    new = p["score"] = old + pts
    say(
        ev,
        seat,
        msg(
            "%(who)s scores %(n)s for %(why)s (%(total)s).",
            who=seat_ref(seat),
            n=pts,
            why=why,
            total=new,
        ),
    )
    if old < 50 <= new and p["fifty"] is None and s.fifty:
        card = p["fifty"] = s.fifty.pop(0)
        say(
            ev,
            seat,
            msg(
                "%(who)s passes 50 and takes a 50/100 card (+%(n)s at the end).",
                who=seat_ref(seat),
                n=FIFTY_CARDS[card]["fifty"],
            ),
        )
    if old < 100 <= new and p["fifty"] is not None and not p["hundred"]:
        p["hundred"] = True
        say(ev, seat, msg("%(who)s passes 100 and turns the 50/100 card.", who=seat_ref(seat)))
    for fid in FRAME_ORDER:
        pos, reached = s.frames[fid]
        if pos is not None and seat not in reached and old < pos <= new:
            reached.append(seat)
            s.claims.append([seat, fid])


def fifty_bonus(p: dict) -> int:
    if p["fifty"] is None:
        return 0
    card = FIFTY_CARDS[p["fifty"]]
    return card["hundred"] if p["hundred"] else card["fifty"]


def step_back(s: State, fid: str, ev: list[Event]) -> None:
    """Back 3 spaces, never onto or past another frame tile or a ship; off the
    track once every player has reached it."""
    pos, reached = s.frames[fid]
    if len(reached) >= s.n:
        s.frames[fid][0] = None
        say(
            ev,
            None,
            msg(
                "Every player has reached the %(frame)s frame tile: it leaves the track.",
                frame=term(fid),
            ),
        )
        return
    blocked = {f[0] for k, f in s.frames.items() if k != fid and f[0] is not None}
    blocked |= {p["score"] for p in s.players}
    start = pos
    for _ in range(FRAME_STEP_BACK["value"]):
        if pos - 1 < 1 or pos - 1 in blocked:
            break
        pos -= 1
    s.frames[fid][0] = pos
    if pos != start:
        say(
            ev,
            None,
            msg(
                "The %(frame)s frame tile moves back from %(start)s to %(end)s.",
                frame=term(fid),
                start=start,
                end=pos,
            ),
        )

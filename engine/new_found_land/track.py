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

FRAME_ORDER = tuple(FRAMES)


def add_points(s: State, seat: int, pts: int, ev: list[Event], why: str) -> None:
    if pts <= 0:
        return
    p = s.players[seat]
    old = p["score"]
    new = p["score"] = old + pts
    say(ev, seat, f"{seat_ref(seat)} scores {pts} for {why} ({new}).")
    if old < 50 <= new and p["fifty"] is None and s.fifty:
        p["fifty"] = s.fifty.pop(0)
        say(ev, seat, f"{seat_ref(seat)} passes 50 and takes a 50/100 card "
                      f"(+{FIFTY_CARDS[p['fifty']]['fifty']} at the end).")
    if old < 100 <= new and p["fifty"] is not None and not p["hundred"]:
        p["hundred"] = True
        say(ev, seat, f"{seat_ref(seat)} passes 100 and turns the 50/100 card.")
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
        say(ev, None, f"Every player has reached the {fid} frame tile: it leaves the track.")
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
        say(ev, None, f"The {fid} frame tile moves back from {start} to {pos}.")

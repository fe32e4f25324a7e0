"""End phase of a round: cartography, then island and city scoring.

Cartography: the start player turns a compass tile and places island tiles
on that island (2 players: 3, 3 players: 2, 4 players: 1 — components.py),
non-fitting ones to the discard, none once the island is full; in a
2-player game a neutral marker goes on each tile placed.  Then each newly
complete island, then city, is scored (larger bonus first); the points go to
each player from the start player on, and frame tiles reached are handled
after each player's points.  Goal cards follow (goals.py).
"""

from __future__ import annotations

from engine.interface import Event
from engine.new_found_land import board, scoring
from engine.new_found_land.common import say, turn_order
from engine.new_found_land.components import CARTOGRAPHY_TILES
from engine.new_found_land.data import CITIES, COMPASS, ISLANDS
from engine.new_found_land.phases import frames
from engine.new_found_land.phases.flow import phase_over
from engine.new_found_land.setup import place_fitting
from engine.new_found_land.state import NEUTRAL, State
from engine.new_found_land.track import add_points
from engine.words import msg

SCORE_MARK = "wood"  # the good laid on a scored island's or city's symbol


def enter(s: State, ev: list[Event]) -> None:
    s.phase, s.action, s.order, s.step = "scoring", "", [], 0
    cartography(s, ev)
    queue_scorings(s, ev)
    resume(s, ev)


def cartography(s: State, ev: list[Event]) -> None:
    if not s.compass_pile:
        return
    pid = s.compass_pile.pop()
    s.compass_shown.append(pid)
    island = COMPASS[pid]
    placed = []
    for _ in range(CARTOGRAPHY_TILES[str(s.n)]):
        space = place_fitting(s, island, ev)
        if space is None:
            break
        placed.append(s.board[space][0])
        if s.n == 2:
            board.put_markers(s, space, NEUTRAL, 1)
    say(
        ev,
        None,
        msg(
            "Cartography: compass tile %(island)s; %(tiles)s placed there.",
            island=island,
            tiles=", ".join(placed) or msg("no island tile"),
        ),
    )


def queue_scorings(s: State, ev: list[Event]) -> None:
    for kind, name in scoring.due_scorings(s):
        if kind == "island":
            counts, info = board.island_markers(s, name), ISLANDS[name]
        else:
            counts, info = board.city_markers(s, name), CITIES[name]
        pts = scoring.majority(counts, info["first"], info["second"])
        say(ev, None, msg("%(name)s is complete and is scored.", name=name))
        for seat in turn_order(s):
            if pts.get(seat):
                s.queue.append([seat, pts[seat], name])
        s.scored.append(name)
        s.supply[SCORE_MARK] -= 1


def resume(s: State, ev: list[Event]) -> None:
    while s.queue:
        seat, pts, why = s.queue.pop(0)
        add_points(s, seat, pts, ev, why)
        if s.claims:
            frames.start(s, ev)
            return
    phase_over(s, ev, "scoring")


def options(s: State, seat: int) -> list[dict]:
    return []  # scoring is automatic; frame picks interrupt it

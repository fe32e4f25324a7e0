"""Explore: draw the sum of the spyglass values in island tiles; place one
drawn tile per ship (Columbus: one more) on a fitting space, turned as
needed; a marker on each placed tile and all its bonuses; the other drawn
tiles go face down to the discard.  Placing is compulsory while a drawn tile
fits; the drawn tiles are seen only by the explorer."""

from __future__ import annotations

from engine.interface import Event
from engine.new_found_land import board
from engine.new_found_land.common import bundle_text, draw, say, seat_ref, whisper
from engine.new_found_land.data import SHIPS
from engine.new_found_land.phases.planning import ships_at
from engine.new_found_land.phases.settle import take_bonus
from engine.new_found_land.state import State
from engine.words import msg, nmsg


def begin(s: State, seat: int, ev: list[Event]) -> bool:
    ships = ships_at(s, seat)
    spyglass = sum(SHIPS[sid].spyglass for sid, _ in ships)
    places = len(ships) + ("columbus" in s.players[seat]["captains"])
    s.drawn = draw(s, "island_pile", "islands", spyglass)
    s.work = {"places": places}
    who = seat_ref(seat)
    whisper(
        ev,
        seat,
        msg(
            "%(who)s explores and draws %(tiles)s.",
            who=who,
            tiles=", ".join(s.drawn) or msg("nothing"),
        ),
        nmsg(
            "%(who)s explores and draws %(n)s island tile.",
            "%(who)s explores and draws %(n)s island tiles.",
            len(s.drawn),
            who=who,
        ),
    )
    if options(s, seat):
        return True
    _discard_rest(s, seat, ev)
    return False


def options(s: State, seat: int) -> list[dict]:
    if s.work["places"] <= 0:
        return []
    return [
        {"type": "place", "tile": t, "island": isl}
        for t in s.drawn
        for isl in board.fitting_islands(s, t)
    ]


def act(s: State, seat: int, a: dict, ev: list[Event]) -> bool:
    tile = a["tile"]
    s.drawn.remove(tile)
    space = board.place_tile(s, tile, a["island"])
    board.put_markers(s, space, seat, 1)
    s.work["places"] -= 1
    bonus: dict[str, int] = {}
    for b in board.tile_bonuses(s, space):
        for k, v in b.items():
            bonus[k] = bonus.get(k, 0) + v
    say(
        ev,
        seat,
        msg(
            "%(who)s places island tile %(tile)s on %(island)s (%(space)s), puts a "
            "marker on it and takes %(bonus)s.",
            who=seat_ref(seat),
            tile=tile,
            island=a["island"],
            space=space,
            bonus=bundle_text(bonus),
        ),
    )
    take_bonus(s, seat, bonus, ev)
    if options(s, seat):
        return False
    _discard_rest(s, seat, ev)
    return True


def _discard_rest(s: State, seat: int, ev: list[Event]) -> None:
    if s.drawn:
        say(
            ev,
            seat,
            nmsg(
                "%(who)s discards %(n)s island tile face down.",
                "%(who)s discards %(n)s island tiles face down.",
                len(s.drawn),
                who=seat_ref(seat),
            ),
        )
    s.discard["islands"].extend(s.drawn)
    s.drawn = []

"""Settle: each ship separately.  Person value 1 puts one marker on an empty
field of a placed island tile, 2 a two-marker tower; then one of the tile's
two bonuses.  Or New England: 1 point per marker not placed.  Spain's
colonial oversight adds one marker (and one bonus choice) per Settle action."""
from __future__ import annotations

from engine.interface import Event
from engine.new_found_land import board
from engine.new_found_land.common import bundle_text, gain_goods, say, seat_ref
from engine.new_found_land.components import NEW_ENGLAND
from engine.new_found_land.data import SHIPS
from engine.new_found_land.state import State
from engine.new_found_land.track import add_points

NEW_ENGLAND_ACTION = {"type": "new_england"}


def begin(s: State, seat: int, ev: list[Event]) -> bool:
    from engine.new_found_land.phases.actions import ships_at
    queue = [SHIPS[sid].person for sid, _ in ships_at(s, seat)]
    if "colonial_oversight" in s.players[seat]["exts"]:
        queue.append(1)
    s.work = {"queue": queue}
    return True


def options(s: State, seat: int) -> list[dict]:
    opts = []
    for space in board.settle_spaces(s):
        b = board.tile_bonuses(s, space)
        opts.append({"type": "settle", "space": space, "bonus": 0})
        if b[1] != b[0]:
            opts.append({"type": "settle", "space": space, "bonus": 1})
    opts.append(NEW_ENGLAND_ACTION)
    return opts


def act(s: State, seat: int, a: dict, ev: list[Event]) -> None:
    from engine.new_found_land.phases.actions import turn_done
    count = s.work["queue"].pop(0)
    if a["type"] == "settle":
        board.put_markers(s, a["space"], seat, count)
        bonus = board.tile_bonuses(s, a["space"])[a["bonus"]]
        what = "a tower" if count == 2 else "a marker"
        say(ev, seat, f"{seat_ref(seat)} settles {what} on {a['space']} "
                      f"({board.island_of(a['space'])}) and takes {bundle_text(bonus)}.")
        take_bonus(s, seat, bonus, ev)
    else:
        say(ev, seat, f"{seat_ref(seat)} settles in New England.")
        add_points(s, seat, count * NEW_ENGLAND["points_per_marker"], ev, "New England")
    if not s.work["queue"]:
        turn_done(s, seat, ev)


def take_bonus(s: State, seat: int, bonus: dict, ev: list[Event]) -> None:
    gain_goods(s, seat, bonus)
    add_points(s, seat, bonus.get("points", 0), ev, "an island bonus")

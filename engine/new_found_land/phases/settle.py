"""Settle: each ship separately.  Person value 1 puts one marker on an empty
field of a placed island tile, 2 a two-marker tower; then one of the tile's
two bonuses.  Or New England: 1 point per marker not placed.

Spain's colonial oversight, once per Settle action after the ships: "1 extra
markeersteen op één van beide velden van een al op het speelbord liggende
eilandtegel", then once more one of that tile's bonuses.  Either field: an
empty one, or one that already holds the player's own markers (the marker
joins them); never a field of another colour.  It is a "mag": the player may
place no extra marker, and gets nothing for that (README.md)."""

from __future__ import annotations

from engine.interface import Event
from engine.new_found_land import board
from engine.new_found_land.common import DONE, bundle_text, gain_goods, say, seat_ref
from engine.new_found_land.components import NEW_ENGLAND
from engine.new_found_land.data import SHIPS
from engine.new_found_land.phases.planning import ships_at
from engine.new_found_land.state import State
from engine.new_found_land.track import add_points
from engine.turns import NO_EVENTS
from engine.words import msg

NEW_ENGLAND_ACTION = {"type": "new_england"}
OVERSIGHT = "oversight"  # the settle queue's step for Spain's extra marker


def begin(s: State, seat: int, ev: list[Event]) -> bool:
    queue: list[int | str] = [SHIPS[sid].person for sid, _ in ships_at(s, seat)]
    if "colonial_oversight" in s.players[seat]["exts"]:
        queue.append(OVERSIGHT)
    s.work = {"queue": queue}
    return True


def _bonus_choices(s: State, space: str, action: dict) -> list[dict]:
    b = board.tile_bonuses(s, space)
    return [{**action, "bonus": 0}] + ([{**action, "bonus": 1}] if b[1] != b[0] else [])


def options(s: State, seat: int) -> list[dict]:
    if s.work["queue"][0] == OVERSIGHT:
        return oversight_options(s, seat)
    opts = []
    for space in board.settle_spaces(s):
        opts.extend(_bonus_choices(s, space, {"type": "settle", "space": space}))
    opts.append(NEW_ENGLAND_ACTION)
    return opts


def oversight_options(s: State, seat: int) -> list[dict]:
    """Either field of a placed tile: an empty one (no ``field`` key, as in a
    plain settle) or the player's own (``field``: its index); then a bonus."""
    opts = []
    for space in board.placed_spaces(s):
        if board.open_field(s, space) is not None:
            opts.extend(_bonus_choices(s, space, {"type": "settle", "space": space}))
        own = board.own_field(s, space, seat)
        if own is not None:
            opts.extend(_bonus_choices(s, space, {"type": "settle", "space": space, "field": own}))
    opts.append(DONE)
    return opts


def act(s: State, seat: int, a: dict, ev: list[Event]) -> bool:
    step = s.work["queue"].pop(0)
    if a["type"] == "settle":
        count = 1 if step == OVERSIGHT else step
        if "field" in a:
            board.add_markers(s, a["space"], a["field"], seat, count)
        else:
            board.put_markers(s, a["space"], seat, count)
        bonus = board.tile_bonuses(s, a["space"])[a["bonus"]]
        if ev is not NO_EVENTS:  # a bot's rollout reads no log: skip the text
            _say_settled(ev, seat, a, step, count, bonus)
        take_bonus(s, seat, bonus, ev)
    elif a["type"] == "new_england":
        say(ev, seat, msg("%(who)s settles in New England.", who=seat_ref(seat)))
        add_points(s, seat, step * NEW_ENGLAND["points_per_marker"], ev, msg("New England"))
    else:
        say(ev, seat, msg("%(who)s places no extra marker.", who=seat_ref(seat)))
    return not s.work["queue"]


def _say_settled(
    ev: list[Event], seat: int, a: dict, step: int | str, count: int, bonus: dict
) -> None:
    what = (
        msg("the colonial oversight's extra marker")
        if step == OVERSIGHT
        else msg("a tower")
        if count == 2
        else msg("a marker")
    )
    onto = msg(" onto its own marker") if "field" in a else ""
    say(
        ev,
        seat,
        msg(
            "%(who)s settles %(what)s%(onto)s on %(space)s (%(island)s) and takes %(bonus)s.",
            who=seat_ref(seat),
            what=what,
            onto=onto,
            space=a["space"],
            island=board.island_of(a["space"]),
            bonus=bundle_text(bonus),
        ),
    )


def take_bonus(s: State, seat: int, bonus: dict, ev: list[Event]) -> None:
    gain_goods(s, seat, bonus)
    add_points(s, seat, bonus.get("points", 0), ev, msg("an island bonus"))

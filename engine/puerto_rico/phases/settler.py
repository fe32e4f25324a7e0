"""Settler: each player, from the settler on, takes one plantation.

Privilege: the settler may take a quarry instead.  Hacienda: first an extra
face-down tile.  Construction hut: a quarry instead.  Hospice: a colonist
on the tile taken, if the owner wants it.  Afterwards the face-up row is discarded and refilled.

Expansion: a forest instead of a plantation (Forest house, also for the
Hacienda's tile), a second tile for the settler with a Library, guests moved
onto the new tile (``guests``).
"""

from __future__ import annotations

from functools import cache

from engine import rng
from engine.interface import Event
from engine.puerto_rico import guests
from engine.puerto_rico.data import ISLAND_SPACES, QUARRY, TILES
from engine.puerto_rico.phases import roles
from engine.puerto_rico.phases.common import (
    PASS,
    order_from,
    privilege,
    run_order,
    say,
    seat_ref,
    take_colonist,
    tile_name,
    with_optional_colonist,
)
from engine.puerto_rico.state import State
from engine.turns import NO_EVENTS
from engine.words import msg

FOREST = {"type": "forest"}
# The other actions, made once and shared (never changed by callers).
HACIENDA = {"type": "hacienda"}
QUARRY_TILE = {"type": "quarry"}
PLANTATIONS = tuple({"type": "plantation", "kind": kind} for kind in TILES[:QUARRY])


@cache
def _plantation_actions(face_up: tuple[int, ...]) -> list[dict]:
    """One action per kind in the face-up row (a shared list: read it only)."""
    return [PLANTATIONS[kind] for kind in sorted(set(face_up))]


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "settler"
    s.order, s.step = order_from(s, s.role_player), 0
    s.hacienda_used = False
    run_order(s, ev, options, _finish)


def options(s: State, seat: int) -> list[dict]:
    p = s.players[seat]
    if _pending(s) == "hacienda_tile":
        return [
            {"type": "hacienda_tile", "as": "plantation"},
            {"type": "hacienda_tile", "as": "forest"},
        ]
    if p.island_tiles() >= ISLAND_SPACES:
        return []
    opts = []
    if not s.hacienda_used and (s.stack or s.discard) and p.active("extra_plantation"):
        opts.append(HACIENDA)
    opts += _plantation_actions(tuple(s.face_up))
    if s.quarries > 0 and (seat == s.role_player or p.active("quarry_choice")):
        opts.append(QUARRY_TILE)
    if s.x is not None and p.active("forest") and (s.stack or s.discard):
        opts.append(FOREST)
    if opts:
        opts.append(PASS)
    opts = with_optional_colonist(s, opts, p.active("settler_colonist"))
    return guests.with_moves(s, seat, opts)


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    kind = action["type"]
    if guests.in_follow_up(s):
        if guests.act_follow_up(s, seat, action, ev):
            return
        _next_seat(s, ev)
        return
    if kind == "guest":
        guests.move(s, seat, action, ev)
        s._legal = options(s, seat)
        return
    if kind in ("hacienda", "hacienda_tile"):
        if kind == "hacienda":
            _draw_for_hacienda(s, seat, ev)
        else:
            _place_hacienda_tile(s, seat, action["as"], ev)
        opts = options(s, seat)
        if opts:
            s._legal = opts  # same seat now takes (or declines) a face-up tile
            return
    elif kind == "pass":
        if ev is not NO_EVENTS:
            say(ev, seat, msg("%(who)s takes no plantation.", who=seat_ref(seat)))
    else:
        _take(s, seat, action, ev)
        if _second_tile(s, seat) or guests.follow_up(s, seat):
            return
    _next_seat(s, ev)


def _next_seat(s: State, ev: list[Event]) -> None:
    s.hacienda_used = False
    if s.x is not None:
        s.x = dict(s.x, pending=None)
    s.step += 1
    run_order(s, ev, options, _finish)


def _pending(s: State) -> str | None:
    return s.x and (s.x["pending"] or {}).get("kind")


def _take(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    p = s.edit(seat)
    kind = action["type"]
    if kind == "forest":
        p.forests = p.forests + (_draw(s, ev),)
        text = msg("%(who)s takes a forest.", who=seat_ref(seat))
        # Published expansion sheet: a forest takes no colonist, so the
        # Hospice's goes to San Juan.
        if action.get("colonist", True) and p.active("settler_colonist") and take_colonist(s):
            p.san_juan += 1
            text = msg(
                "%(who)s takes a forest and a colonist from the hospice to San Juan.",
                who=seat_ref(seat),
            )
        say(ev, seat, text)
        return
    if kind == "quarry":
        tile = QUARRY
        s.quarries -= 1
    else:
        tile = TILES.index(action["kind"])
        face_up = s.face_up[:]  # shared with the state this was copied from
        face_up.remove(tile)
        s.face_up = face_up
    p.tiles[tile] += 1
    hospice = action.get("colonist", True) and p.active("settler_colonist") and take_colonist(s)
    if hospice:
        p.worked[tile] += 1
    if ev is NO_EVENTS:
        return
    said = dict(who=seat_ref(seat), tile=tile_name(tile))
    if hospice:
        say(ev, seat, msg("%(who)s takes %(tile)s tile with a colonist from the hospice.", **said))
    else:
        say(ev, seat, msg("%(who)s takes %(tile)s tile.", **said))


def _second_tile(s: State, seat: int) -> bool:
    """Library: the settler's privilege counts twice, so the settler takes a
    second tile, which may again be a quarry (published expansion sheet:
    "he can place 0, 1, or 2 forest tiles")."""
    if privilege(s, seat) < 2 or _pending(s) == "second_tile":
        return False
    s.x = dict(s.x, pending={"kind": "second_tile"})
    opts = options(s, seat)
    if not opts:
        return False
    s._legal = opts
    return True


def _draw(s: State, ev: list[Event]) -> int:
    if not s.stack:
        _reshuffle(s, ev)
    tile, s.stack = s.stack[-1], s.stack[:-1]  # a new list: see State.clone
    return tile


def _draw_for_hacienda(s: State, seat: int, ev: list[Event]) -> None:
    s.hacienda_used = True
    tile = _draw(s, ev)
    p = s.edit(seat)
    p.tiles[tile] += 1
    if ev is not NO_EVENTS:
        say(
            ev,
            seat,
            msg(
                "%(who)s draws %(tile)s tile with the hacienda.",
                who=seat_ref(seat),
                tile=tile_name(tile),
            ),
        )
    if s.x is not None and p.active("forest"):
        # Published expansion sheet: the owner looks at the drawn tile, then
        # places it face up or face down as a forest.
        s.x = dict(s.x, pending={"kind": "hacienda_tile", "tile": tile})


def _place_hacienda_tile(s: State, seat: int, how: str, ev: list[Event]) -> None:
    tile = s.x["pending"]["tile"]
    s.x = dict(s.x, pending=None)
    if how == "forest":
        p = s.edit(seat)
        p.tiles[tile] -= 1
        p.forests = p.forests + (tile,)
        say(ev, seat, msg("%(who)s turns it face down as a forest.", who=seat_ref(seat)))


def _reshuffle(s: State, ev: list[Event]) -> None:
    s.stack, s.discard = s.discard[:], []
    s.rng = rng.shuffle(s.rng, s.stack)
    say(ev, None, msg("The discarded plantations are shuffled into a new stack."))


def _finish(s: State, ev: list[Event]) -> None:
    # New lists throughout: the old ones are shared (see State.clone).
    s.discard = s.discard + s.face_up
    s.stack = s.stack[:]
    face_up = []
    for _ in range(s.n + 1):
        if not s.stack and s.discard:
            _reshuffle(s, ev)
        if not s.stack:
            break
        face_up.append(s.stack.pop())
    s.face_up = sorted(face_up)
    roles.end_role(s, ev)

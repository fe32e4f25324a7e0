"""Settler: each player, from the settler on, takes one plantation.

Privilege: the settler may take a quarry instead.  Hacienda: first an extra
face-down tile.  Construction hut: a quarry instead.  Hospice: a colonist
on the tile taken, if the owner wants it.  Afterwards the face-up row is discarded and refilled.
"""
from __future__ import annotations

from engine.interface import Event
from engine import rng
from engine.puerto_rico.data import ISLAND_SPACES, QUARRY, TILES
from engine.puerto_rico.phases import roles
from engine.puerto_rico.phases.common import (PASS, order_from, run_order, say,
                                                seat_ref, take_colonist, with_optional_colonist)
from engine.puerto_rico.state import State


def enter(s: State, ev: list[Event]) -> None:
    s.phase = "settler"
    s.order, s.step = order_from(s, s.role_player), 0
    s.hacienda_used = False
    run_order(s, ev, options, _finish)


def options(s: State, seat: int) -> list[dict]:
    p = s.players[seat]
    if p.island_tiles() >= ISLAND_SPACES:
        return []
    opts = []
    if (not s.hacienda_used and p.active("extra_plantation")
            and (s.stack or s.discard)):
        opts.append({"type": "hacienda"})
    for kind in sorted(set(s.face_up)):
        opts.append({"type": "plantation", "kind": TILES[kind]})
    if s.quarries > 0 and (seat == s.role_player or p.active("quarry_choice")):
        opts.append({"type": "quarry"})
    if opts:
        opts.append(PASS)
    return with_optional_colonist(s, opts, p.active("settler_colonist"))


def act(s: State, seat: int, action: dict, ev: list[Event]) -> None:
    p = s.edit(seat)
    kind = action["type"]
    if kind == "hacienda":
        _draw_for_hacienda(s, seat, ev)
        opts = options(s, seat)
        if opts:
            s._legal = opts     # same seat now takes (or declines) a face-up tile
            return
    elif kind == "pass":
        say(ev, seat, f"{seat_ref(seat)} takes no plantation.")
    else:
        if kind == "quarry":
            tile = QUARRY
            s.quarries -= 1
        else:
            tile = TILES.index(action["kind"])
            s.face_up.remove(tile)
        p.tiles[tile] += 1
        note = ""
        if action.get("colonist", True) and p.active("settler_colonist") and take_colonist(s):
            p.worked[tile] += 1
            note = " with a colonist from the hospice"
        say(ev, seat, f"{seat_ref(seat)} takes a {TILES[tile]} tile{note}.")
    s.hacienda_used = False
    s.step += 1
    run_order(s, ev, options, _finish)



def _draw_for_hacienda(s: State, seat: int, ev: list[Event]) -> None:
    s.hacienda_used = True
    if not s.stack:
        _reshuffle(s, ev)
    tile = s.stack.pop()
    s.edit(seat).tiles[tile] += 1
    say(ev, seat, f"{seat_ref(seat)} draws a {TILES[tile]} tile with the hacienda.")


def _reshuffle(s: State, ev: list[Event]) -> None:
    s.stack, s.discard = s.discard, []
    s.rng = rng.shuffle(s.rng, s.stack)
    say(ev, None, "The discarded plantations are shuffled into a new stack.")


def _finish(s: State, ev: list[Event]) -> None:
    s.discard.extend(s.face_up)
    s.face_up = []
    for _ in range(s.n + 1):
        if not s.stack and s.discard:
            _reshuffle(s, ev)
        if not s.stack:
            break
        s.face_up.append(s.stack.pop())
    s.face_up.sort()
    roles.end_role(s, ev)

"""What one seat may see, and the board laid out as text rows.

Hidden: other players' victory-point chips (they may be kept face down) and
the order of the face-down plantation stack (only its size is shown).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.interface import Section, name_seats
from engine.puerto_rico import building_sets, catalogue
from engine.puerto_rico.data import CARDS, GOODS, TILES, VIOLET_SLOTS
from engine.puerto_rico.phases.roles import ROLE_TITLES
from engine.puerto_rico.state import State
from engine.words import count

SET_TITLES = {"base": "base game", "extended": "extended (chosen by the players)",
              "random": "random (drawn by the server)"}


def view(s: State, seat: int | None) -> dict[str, Any]:
    players = []
    for i, p in enumerate(s.players):
        players.append({
            "doubloons": p.doubloons,
            "vp": p.vp if (i == seat or s.over) else None,
            "goods": dict(zip(GOODS, p.goods)),
            "tiles": dict(zip(TILES, p.tiles)),
            "worked": dict(zip(TILES, p.worked)),
            "buildings": dict(p.buildings),
            "san_juan": p.san_juan,
            "city_spaces": p.city_spaces(),
            "forests": len(p.forests),
        })
    return {
        "game": "puerto_rico", "viewer": seat, "round": s.round, "governor": s.governor,
        "phase": s.phase, "turn": s.turn, "role_player": s.role_player,
        "roles": dict(s.roles), "taken": dict(s.taken),
        "colonist_supply": s.colonist_supply, "colonist_ship": s.colonist_ship,
        "vp_supply": s.vp_supply, "bank": s.bank, "quarries": s.quarries,
        "goods_supply": dict(zip(GOODS, s.goods_supply)),
        "stack_size": len(s.stack), "face_up": [TILES[k] for k in s.face_up],
        "discard": [TILES[k] for k in s.discard],
        "ships": [{"capacity": c, "kind": GOODS[k] if k >= 0 else None, "count": n}
                  for c, k, n in s.ships],
        "trading_house": [GOODS[k] for k in s.house],
        "buildings_left": dict(s.buildings_left),
        "mayor_pool": s.mayor_pool if s.phase == "mayor" else 0,
        "end_triggered": s.end_triggered, "over": s.over,
        "building_set": s.x["set"] if s.x is not None else "base",
        "players": players,
    }


def _counts(d: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in d.items() if n) or "none"


def board(v: Mapping[str, Any], names: Sequence[str] | None = None) -> list[Section]:
    who = lambda i: name_seats("{s%d}" % i, names)  # noqa: E731
    roles = ", ".join(f"{ROLE_TITLES[r]} ({c})" if c else ROLE_TITLES[r]
                      for r, c in v["roles"].items())
    taken = ", ".join(f"{ROLE_TITLES[r]}: {who(i)}" for r, i in v["taken"].items())
    ships = "; ".join(f"{sh['capacity']}-ship: " + (f"{sh['count']} {sh['kind']}"
                                                   if sh["kind"] else "empty") for sh in v["ships"])
    sections = [Section("Table", (
        ("Round", f"{v['round']}, governor {who(v['governor'])}"),
        ("Roles on offer", roles or "none"),
        ("Roles taken", taken or "none"),
        ("Ships", ships),
        ("Trading house", ", ".join(v["trading_house"]) or "empty"),
        ("Face-up plantations", ", ".join(v["face_up"]) or "none"),
        ("Plantations", f"{v['stack_size']} face down, {len(v['discard'])} discarded, "
                        f"{count(v['quarries'], 'quarry')}"),
        ("Colonists", f"{v['colonist_ship']} on the ship, {v['colonist_supply']} in supply"),
        ("Victory points", f"{count(v['vp_supply'], 'chip')} left"),
        ("Goods in supply", _counts(v["goods_supply"])),
        ("Buildings left", ", ".join(f"{CARDS[b].title} ×{n}"
                                      for b, n in v["buildings_left"].items() if n)),
    ))]
    for i, p in enumerate(v["players"]):
        tiles = ", ".join([f"{p['tiles'][t]} {t} ({p['worked'][t]} worked)"
                           for t in TILES if p["tiles"][t]]
                          + ([f"{p['forests']} forest{'s' * (p['forests'] > 1)}"]
                             if p.get("forests") else []))
        city = ", ".join(f"{CARDS[b].title} ({c}/{CARDS[b].circles})"
                         for b, c in p["buildings"].items())
        sections.append(Section(who(i), (
            ("Doubloons", str(p["doubloons"])),
            ("Victory-point chips", "hidden" if p["vp"] is None else str(p["vp"])),
            ("Goods", _counts(p["goods"])),
            ("Island", tiles or "empty"),
            ("City", f"{city or 'empty'} — {p['city_spaces']}/12 spaces"),
            ("San Juan", str(p["san_juan"])),
        )))
    return sections + [_building_set(v)]


def _building_set(v: Mapping[str, Any]) -> Section:
    """The buildings in play with their cards; while the players choose
    (extended), the slots per cost that are still open."""
    kind = v.get("building_set", "base")
    left = v["buildings_left"]
    if v["phase"] == "select":
        slots = building_sets.open_slots(left)
        rows = tuple((f"Cost {cost}", _slot_row(left, cost, slots[cost]))
                     for cost in sorted(VIOLET_SLOTS))
        return Section("Building set being chosen (extended)", rows)
    rows = tuple((CARDS[b].title, f"{catalogue.describe(b)} ({n} left)")
                 for b, n in left.items())
    return Section(f"Buildings in play: {SET_TITLES.get(kind, kind)}", rows)


def _slot_row(left: Mapping[str, int], cost: int, still_open: int) -> str:
    chosen = [CARDS[b].title for b in left if CARDS[b].violet and CARDS[b].cost == cost]
    return f"{', '.join(chosen) or 'nothing yet'}; {still_open} of {VIOLET_SLOTS[cost]} open"

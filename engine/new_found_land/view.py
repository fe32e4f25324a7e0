"""What one seat may see, and the board laid out as text rows.

Hidden: one-time and goal cards in other hands (counts only), the cards or
tiles the seat to move has drawn (loading, exploring) and a goal pile looked
at for a frame tile (only that player sees them), the large ships on offer
(only their cost side is up), and every face-down pile and the discard board
(sizes only).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.interface import Section, name_seats
from engine.new_found_land import labels
from engine.new_found_land.board import island_of
from engine.new_found_land.common import SEMICOLON
from engine.new_found_land.data import (
    CAPTAINS,
    CONTRACT_FIELDS,
    CONTRACTS,
    FRAMES,
    ISLANDS,
    SHIPS,
    TILES,
)
from engine.new_found_land.phases.land import shipyards
from engine.new_found_land.state import State
from engine.words import N_, Words, listing, msg, nmsg, term


def _ship(sid: str) -> dict[str, Any]:
    sh = SHIPS[sid]
    return {
        "id": sid,
        "kind": sh.kind,
        "sail": sh.sail,
        "crate": sh.crate,
        "person": sh.person,
        "spyglass": sh.spyglass,
    }


def _player(s: State, i: int, seat: int | None) -> dict[str, Any]:
    p = s.players[i]
    mine = i == seat
    return {
        "nation": p["nation"],
        "score": p["score"],
        "goods": dict(p["goods"]),
        "ships": [_ship(x) for x in p["ships"]],
        "shipyards": shipyards(p),
        "extensions": list(p["exts"]),
        "captains": list(p["captains"]),
        "markers": p["markers"],
        "fifty": p["fifty"],
        "hundred": p["hundred"],
        "hand": list(p["hand"]) if mine else None,
        "hand_count": len(p["hand"]),
        "goals": list(p["goals"]) if mine else None,
        "goal_count": len(p["goals"]),
        "final": [list(x) for x in p["final"]],
    }


def view(s: State, seat: int | None) -> dict[str, Any]:
    mover = s.turn if not s.over else None
    frame_pile = None
    if s.phase == "frame" and seat is not None and seat == mover:
        gives = FRAMES[s.claims[0][1]]["gives"]
        frame_pile = list(s.goal_piles.get(gives, []))
    return {
        "game": "new_found_land",
        "viewer": seat,
        "round": s.round,
        "start": s.start,
        "phase": s.phase,
        "action": s.action,
        "turn": s.turn,
        "over": s.over,
        "options": dict(s.options),
        "players": [_player(s, i, seat) for i in range(s.n)],
        "small_offer": [_ship(x) if x else None for x in s.small_offer],
        "large_offer": [{"cost": dict(SHIPS[x].cost)} if x else None for x in s.large_offer],
        "contracts": [
            {
                "field": i,
                "city": CONTRACT_FIELDS[i],
                "id": c,
                "goods": dict(CONTRACTS[c]["goods"]),
                "points": CONTRACTS[c]["points"],
            }
            if c
            else None
            for i, c in enumerate(s.contracts)
        ],
        "piles": {
            "small": len(s.small_pile),
            "large": len(s.large_pile),
            "cards": len(s.card_pile),
            "contracts": len(s.contract_pile),
            "islands": len(s.island_pile),
            "compass": len(s.compass_pile),
            "goals": {k: len(v) for k, v in s.goal_piles.items()},
        },
        "discard": {k: len(v) for k, v in s.discard.items()},
        "captains": list(s.captains),
        "goods_field": list(s.goods_field),
        "supply": dict(s.supply),
        "board": {
            sp: {
                "tile": c[0],
                "island": island_of(sp),
                "fields": [list(f) for f in c[1]],
                "bonuses": TILES[c[0]]["bonuses"],
            }
            for sp, c in s.board.items()
        },
        "cities": {k: list(v) for k, v in s.cities.items()},
        "scored": list(s.scored),
        "frames": {k: {"space": v[0], "reached": list(v[1])} for k, v in s.frames.items()},
        "compass_shown": list(s.compass_shown),
        "fifty_left": len(s.fifty),
        "plan": {a: [[list(x) for x in per] for per in v] for a, v in s.plan.items()},
        "drawn": list(s.drawn) if seat is not None and seat == mover else None,
        "drawn_count": len(s.drawn),
        "frame_pile": frame_pile,
        "work": dict(s.work) if s.work else None,  # crates, settle queue, payment waiting
    }


def board(v: Mapping[str, Any], names: Sequence[str] | None = None) -> list[Section]:
    who = lambda i: msg("neutral") if i == -1 else name_seats("{s%d}" % i, names)  # noqa: E731
    dash = "—"
    small = listing([labels.ship_text(x["id"]) if x else dash for x in v["small_offer"]], SEMICOLON)
    large = listing(
        [labels.bundle_text(x["cost"]) if x else dash for x in v["large_offer"]], SEMICOLON
    )
    contracts = listing(
        [
            msg("%(city)s: %(contract)s", city=c["city"], contract=labels.contract_text(c["id"]))
            if c
            else dash
            for c in v["contracts"]
        ],
        SEMICOLON,
    )
    frames = listing(
        [
            msg("%(frame)s on %(space)s", frame=term(k), space=f["space"])
            for k, f in v["frames"].items()
            if f["space"]
        ]
    )
    piles = listing(
        [
            msg("%(pile)s %(n)s", pile=term(PILES.get(k, k)), n=n)
            for k, n in v["piles"].items()
            if k != "goals"
        ]
    )
    rows = [
        (
            msg("Round"),
            msg("%(round)s of 4, start player %(who)s", round=v["round"], who=who(v["start"])),
        ),
        (msg("Small ships on offer"), small),
        (msg("Large ships on offer (cost)"), large),
        (msg("Contracts"), contracts),
        (msg("Frame tiles"), frames or msg("none left")),
        (msg("Captains"), captains(v["captains"])),
        (msg("Goods field"), listing([term(g) for g in v["goods_field"]]) or msg("empty")),
        (msg("Piles"), piles),
    ]
    sections = [
        Section(msg("Table"), tuple(rows)),
        Section(msg("Islands and cities"), _places(v, who)),
    ]
    for i, p in enumerate(v["players"]):
        sections.append(
            Section(
                msg("%(who)s — %(nation)s", who=who(i), nation=term(p["nation"])), _player_rows(p)
            )
        )
    return sections


PILES = {
    "small": N_("small ships"),
    "large": N_("large ships"),
    "cards": N_("one-time cards"),
    "contracts": N_("contracts"),
    "islands": N_("island tiles"),
    "compass": N_("compass tiles"),
}


EXTENSION_NAMES = {
    "portuguese_shipyard": N_("portuguese shipyard"),
    "colonial_oversight": N_("colonial oversight"),
    "colonial_harbour": N_("colonial harbour"),
    "toll_house": N_("toll house"),
    "naval_base": N_("naval base"),
    "shipyard": N_("shipyard"),
}


def _places(v: Mapping[str, Any], who) -> tuple:
    rows = []
    for name in ISLANDS:
        # "space NF1, tile T04 (shape: bonus): Cy 1 marker, a free field"
        tiles = [
            msg(
                "space %(space)s, tile %(tile)s: %(fields)s",
                space=sp,
                tile=labels.tile_text(c["tile"]),
                fields=listing([_field(who, o, k) for o, k in c["fields"]]),
            )
            for sp, c in v["board"].items()
            if c["island"] == name
        ]
        title = msg("%(place)s (scored)", place=name) if name in v["scored"] else name
        rows.append((title, listing(tiles, SEMICOLON) or msg("no tiles")))
    for city, seats in v["cities"].items():
        title = msg("%(place)s (scored)", place=city) if city in v["scored"] else city
        rows.append((title, listing([who(i) for i in seats]) or msg("no markers")))
    return tuple(rows)


def _field(who, owner: int | None, markers: int) -> Words:
    if owner is None:
        return msg("a free field")
    return nmsg("%(who)s %(n)s marker", "%(who)s %(n)s markers", markers, who=who(owner))


def _player_rows(p: Mapping[str, Any]) -> tuple:
    hand = (
        listing([labels.card_text(c) for c in p["hand"]], SEMICOLON)
        if p["hand"] is not None
        else nmsg("%(n)s card", "%(n)s cards", p["hand_count"])
    )
    goals = (
        listing([labels.goal_text(g) for g in p["goals"]], SEMICOLON)
        if p["goals"] is not None
        else nmsg("%(n)s card", "%(n)s cards", p["goal_count"])
    )
    ships = nmsg(
        "%(ships)s (%(n)s shipyard)",
        "%(ships)s (%(n)s shipyards)",
        p["shipyards"],
        ships=listing([labels.ship_text(x["id"]) for x in p["ships"]], SEMICOLON),
    )
    extensions = listing(
        [term(EXTENSION_NAMES.get(x, x.replace("_", " "))) for x in p["extensions"]]
    )
    return (
        (msg("Score"), str(p["score"])),
        (msg("Goods"), labels.bundle_text(p["goods"])),
        (msg("Ships"), ships),
        (msg("Extensions"), extensions or msg("no extensions")),
        (msg("Captains"), captains(p["captains"])),
        (msg("One-time cards"), hand or msg("no cards")),
        (msg("Goal cards"), goals or msg("no cards")),
    )


def captains(ids) -> Words:
    """Captains by name ("Da Gama"), not by id ("da_gama")."""
    return listing([CAPTAINS.get(c, c) for c in ids]) or msg("no captain")

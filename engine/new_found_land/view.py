"""What one seat may see, and the board laid out as text rows.

Hidden: one-time and goal cards in other hands (counts only), the cards or
tiles the seat to move has drawn (loading, exploring) and a goal pile looked
at for a frame tile (only that player sees them), the large ships on offer
(only their cost side is up), and every face-down pile and the discard board
(sizes only).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.interface import Section, name_seats
from engine.new_found_land import labels
from engine.new_found_land.board import island_of
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
from engine.words import count


def _ship(sid: str) -> dict[str, Any]:
    sh = SHIPS[sid]
    return {"id": sid, "kind": sh.kind, "sail": sh.sail, "crate": sh.crate,
            "person": sh.person, "spyglass": sh.spyglass}


def _player(s: State, i: int, seat: int | None) -> dict[str, Any]:
    p = s.players[i]
    mine = i == seat
    return {"nation": p["nation"], "score": p["score"], "goods": dict(p["goods"]),
            "ships": [_ship(x) for x in p["ships"]], "shipyards": shipyards(p),
            "extensions": list(p["exts"]), "captains": list(p["captains"]),
            "markers": p["markers"], "fifty": p["fifty"], "hundred": p["hundred"],
            "hand": list(p["hand"]) if mine else None, "hand_count": len(p["hand"]),
            "goals": list(p["goals"]) if mine else None, "goal_count": len(p["goals"]),
            "final": [list(x) for x in p["final"]]}


def view(s: State, seat: int | None) -> dict[str, Any]:
    mover = s.turn if not s.over else None
    frame_pile = None
    if s.phase == "frame" and seat is not None and seat == mover:
        gives = FRAMES[s.claims[0][1]]["gives"]
        frame_pile = list(s.goal_piles.get(gives, []))
    return {
        "game": "new_found_land", "viewer": seat, "round": s.round, "start": s.start,
        "phase": s.phase, "action": s.action, "turn": s.turn, "over": s.over,
        "options": dict(s.options),
        "players": [_player(s, i, seat) for i in range(s.n)],
        "small_offer": [_ship(x) if x else None for x in s.small_offer],
        "large_offer": [{"cost": dict(SHIPS[x].cost)} if x else None for x in s.large_offer],
        "contracts": [{"field": i, "city": CONTRACT_FIELDS[i], "id": c,
                       "goods": dict(CONTRACTS[c]["goods"]), "points": CONTRACTS[c]["points"]}
                      if c else None for i, c in enumerate(s.contracts)],
        "piles": {"small": len(s.small_pile), "large": len(s.large_pile),
                  "cards": len(s.card_pile), "contracts": len(s.contract_pile),
                  "islands": len(s.island_pile), "compass": len(s.compass_pile),
                  "goals": {k: len(v) for k, v in s.goal_piles.items()}},
        "discard": {k: len(v) for k, v in s.discard.items()},
        "captains": list(s.captains), "goods_field": list(s.goods_field),
        "supply": dict(s.supply),
        "board": {sp: {"tile": c[0], "island": island_of(sp), "fields": [list(f) for f in c[1]],
                       "bonuses": TILES[c[0]]["bonuses"]} for sp, c in s.board.items()},
        "cities": {k: list(v) for k, v in s.cities.items()}, "scored": list(s.scored),
        "frames": {k: {"space": v[0], "reached": list(v[1])} for k, v in s.frames.items()},
        "compass_shown": list(s.compass_shown), "fifty_left": len(s.fifty),
        "plan": {a: [[list(x) for x in per] for per in v] for a, v in s.plan.items()},
        "drawn": list(s.drawn) if seat is not None and seat == mover else None,
        "drawn_count": len(s.drawn), "frame_pile": frame_pile,
        "work": dict(s.work) if s.work else None,     # crates, settle queue, payment waiting
    }


def board(v: Mapping[str, Any], names: Sequence[str] | None = None) -> list[Section]:
    who = lambda i: "neutral" if i == -1 else name_seats("{s%d}" % i, names)  # noqa: E731
    small = "; ".join(labels.ship_text(x["id"]) if x else "—" for x in v["small_offer"])
    large = "; ".join(labels.bundle_text(x["cost"]) if x else "—" for x in v["large_offer"])
    contracts = "; ".join(f"{c['city']}: {labels.contract_text(c['id'])}" if c else "—"
                          for c in v["contracts"])
    frames = ", ".join(f"{k} on {f['space']}" for k, f in v["frames"].items() if f["space"])
    rows = [("Round", f"{v['round']} of 4, start player {who(v['start'])}"),
            ("Small ships on offer", small), ("Large ships on offer (cost)", large),
            ("Contracts", contracts), ("Frame tiles", frames or "none left"),
            ("Captains", captains(v["captains"])),
            ("Goods field", ", ".join(v["goods_field"]) or "empty"),
            ("Piles", ", ".join(f"{k} {n}" for k, n in v["piles"].items() if k != "goals"))]
    sections = [Section("Table", tuple(rows))]
    isl_rows = []
    for name in ISLANDS:
        # "space NF1, tile T04 (shape: bonus): Cy 1 marker, a free field"
        tiles = [f"space {sp}, tile {labels.tile_text(c['tile'])}: " + ", ".join(
            f"{who(o)} {count(k, 'marker')}" if o is not None else "a free field"
            for o, k in c["fields"]) for sp, c in v["board"].items() if c["island"] == name]
        done = " (scored)" if name in v["scored"] else ""
        isl_rows.append((name + done, "; ".join(tiles) or "no tiles"))
    for city, seats in v["cities"].items():
        done = " (scored)" if city in v["scored"] else ""
        isl_rows.append((city + done, ", ".join(who(i) for i in seats) or "no markers"))
    sections.append(Section("Islands and cities", tuple(isl_rows)))
    for i, p in enumerate(v["players"]):
        hand = ("; ".join(labels.card_text(c) for c in p["hand"]) if p["hand"] is not None
                else count(p['hand_count'], "card"))
        goals = ("; ".join(labels.goal_text(g) for g in p["goals"]) if p["goals"] is not None
                 else count(p['goal_count'], "card"))
        sections.append(Section(f"{who(i)} — {p['nation']}", (
            ("Score", str(p["score"])),
            ("Goods", labels.bundle_text(p["goods"])),
            ("Ships", "; ".join(labels.ship_text(x["id"]) for x in p["ships"])
             + f" ({count(p['shipyards'], 'shipyard')})"),
            ("Extensions", ", ".join(x.replace("_", " ") for x in p["extensions"]) or "none"),
            ("Captains", captains(p["captains"])),
            ("One-time cards", hand or "none"), ("Goal cards", goals or "none"),
        )))
    return sections


def captains(ids) -> str:
    """Captains by name ("Da Gama"), not by id ("da_gama")."""
    return ", ".join(CAPTAINS.get(c, c) for c in ids) or "none"

"""Words for prompts, actions and components, as a form or an email shows them."""
from __future__ import annotations

from engine.new_found_land import board
from engine.new_found_land.common import bundle_text
from engine.new_found_land.components import NEW_ENGLAND
from engine.new_found_land.data import (CAPTAINS, CARDS, CONTRACT_FIELDS, CONTRACTS, GOALS,
                                        SHIPS, TILES)
from engine.new_found_land.phases.deliver import TOLL_HOUSE_POINTS
from engine.new_found_land.phases.land import ext_title, extension_cost, ship_cost
from engine.new_found_land.phases.planning import TITLES
from engine.new_found_land.state import State

GOAL_WORDS = {"symbol": "{param} value on your ships", "ships": "{param} ships",
              "city_markers": "markers in cities", "full_cities": "completed cities with your marker",
              "one_island": "markers on one island",
              "full_islands": "completed islands with 6 of your markers",
              "island_markers": "markers on islands"}


def ship_text(sid: str) -> str:
    sh = SHIPS[sid]
    parts = [f"sail {sh.sail}"] + [f"{k} {getattr(sh, k)}" for k in ("crate", "person", "spyglass")
                                   if getattr(sh, k)]
    return f"{sid} ({', '.join(parts)})"


def card_text(cid: str) -> str:
    c = CARDS[cid]
    if c["kind"] == "charter":
        return "charter ship " + ship_text(cid)
    return f"{cid} ({bundle_text(c['gain'])})"


def goal_text(gid: str) -> str:
    g = GOALS[gid]
    if g["kind"] == "goods":
        return f"{gid} ({g['lower'][0]} {g['param']}: {g['lower'][1]} points)"
    what = GOAL_WORDS[g["kind"]].format(param=g["param"])
    return (f"{gid} ({g['lower'][0]} {what}: {g['lower'][1]} points; "
            f"{g['upper'][0]}: {g['upper'][1]})")


def tile_text(tid: str) -> str:
    t = TILES[tid]
    return f"{tid} ({t['shape']}: {' / '.join(bundle_text(b) for b in t['bonuses'])})"


def contract_text(cid: str) -> str:
    k = CONTRACTS[cid]
    return f"{bundle_text(k['goods'])} for {k['points']} points"


def prompt(s: State) -> str:
    if s.phase == "land":
        return "extend your harbour and build ships, then end your land phase"
    if s.phase == "plan":
        return f"send ships to {TITLES[s.action]}"
    if s.phase == "frame":
        return f"take your reward for reaching the {s.claims[0][1]} frame tile"
    if s.phase == "goals":
        return "play goal cards"
    if s.phase == "act":
        w = s.work or {}
        if s.action == "load":
            return "keep a one-time card" if w.get("keep") else "choose the good to load"
        if s.action == "settle":
            return f"settle a ship with person value {w['queue'][0]}" if w.get("queue") else "settle"
        if s.action == "deliver":
            return "fulfil contracts or deliver to Antwerp"
        return "place an island tile you drew"
    return "nothing: the game is over"


def label(s: State, a: dict) -> str:
    t, seat = a["type"], s.turn
    p = s.players[seat] if seat is not None else None
    if t == "extend":
        return f"Build the {ext_title(p, a['ext'])} for {bundle_text(extension_cost(p, a['ext']))}"
    if t == "build":
        offer = s.small_offer if a["row"] == "small" else s.large_offer
        sid = offer[a["slot"]]
        what = ship_text(sid) if a["row"] == "small" else f"the large ship in slot {a['slot'] + 1}"
        text = f"Build {what} for {bundle_text(ship_cost(sid))}"
        return text + (f", discarding {ship_text(a['discard'])}" if "discard" in a else "")
    if t == "done":
        return _done_label(s)
    if t == "assign":
        cap = f" with {CAPTAINS[a['captain']]}" if a.get("captain") else ""
        return f"Send {ship_text(a['ship'])}{cap} to {TITLES[s.action]}"
    if t == "load":
        return f"Load 1 {a['good']}"
    if t == "keep":
        return f"Keep {card_text(a['card'])}"
    if t == "settle":
        bonus = bundle_text(board.tile_bonuses(s, a["space"])[a["bonus"]])
        tower = "a tower" if s.work["queue"][0] == 2 else "a marker"
        return f"Put {tower} on {a['space']} ({board.island_of(a['space'])}) and take {bonus}"
    if t == "new_england":
        pts = s.work["queue"][0] * NEW_ENGLAND["points_per_marker"]
        return f"Settle in New England for {pts} point{'s' * (pts > 1)}"
    if t == "deliver":
        cid = s.contracts[a["field"]]
        extra = TOLL_HOUSE_POINTS if "toll_house" in p["exts"] else 0
        pts = CONTRACTS[cid]["points"] + extra
        return (f"Deliver {bundle_text(CONTRACTS[cid]['goods'])} to {CONTRACT_FIELDS[a['field']]} "
                f"for {pts} points with {', '.join(a['ships'])}")
    if t == "antwerp":
        return f"Deliver 1 {a['good']} to Antwerp for 1 point"
    if t == "place":
        return f"Place {tile_text(a['tile'])} on {a['island']}"
    if t == "captain":
        return f"Take {CAPTAINS[a['captain']]}"
    if t == "field_good":
        return f"Take 1 {a['good']} from the goods field"
    if t == "take_goal":
        return f"Keep goal card {goal_text(a['card'])}"
    if t == "goal":
        pay = f", paying {' and '.join(a['pay'])}" if "pay" in a else ""
        return f"Play goal card {goal_text(a['card'])}{pay}"
    if t == "play":
        return f"Play one-time card {card_text(a['card'])}"
    return t


def _done_label(s: State) -> str:
    if s.phase == "land":
        return "End your land phase"
    if s.phase == "plan":
        return f"Send no more ships to {TITLES[s.action]}"
    if s.phase == "goals":
        return "Play no more goal cards"
    return "Deliver nothing more"

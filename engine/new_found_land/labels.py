"""Words for prompts, actions and components, as a form or an email shows them."""
from __future__ import annotations

from engine.new_found_land import board
from engine.new_found_land.common import bundle_text, payment, payments
from engine.new_found_land.components import NEW_ENGLAND
from engine.new_found_land.data import (
    CAPTAINS,
    CARDS,
    CONTRACT_FIELDS,
    CONTRACTS,
    GOALS,
    SHIPS,
    TILES,
)
from engine.new_found_land.phases.deliver import TOLL_HOUSE_POINTS, antwerp_sender
from engine.new_found_land.phases.land import action_cost, ext_title
from engine.new_found_land.phases.planning import TITLES
from engine.new_found_land.phases.settle import OVERSIGHT
from engine.new_found_land.state import State
from engine.words import N_, count, fill

CHOOSE = "gold may stand in: you choose how to pay next"
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
        return f"{gid} ({g['lower'][0]} {g['param']}: {count(g['lower'][1], 'point')})"
    what = GOAL_WORDS[g["kind"]].format(param=g["param"])
    # "markers in cities: 3 for 4 points, 5 for 8 points": no "1 ships".
    return (f"{gid} ({what}: {g['lower'][0]} for {count(g['lower'][1], 'point')}, "
            f"{g['upper'][0]} for {count(g['upper'][1], 'point')})")


def tile_text(tid: str) -> str:
    t = TILES[tid]
    return f"{tid} ({t['shape']}: {' / '.join(bundle_text(b) for b in t['bonuses'])})"


def contract_text(cid: str) -> str:
    k = CONTRACTS[cid]
    return f"{bundle_text(k['goods'])} for {count(k['points'], 'point')}"


# The planning prompt per action: "send ships to" + planning.TITLES.
PLAN_PROMPTS = {"load": N_("send ships to Load"), "settle": N_("send ships to Settle"),
                "deliver": N_("send ships to Deliver"), "explore": N_("send ships to Explore")}


def prompt(s: State) -> str:
    return fill(*prompt_message(s))


def prompt_message(s: State) -> tuple[str, dict]:
    """The prompt as a template and its values (``Game.prompt_message``)."""
    if s.work and s.work.get("pending"):
        return N_("choose how to pay (gold may stand in for wood, cloth or iron)"), {}
    if s.phase == "land":
        return N_("extend your harbour and build ships, then end your land phase"), {}
    if s.phase == "plan":
        return PLAN_PROMPTS[s.action], {}
    if s.phase == "frame":
        return (N_("take your reward for reaching the %(frame)s frame tile"),
                {"frame": s.claims[0][1]})
    if s.phase == "goals":
        return N_("play goal cards"), {}
    if s.phase == "act":
        return _act_prompt(s)
    return N_("nothing: the game is over"), {}


def _act_prompt(s: State) -> tuple[str, dict]:
    w = s.work or {}
    if s.action == "load":
        return (N_("keep a one-time card") if w.get("keep")
                else N_("choose the good to load")), {}
    if s.action == "settle":
        if not w.get("queue"):
            return N_("settle"), {}
        if w["queue"][0] == OVERSIGHT:
            return N_("place the colonial oversight's extra marker on an island tile"), {}
        return N_("settle a ship with person value %(value)s"), {"value": w["queue"][0]}
    if s.action == "deliver":
        return N_("fulfil contracts or deliver to Antwerp"), {}
    return N_("place an island tile you drew"), {}


def label(s: State, a: dict) -> str:
    t, seat = a["type"], s.turn
    p = s.players[seat] if seat is not None else None
    if t == "extend":
        return f"Build the {ext_title(p, a['ext'])} for {price_text(p['goods'], action_cost(s, seat, a))}"
    if t == "build":
        text = f"Build {built_text(s, a)} for {price_text(p['goods'], action_cost(s, seat, a))}"
        return text + (f", discarding {ship_text(a['discard'])}" if "discard" in a else "")
    if t == "pay":
        return pay_text(s, p, a)
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
        step = s.work["queue"][0]
        where = f"{a['space']} ({board.island_of(a['space'])})"
        if step == OVERSIGHT:
            onto = " onto your marker" if "field" in a else ""
            return f"Put the colonial oversight's extra marker{onto} on {where} and take {bonus}"
        tower = "a tower" if step == 2 else "a marker"
        return f"Put {tower} on {where} and take {bonus}"
    if t == "new_england":
        pts = s.work["queue"][0] * NEW_ENGLAND["points_per_marker"]
        return f"Settle in New England for {pts} point{'s' * (pts > 1)}"
    if t == "deliver":
        cid = s.contracts[a["field"]]
        extra = TOLL_HOUSE_POINTS if "toll_house" in p["exts"] else 0
        pts = CONTRACTS[cid]["points"] + extra
        want = CONTRACTS[cid]["goods"]
        ways = payments(p["goods"], want)
        paid = f", paying {bundle_text(ways[0][0])}," if ways[0][0] != want else ""
        text = (f"Deliver {bundle_text(want)} to {CONTRACT_FIELDS[a['field']]}{paid} "
                f"for {pts} points with {', '.join(a['ships'])}")
        return text + (f" ({CHOOSE})" if len(ways) > 1 else "")
    if t == "antwerp":
        sid = antwerp_sender(s, a)
        ship = f", sending {ship_text(sid)} there" if sid else ""
        return f"Deliver 1 {a['good']} to Antwerp for 1 point{ship}"
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


def price_text(goods: dict, cost: dict) -> str:
    """What a cost takes from the store: the payment itself when there is one
    way to pay, else the cost and a word that the next decision chooses."""
    ways = payments(goods, cost)
    if len(ways) == 1:
        return bundle_text(ways[0][0])
    return f"{bundle_text(cost)} ({CHOOSE})"


def built_text(s: State, a: dict) -> str:
    if a["type"] == "extend":
        return f"the {ext_title(s.players[s.turn], a['ext'])}"
    sid = (s.small_offer if a["row"] == "small" else s.large_offer)[a["slot"]]
    return f"small ship {ship_text(sid)}" if a["row"] == "small" else \
        f"the large ship in slot {a['slot'] + 1}"


def pay_text(s: State, p: dict, a: dict) -> str:
    pending = s.work["pending"]
    if pending["type"] == "deliver":
        cost = CONTRACTS[s.contracts[pending["field"]]]["goods"]
        what = f"the contract in {CONTRACT_FIELDS[pending['field']]} ({bundle_text(cost)})"
    else:
        cost = action_cost(s, s.turn, pending)
        what = built_text(s, pending)
    pay = payment(p["goods"], cost, a["gold_for"])
    instead = {g: a["gold_for"].count(g) for g in a["gold_for"]}
    instead = f" (gold for {bundle_text(instead)})" if instead else ""
    return f"Pay {bundle_text(pay)}{instead} for {what}"


def _done_label(s: State) -> str:
    if s.phase == "land":
        return "End your land phase"
    if s.phase == "plan":
        return f"Send no more ships to {TITLES[s.action]}"
    if s.phase == "goals":
        return "Play no more goal cards"
    if s.action == "settle":
        return "Place no extra marker"
    return "Deliver nothing more"
